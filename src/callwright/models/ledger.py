from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class LedgerEntry(Base):
    """One change to a user's prepaid balance, in cents; append-only. `amount_cents` is what
    the entry did to the balance (negative takes money), `balance_after_cents` the balance it
    left. A call has at most one hold, one charge and one release (the unique constraint is
    what makes settling idempotent); a Stripe PaymentIntent at most one top-up and one refund
    (so a replayed webhook never credits twice)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        UniqueConstraint("call_id", "kind", name="uq_ledger_entries_call_kind"),
        # A PaymentIntent is credited at most once and refunded at most once.
        UniqueConstraint("payment_intent_id", "kind", name="uq_ledger_entries_payment_kind"),
        Index("ix_ledger_entries_user_created", "user_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    call_id: Mapped[str | None] = mapped_column(
        ForeignKey("calls.id", ondelete="SET NULL"), default=None
    )
    #: top_up | hold | release | charge | refund | adjustment | starter_credit
    kind: Mapped[str] = mapped_column(String(16))
    amount_cents: Mapped[int] = mapped_column(Integer)
    balance_after_cents: Mapped[int] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    #: The Stripe PaymentIntent a card top-up (or its refund) moved.
    payment_intent_id: Mapped[str | None] = mapped_column(String(255), default=None)
    #: The admin who made a manual entry.
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class CallReport(Base):
    """A user's report about one of their calls (reason required); admins review them."""

    __tablename__ = "call_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    call_id: Mapped[str] = mapped_column(ForeignKey("calls.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | resolved
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
