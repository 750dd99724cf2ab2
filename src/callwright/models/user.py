from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class Role(StrEnum):
    USER = "user"
    ADMIN = "admin"


class User(Base):
    __tablename__ = "users"
    __table_args__ = (
        # E-mails are stored lower-cased; the functional index makes uniqueness case-insensitive
        # even for rows written by other tools.
        Index("uq_users_email_lower", text("lower(email)"), unique=True),
        CheckConstraint("balance_cents >= 0", name="balance_not_negative"),
        CheckConstraint("role IN ('user', 'admin')", name="role_valid"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    role: Mapped[str] = mapped_column(String(16), default=Role.USER.value)
    balance_cents: Mapped[int] = mapped_column(Integer, default=0)
    email_verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    google_sub: Mapped[str | None] = mapped_column(String(255), unique=True, default=None)
    #: Standard Webhooks secret (`whsec_<base64>`) that signs the per-call `webhook` deliveries;
    #: made on first use, shown and rotated on the developers page.
    webhook_secret: Mapped[str | None] = mapped_column(String(100), default=None)
    #: The IANA zone the user reads times in (refusals, schedules); set from their browser on
    #: first sign-in and on the Account page. None: UTC.
    timezone: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN.value
