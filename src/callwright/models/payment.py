from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
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
    #: card (the user paid on the Billing page) | auto (auto-recharge, off-session).
    source: Mapped[str] = mapped_column(String(8), default="card")
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


class BillingProfile(Base):
    """A user's saved card (a Stripe customer and PaymentMethod) and auto-recharge: when a
    call's charge leaves the balance under the threshold, the saved card is charged the amount,
    at most once per period (CALLWRIGHT_AUTO_RECHARGE_PERIOD_HOURS). A failure turns it off."""

    __tablename__ = "billing_profiles"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    stripe_customer_id: Mapped[str | None] = mapped_column(String(255), default=None)
    payment_method_id: Mapped[str | None] = mapped_column(String(255), default=None)
    card: Mapped[str | None] = mapped_column(String(64), default=None)
    auto_recharge: Mapped[bool] = mapped_column(Boolean, default=False)
    threshold_cents: Mapped[int] = mapped_column(Integer, default=500)
    amount_cents: Mapped[int] = mapped_column(Integer, default=2500)
    last_recharge_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: Why the last auto-recharge failed (it was turned off then).
    failure: Mapped[str | None] = mapped_column(String(255), default=None)
