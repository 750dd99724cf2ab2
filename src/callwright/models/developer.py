"""The developer platform's tables: API keys, outbound webhook endpoints, and the webhook
deliveries (an outbox: each event to each target is a row written in the same transaction as
what it reports, so a restart loses none) with every attempt logged."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class ApiKey(Base):
    """A key for the `/v1` API. Only sha256 of the key is stored; `prefix` (its first
    characters) lets the owner tell keys apart."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    prefix: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)


class WebhookEndpoint(Base):
    """A user's endpoint: the events it takes, its own signing secret (shown once)."""

    __tablename__ = "webhook_endpoints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str] = mapped_column(String(200), default="")
    events: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: Standard Webhooks secret, `whsec_<base64>`.
    secret: Mapped[str] = mapped_column(String(100))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Why it was disabled by the system (410 Gone, failing for a day); null when by its owner.
    disabled_reason: Mapped[str | None] = mapped_column(String(200), default=None)
    #: Since when every delivery to it has failed; null while it succeeds.
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class WebhookDelivery(Base):
    """One event for one target (an endpoint, or a call's own `webhook` URL). Its id is the
    `webhook-id` header, the same on every attempt, so receivers can drop repeats."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_user_created", "user_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    #: Null for a call's own `webhook` URL (signed with the user's signing secret).
    endpoint_id: Mapped[int | None] = mapped_column(
        ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), default=None, index=True
    )
    call_id: Mapped[str | None] = mapped_column(
        ForeignKey("calls.id", ondelete="SET NULL"), default=None, index=True
    )
    url: Mapped[str] = mapped_column(String(2048))
    event: Mapped[str] = mapped_column(String(40))
    #: The exact JSON body sent (and signed).
    payload: Mapped[str] = mapped_column(Text)
    #: pending | delivered | failed (gave up) | cancelled (its endpoint was disabled)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: A sender holds the delivery until then; a sender that died lets it go when it passes.
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    last_status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)


class WebhookAttempt(Base):
    """One try of a delivery: the answer's status, its time and its first bytes."""

    __tablename__ = "webhook_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    delivery_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True
    )
    attempted_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    status_code: Mapped[int | None] = mapped_column(Integer, default=None)
    response_ms: Mapped[int] = mapped_column(Integer, default=0)
    #: The answer's first bytes (as text), or why there was no answer.
    response_excerpt: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str | None] = mapped_column(Text, default=None)
