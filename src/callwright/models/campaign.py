"""Campaigns: a saved agent calling a list of contacts on a schedule, within limits. A contact
is one row of the uploaded list; each attempt to call it is a call row (`calls.campaign_id`,
`calls.campaign_contact_id`), written before the dial, so a crash never loses a contact and the
dialler never has two calls to one contact at once (docs/campaigns.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


def new_campaign_id() -> str:
    return str(uuid.uuid4())


class Campaign(Base):
    __tablename__ = "campaigns"
    __table_args__ = (
        Index("ix_campaigns_user_created", "user_id", "created_at"),
        Index("ix_campaigns_state", "state"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_campaign_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="SET NULL"), default=None
    )
    name: Mapped[str] = mapped_column(String(120))
    #: A call's settings given with the campaign (a `/v1/batches` task, voice ...), over the
    #: agent's when it has one (CallOrder's names).
    call_settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: Created by `/v1/batches` (its calls are of kind "batch"; a dashboard one's, "campaign").
    batch: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: draft, scheduled, running, paused, completed, cancelled (campaigns/states.py).
    state: Mapped[str] = mapped_column(String(16), default="draft")
    #: Why it is paused or ended when the dialler did it (the balance ran out, the cap).
    state_reason: Mapped[str | None] = mapped_column(Text, default=None)
    #: When dialling may begin (None: as soon as it is started) and must end (None: never).
    start_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    end_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: Days of the week it calls on, in the callee's local time (0 Monday .. 6 Sunday).
    days: Mapped[list[int]] = mapped_column(JSON, default=lambda: [0, 1, 2, 3, 4])
    #: The daily window in the callee's local time, "HH:MM-HH:MM".
    calling_window: Mapped[str] = mapped_column(String(11), default="09:00-20:00")
    #: Calls in progress at once, at most; dials started per minute, at most.
    concurrency: Mapped[int] = mapped_column(Integer, default=3)
    pace_per_minute: Mapped[int] = mapped_column(Integer, default=10)
    #: Per outcome ("no-answer", "busy", "voicemail", "failed"): {"attempts": retries,
    #: "wait_minutes": minutes before the next}.
    retries: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Stop dialling once its calls cost this much (held and charged), in cents; None: no cap.
    spend_cap_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)


class CampaignContact(Base):
    __tablename__ = "campaign_contacts"
    __table_args__ = (
        # The dialler's question: this campaign's due contacts, oldest due first.
        Index("ix_campaign_contacts_due", "campaign_id", "status", "next_attempt_at"),
        Index("ix_campaign_contacts_row", "campaign_id", "file_row"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    #: The row of the uploaded file (1-based, the header is row 1).
    file_row: Mapped[int] = mapped_column(Integer)
    phone: Mapped[str] = mapped_column(String(20))
    variables: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    #: A `/v1` batch row's own call settings over the batch's (its transfer, keypad, tools
    #: and dynamic data; CallOrder's names), or null.
    call_settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: The zone(s) its calling window is checked in, comma-separated, resolved at load: the
    #: file's `timezone` column, else the number's own zones, else the operator's default.
    timezone: Mapped[str | None] = mapped_column(String(200), default=None)
    #: pending (to call, at next_attempt_at), calling, done, opted-out, skipped.
    status: Mapped[str] = mapped_column(String(16), default="pending")
    #: The last attempt's outcome (a call outcome), or why it was skipped.
    outcome: Mapped[str | None] = mapped_column(String(32), default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    last_call_id: Mapped[str | None] = mapped_column(String(36), default=None)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)


class BatchAnalysis(Base):
    """One call's answers to a batch's questions (`POST /v1/batches/{id}/analyze`, read back by
    `GET /v1/batches/{id}/analysis`): a batch's latest analysis replaces its earlier one."""

    __tablename__ = "batch_analyses"
    __table_args__ = (Index("ix_batch_analyses_campaign", "campaign_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    call_id: Mapped[str] = mapped_column(ForeignKey("calls.id", ondelete="CASCADE"))
    goal: Mapped[str] = mapped_column(Text, default="")
    #: The questions' texts, in order.
    questions: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: One answer per question (JSON: text, a number, true/false, or null).
    answers: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: For each answer, where it comes from (a transcript line, or a fact of the call), or null.
    evidence: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
