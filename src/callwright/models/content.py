"""Public content: blog posts, form submissions (the admin inbox) and site settings."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class Post(Base):
    """A blog post. `content` is HTML, stored already sanitised (and sanitised again on the
    way out)."""

    __tablename__ = "posts"
    __table_args__ = (Index("ix_posts_post_date", "post_date", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str] = mapped_column(Text)
    content: Mapped[str] = mapped_column(Text)
    #: The author's display name (the spec's admin_name); the admin who wrote it, by default.
    admin_name: Mapped[str | None] = mapped_column(String(255), default=None)
    author_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    post_date: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)


class FormSubmission(Base):
    """A contact (subscribe) form or an enterprise application, for the admin inbox."""

    __tablename__ = "form_submissions"
    __table_args__ = (Index("ix_form_submissions_created", "created_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    form_type: Mapped[str] = mapped_column(String(16))  # contact | enterprise
    email: Mapped[str] = mapped_column(String(320))
    phone: Mapped[str | None] = mapped_column(String(32), default=None)
    message: Mapped[str] = mapped_column(Text)
    name: Mapped[str | None] = mapped_column(String(255), default=None)
    website: Mapped[str | None] = mapped_column(String(2048), default=None)
    use_case: Mapped[str | None] = mapped_column(Text, default=None)
    phone_calls_per_month: Mapped[int | None] = mapped_column(Integer, default=None)
    entity_type: Mapped[str | None] = mapped_column(String(16), default=None)
    is_read: Mapped[bool] = mapped_column(Boolean, default=False)
    ip: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class SiteSetting(Base):
    """A named value the admins edit (the test-call prompt)."""

    __tablename__ = "site_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
