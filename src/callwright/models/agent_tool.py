from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


class AgentTool(Base):
    """A custom tool of a saved agent (docs/actions.md, Tools): an HTTP endpoint its calls'
    LLM may call mid-call. Header values are secrets: kept sealed (kit.security.seal) and never
    shown again."""

    __tablename__ = "agent_tools"
    __table_args__ = (UniqueConstraint("agent_id", "name", name="uq_agent_tools_agent_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.id", ondelete="CASCADE"), index=True)
    #: A function name (letters, digits, underscores, dashes): what the model calls.
    name: Mapped[str] = mapped_column(String(64))
    description: Mapped[str] = mapped_column(Text)
    #: The JSON Schema (an object) of its arguments.
    parameters: Mapped[dict[str, Any]] = mapped_column(JSON)
    method: Mapped[str] = mapped_column(String(8), default="POST")
    url: Mapped[str] = mapped_column(String(2048))
    #: Header name -> its value sealed.
    headers: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    #: A JSON body template (None: the arguments are the body).
    body: Mapped[Any] = mapped_column(JSON, nullable=True, default=None)
    timeout_seconds: Mapped[float] = mapped_column(Float, default=5.0)
    #: Said at once when the tool starts.
    waiting_line: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
