from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class TopUp(Base):
    """A card top-up: one Stripe PaymentIntent this install created for a user. Only a
    PaymentIntent found here is ever credited (a Stripe account, or a localstripe, may serve
    other installs whose webhooks reach this one), and only for the amount written here.

    `status`: pending (created, not paid yet) | succeeded (credited) | failed | refunded."""

    __tablename__ = "top_ups"
    __table_args__ = (Index("ix_top_ups_user_created", "user_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    payment_intent_id: Mapped[str] = mapped_column(String(255), unique=True)
    amount_cents: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    #: The card's brand and last four digits, when Stripe said.
    card: Mapped[str | None] = mapped_column(String(64), default=None)
    failure: Mapped[str | None] = mapped_column(String(255), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    credited_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    refunded_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: The admin who refunded it.
    refunded_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
