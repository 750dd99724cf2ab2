from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


def new_lab_id() -> str:
    return str(uuid.uuid4())


class LabScenario(Base):
    """A scenario of a suite in the agent lab (docs/lab.md): a simulated callee as data and
    what must hold of the call to it (`lab.contract.Scenario`, kept as its parts). A suite is
    an agent's (`agent_id`) or a flow's on its own (`flow_id`, no agent)."""

    __tablename__ = "lab_scenarios"
    __table_args__ = (
        Index("ix_lab_scenarios_agent", "agent_id", "created_at"),
        Index("ix_lab_scenarios_flow", "flow_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_lab_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="CASCADE"), default=None
    )
    flow_id: Mapped[str | None] = mapped_column(
        ForeignKey("flows.id", ondelete="CASCADE"), default=None
    )
    name: Mapped[str] = mapped_column(String(120))
    #: The group it is in (`lab.contract.Scenario.suite`).
    suite: Mapped[str] = mapped_column(String(60), default="main", server_default="main")
    #: `lab.contract.Callee` as JSON.
    callee: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: `lab.contract.Expectations` as JSON.
    expect: Mapped[dict[str, Any]] = mapped_column(JSON)
    variables: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)


class LabRun(Base):
    """A run of a suite (an agent's, or a flow's on its own): every scenario placed as a
    sandbox call, then judged. It is pinned to what it ran: the agent's version (its number
    and its settings as they were) and its flow's published version."""

    __tablename__ = "lab_runs"
    __table_args__ = (
        Index("ix_lab_runs_agent", "agent_id", "created_at"),
        Index("ix_lab_runs_flow", "flow_id", "created_at"),
        Index("ix_lab_runs_user", "user_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_lab_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    #: The agent whose suite ran (None: a flow's suite).
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="CASCADE"), default=None
    )
    #: The agent's version the run ran (`agent_versions.version`; None: a flow's suite).
    agent_version: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The agent's settings when the run started (that version's; {} for a flow's suite).
    agent_settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    flow_id: Mapped[str | None] = mapped_column(String(36), default=None)
    flow_version: Mapped[int | None] = mapped_column(Integer, default=None)
    #: running, passed (every scenario passed), failed, error (a scenario could not be run).
    status: Mapped[str] = mapped_column(String(16), default="running")
    #: How it was started: "app" (the Tests tab), "api" (`/v1`), "cli".
    source: Mapped[str] = mapped_column(String(8), default="app")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)


class LabResult(Base):
    """One scenario of a run: its call, and the checks of its expectations once judged."""

    __tablename__ = "lab_results"
    __table_args__ = (Index("ix_lab_results_run", "run_id", "position"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_lab_id)
    run_id: Mapped[str] = mapped_column(ForeignKey("lab_runs.id", ondelete="CASCADE"))
    #: Its place in the run (the suite's order).
    position: Mapped[int] = mapped_column(Integer)
    #: The scenario as it ran (`lab.contract.Scenario`), kept though the scenario changes.
    scenario: Mapped[dict[str, Any]] = mapped_column(JSON)
    scenario_id: Mapped[str | None] = mapped_column(String(36), default=None)
    call_id: Mapped[str | None] = mapped_column(String(36), default=None)
    #: queued, calling, passed, failed, error.
    status: Mapped[str] = mapped_column(String(16), default="queued")
    #: `lab.contract.Check`s as JSON, once judged.
    checks: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    #: Why it could not be run (status error).
    error: Mapped[str | None] = mapped_column(String(500), default=None)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
