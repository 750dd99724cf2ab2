"""The agent lab's web API shapes (docs/lab.md): scenarios as the contract has them, runs with
their results and checks."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from callwright.kit.envelope import Ok, Paged
from callwright.lab.contract import SUITE_PATTERN, Check, Scenario

RunStatus = Literal["running", "passed", "failed", "error"]
ResultStatus = Literal["queued", "calling", "passed", "failed", "error"]


class ScenarioOut(Scenario):
    id: str
    #: Whose suite: an agent's, or (no agent) a flow's on its own.
    agent_id: str | None
    flow_id: str | None
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
    """Which scenarios to run: those named, and/or those of one suite (neither: all)."""

    scenario_ids: list[Annotated[str, Field(max_length=36)]] | None = Field(None, max_length=100)
    suite: str | None = Field(None, min_length=1, max_length=60, pattern=SUITE_PATTERN)


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
    #: None: a flow's own suite's run.
    agent_id: str | None
    #: The agent's version it ran (`GET /agents/{id}/versions`).
    agent_version: int | None
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
    #: The scenario's result in each run (`GET /lab/results/{id}/call`: its transcript).
    before_result_id: str
    after_result_id: str


class RunComparison(BaseModel):
    before: RunSummary
    after: RunSummary
    #: The agent's settings that differ: name -> [before, after].
    settings_changed: dict[str, list[Any]]
    changed: list[CheckChange]
    #: The scenarios only one of the two runs ran (not compared).
    only_before: list[str]
    only_after: list[str]


class ComparisonResponse(Ok[RunComparison]):
    pass


class RecordLineOut(BaseModel):
    speaker: Literal["agent", "callee"]
    text: str
    #: Seconds after the answer.
    at: float


class RecordActionOut(BaseModel):
    kind: str
    name: str
    arguments: dict[str, Any]
    status: str
    at: float | None


class ResultCall(BaseModel):
    """A result's call as the judge read it (the evidence's `index` points into `lines`,
    `actions`, `steps` and `reply_seconds`), with its recording when it has one."""

    call_id: str
    outcome: str | None
    duration_seconds: float | None
    lines: list[RecordLineOut]
    actions: list[RecordActionOut]
    steps: list[dict[str, Any]]
    reply_seconds: list[float]
    values: dict[str, str]
    transferred_to: str | None
    #: The recording (MP3, Range requests answered), or None.
    recording_url: str | None


class ResultCallResponse(Ok[ResultCall]):
    pass
