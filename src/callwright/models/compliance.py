"""Do-not-call lists: a user's own (user_id set) and the operator's global list (user_id null).
A listed number is never dialled; an opt-out heard during a call adds the number to its
owner's list with the call and the transcript line as the evidence."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class DoNotCall(Base):
    __tablename__ = "do_not_call"
    __table_args__ = (
        # One entry per number on each list. NULLs are distinct in a unique index, so the
        # global list gets a partial index of its own.
        Index(
            "uq_do_not_call_user_phone",
            "user_id",
            "phone",
            unique=True,
            postgresql_where=text("user_id IS NOT NULL"),
            sqlite_where=text("user_id IS NOT NULL"),
        ),
        Index(
            "uq_do_not_call_global_phone",
            "phone",
            unique=True,
            postgresql_where=text("user_id IS NULL"),
            sqlite_where=text("user_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The list's owner; null for the global list the admins keep.
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), default=None
    )
    #: E.164.
    phone: Mapped[str] = mapped_column(String(20))
    #: How it got there: "manual", "import" or "opt-out".
    source: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), default=None)
    #: For an opt-out: the call it was heard on, and what the callee said.
    call_id: Mapped[str | None] = mapped_column(
        ForeignKey("calls.id", ondelete="SET NULL"), default=None
    )
    evidence: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
