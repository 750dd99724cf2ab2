from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


def new_flow_id() -> str:
    return str(uuid.uuid4())


class Flow(Base):
    """A conversation flow (docs/flows.md): its draft graph (a `voice_agent.flow_graph.FlowGraph`
    as JSON, saved whatever its problems) and the number of its newest published version (its
    `flow_versions` row), none before the first publish."""

    __tablename__ = "flows"
    __table_args__ = (Index("ix_flows_user_updated", "user_id", "updated_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_flow_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(80))
    description: Mapped[str] = mapped_column(Text, default="")
    draft: Mapped[dict[str, Any]] = mapped_column(JSON)
    published_version: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
