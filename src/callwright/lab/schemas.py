"""The agent lab's web API shapes (docs/lab.md): scenarios as the contract has them, runs with
their results and checks."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from callwright.kit.envelope import Ok, Paged
from callwright.lab.contract import Check, Scenario

RunStatus = Literal["running", "passed", "failed", "error"]
ResultStatus = Literal["queued", "calling", "passed", "failed", "error"]


class ScenarioOut(Scenario):
    id: str
    agent_id: str
    created_at: datetime
    updated_at: datetime


class ScenarioList(Ok[list[ScenarioOut]]):
    pass


class ScenarioSaved(Ok[ScenarioOut]):
    message: str


class ScenarioDeleted(Ok[str]):
    message: str


class StarterAdded(Ok[list[ScenarioOut]]):
    """The scenarios the starter suite added (those whose name the suite had already are not)."""

    message: str


class RunIn(BaseModel):
    """Which scenarios to run (none given: the whole suite)."""

    scenario_ids: list[str] | None = Field(None, max_length=100)


class ResultOut(BaseModel):
    id: str
    position: int
    scenario_id: str | None
    scenario: Scenario
    status: ResultStatus
    call_id: str | None
    checks: list[Check]
    error: str | None
    started_at: datetime | None
    finished_at: datetime | None


class RunSummary(BaseModel):
    id: str
    agent_id: str
    status: RunStatus
    source: str
    flow_id: str | None
    flow_version: int | None
    scenario_count: int
    passed_count: int
    failed_count: int
    created_at: datetime
    finished_at: datetime | None


class RunOut(RunSummary):
    #: The agent's settings the run ran (the version it is pinned to).
    agent_settings: dict[str, Any]
    results: list[ResultOut]


class RunsPage(Paged[RunSummary]):
    pass


class RunResponse(Ok[RunOut]):
    pass


class RunStarted(Ok[RunOut]):
    message: str


class CheckChange(BaseModel):
    """An expectation whose result differs between two runs, with the lines that decided it."""

    scenario: str
    expectation: str
    before: Check | None
    after: Check | None


class RunComparison(BaseModel):
    before: RunSummary
    after: RunSummary
    #: The agent's settings that differ: name -> [before, after].
    settings_changed: dict[str, list[Any]]
    changed: list[CheckChange]


class ComparisonResponse(Ok[RunComparison]):
    pass
