from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


def new_agent_id() -> str:
    return str(uuid.uuid4())


class Agent(Base):
    """A saved agent: the settings a call starts from (Send Call, the API's `agent_id`,
    campaigns). Its prompt may hold `{{variable}}` placeholders, filled per call."""

    __tablename__ = "agents"
    __table_args__ = (Index("ix_agents_user_created", "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_agent_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(120))
    prompt: Mapped[str] = mapped_column(Text)
    first_sentence: Mapped[str | None] = mapped_column(Text, default=None)
    voice: Mapped[str] = mapped_column(String(64), default="")
    #: The language its calls are held in (BCP-47, `speech.languages`).
    language: Mapped[str] = mapped_column(String(16), default="en-US", server_default="en-US")
    temperature: Mapped[float] = mapped_column(Float, default=0.7)
    interruption_threshold: Mapped[int] = mapped_column(Integer, default=100)
    background_audio: Mapped[str] = mapped_column(String(16), default="null")
    max_duration: Mapped[int] = mapped_column(Integer, default=30)  # minutes
    wait_for_greeting: Mapped[bool] = mapped_column(Boolean, default=False)
    #: On voicemail: "leave_message" (with `voicemail_message`, or a short default) or "hangup".
    voicemail_action: Mapped[str] = mapped_column(String(16), default="leave_message")
    voicemail_message: Mapped[str | None] = mapped_column(Text, default=None)
    #: The AI disclosure in the agent's own words (None: the default; compliance/disclosure.py).
    disclosure: Mapped[str | None] = mapped_column(Text, default=None)
    #: The post-call analysis: a summary instruction, the dispositions to choose one of, and
    #: the named fields to extract ([{name, type, description}]).
    summary_prompt: Mapped[str | None] = mapped_column(Text, default=None)
    dispositions: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    analysis_schema: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    #: Where this agent's calls report (`call.*` events), besides the user's endpoints.
    webhook_url: Mapped[str | None] = mapped_column(String(2048), default=None)
    #: Where its calls may hand the callee to a person: one number, or departments -> numbers,
    #: cold or warm (docs/actions.md, "Transfer").
    transfer_number: Mapped[str | None] = mapped_column(String(20), default=None)
    transfer_list: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    transfer_mode: Mapped[str] = mapped_column(String(8), default="cold", server_default="cold")
    #: Keys its calls press when answered, before the agent speaks (docs/actions.md, Keypad).
    precall_dtmf_sequence: Mapped[str | None] = mapped_column(String(64), default=None)
    #: The conversation flow its calls follow (its published version when each is placed;
    #: docs/flows.md); null: the prompt.
    flow_id: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
