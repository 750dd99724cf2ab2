"""The agent lab's web API (docs/lab.md): a suite's scenarios (list, add, change, delete, the
starter suite), its runs (start, list, read, compare) and each result's call (its transcript,
events and recording). A suite is an agent's or a flow's on its own. A user reaches only their
own (another user's id answers 404)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import FileResponse
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import service as agents
from callwright.auth.deps import CurrentUser
from callwright.calls.deps import CallsDep
from callwright.calls.endpoints import recording_response
from callwright.config import Settings
from callwright.flows import repository as flows
from callwright.flows import service as flows_service
from callwright.kit.bounds import PageRequest, page_params
from callwright.kit.db import SessionDep, on_commit
from callwright.kit.deps import JobsDep, SettingsDep
from callwright.kit.errors import NotFound, ValidationFailed
from callwright.kit.jobs import JobQueue
from callwright.lab import repository, runner, starter
from callwright.lab.contract import PERSONA_NEEDS_LLM, Callee, Scenario
from callwright.lab.record import call_record
from callwright.lab.schemas import (
    ComparisonResponse,
    RecordActionOut,
    RecordLineOut,
    ResultCall,
    ResultCallResponse,
    RunIn,
    RunResponse,
    RunsPage,
    RunStarted,
    ScenarioDeleted,
    ScenarioList,
    ScenarioOut,
    ScenarioSaved,
    StarterAdded,
)
from callwright.lab.views import compare, run_out, run_summary
from callwright.models import Agent, Call, Flow, LabResult, LabRun, LabScenario
from callwright.voice_agent.flow_graph import FlowGraph

router = APIRouter(tags=["lab"])

IdParam = Annotated[str, Path(max_length=36)]
SCENARIO_NOT_FOUND = "The scenario was not found."
RUN_NOT_FOUND = "The run was not found."
RESULT_NOT_FOUND = "The result was not found."
#: The most scenarios a suite holds.
SUITE_MAX = 50
NOT_PUBLISHED = "Publish the flow first: the lab calls its published version."


@dataclass(frozen=True)
class Suite:
    """Whose suite: an agent's (its flow's branches among its scenarios), or a flow's on its
    own (called with the flow alone, its published version)."""

    user_id: int
    agent: Agent | None = None
    flow: Flow | None = None

    @property
    def agent_id(self) -> str | None:
        return self.agent.id if self.agent is not None else None

    @property
    def flow_id(self) -> str | None:
        if self.agent is not None:
            return self.agent.flow_id
        return self.flow.id if self.flow is not None else None

    @property
    def keys(self) -> tuple[str | None, str | None]:
        """The repository's key: the agent's id, or None and the flow's."""
        return (self.agent_id, None) if self.agent is not None else (None, self.flow_id)


async def agent_suite(session: AsyncSession, user_id: int, agent_id: str) -> Suite:
    return Suite(user_id, agent=await agents.owned(session, user_id, agent_id))


async def flow_suite(session: AsyncSession, user_id: int, flow_id: str) -> Suite:
    return Suite(user_id, flow=await flows_service.owned(session, user_id, flow_id))


def scenario_out(row: LabScenario) -> ScenarioOut:
    return ScenarioOut(
        id=row.id,
        agent_id=row.agent_id,
        flow_id=row.flow_id,
        name=row.name,
        suite=row.suite,
        callee=row.callee,
        expect=row.expect,
        variables=row.variables or {},
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


async def _scenario(session: AsyncSession, user_id: int, scenario_id: str) -> LabScenario:
    row = await session.get(LabScenario, scenario_id)
    if row is None or row.user_id != user_id:
        raise NotFound(SCENARIO_NOT_FOUND)
    return row


def _stored(scenario: Scenario) -> dict[str, Any]:
    """A scenario's columns as `lab_scenarios` keeps them (an added one's and a changed one's)."""
    return {
        "name": scenario.name,
        "suite": scenario.suite,
        "callee": scenario.callee.model_dump(mode="json"),
        "expect": scenario.expect.model_dump(mode="json", exclude_defaults=True),
        "variables": scenario.variables,
    }


def needs_no_llm(callees: list[Callee], settings: Settings) -> None:
    """A free-text persona is played by the install's LLM: without one, refused (422 on
    `callee.persona`) when a scenario is saved or run."""
    if not settings.llm_base_url and any(c.persona for c in callees):
        raise ValidationFailed({"callee.persona": [PERSONA_NEEDS_LLM]})


def _add(suite: Suite, scenario: Scenario) -> LabScenario:
    agent_id, flow_id = suite.keys
    return LabScenario(
        user_id=suite.user_id, agent_id=agent_id, flow_id=flow_id, **_stored(scenario)
    )


async def _room_for(session: AsyncSession, suite: Suite, more: int) -> None:
    if await repository.scenario_count(session, *suite.keys) + more > SUITE_MAX:
        raise ValidationFailed({"name": [f"A suite holds at most {SUITE_MAX} scenarios."]})


async def _list(session: AsyncSession, suite: Suite) -> ScenarioList:
    rows = await repository.scenarios(session, *suite.keys)
    return ScenarioList(data=[scenario_out(s) for s in rows])


async def _create(
    session: AsyncSession, suite: Suite, body: Scenario, settings: Settings
) -> ScenarioSaved:
    needs_no_llm([body.callee], settings)
    await _room_for(session, suite, 1)
    row = _add(suite, body)
    session.add(row)
    await session.flush()
    return ScenarioSaved(message="Scenario added", data=scenario_out(row))


async def _starter(session: AsyncSession, suite: Suite) -> StarterAdded:
    """Adds the starter suite's scenarios whose names the suite does not have yet: an agent's
    callees (and its flow's branches), or a flow's branches."""
    have = {s.name for s in await repository.scenarios(session, *suite.keys)}
    graph = await _published_graph(session, suite.flow_id)
    if suite.agent is not None:
        made = starter.starter_suite(suite.agent, graph)
    elif graph is None:
        raise ValidationFailed({"flow_id": [NOT_PUBLISHED]})
    else:
        made = starter.flow_suite(graph)
    made = [s for s in made if s.name not in have]
    await _room_for(session, suite, len(made))
    rows = [_add(suite, s) for s in made]
    session.add_all(rows)
    await session.flush()
    message = f"{len(rows)} scenarios added" if rows else "The suite has every starter scenario"
    return StarterAdded(message=message, data=[scenario_out(r) for r in rows])


async def _published_graph(session: AsyncSession, flow_id: str | None) -> FlowGraph | None:
    """The flow's published graph (None: no flow, or none published)."""
    if not flow_id:
        return None
    found = await flows.version(session, flow_id, None)
    return FlowGraph.model_validate(found.graph) if found is not None else None


@router.get("/agents/{agent_id}/lab/scenarios")
async def list_scenarios(agent_id: IdParam, user: CurrentUser, session: SessionDep) -> ScenarioList:
    """The agent's suite, in the order the scenarios were added."""
    return await _list(session, await agent_suite(session, user.id, agent_id))


@router.get("/flows/{flow_id}/lab/scenarios")
async def list_flow_scenarios(
    flow_id: IdParam, user: CurrentUser, session: SessionDep
) -> ScenarioList:
    """The flow's own suite (called with the flow alone), in the order added."""
    return await _list(session, await flow_suite(session, user.id, flow_id))


@router.post("/agents/{agent_id}/lab/scenarios", status_code=201)
async def create_scenario(
    agent_id: IdParam, body: Scenario, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> ScenarioSaved:
    return await _create(session, await agent_suite(session, user.id, agent_id), body, settings)


@router.post("/flows/{flow_id}/lab/scenarios", status_code=201)
async def create_flow_scenario(
    flow_id: IdParam, body: Scenario, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> ScenarioSaved:
    suite = await flow_suite(session, user.id, flow_id)
    return await _create(session, suite, body, settings)


@router.put("/lab/scenarios/{scenario_id}")
async def update_scenario(
    scenario_id: IdParam,
    body: Scenario,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
) -> ScenarioSaved:
    row = await _scenario(session, user.id, scenario_id)
    needs_no_llm([body.callee], settings)
    for column, value in _stored(body).items():
        setattr(row, column, value)
    await session.flush()
    return ScenarioSaved(message="Scenario saved", data=scenario_out(row))


@router.delete("/lab/scenarios/{scenario_id}")
async def delete_scenario(
    scenario_id: IdParam, user: CurrentUser, session: SessionDep
) -> ScenarioDeleted:
    row = await _scenario(session, user.id, scenario_id)
    await session.delete(row)
    await session.flush()
    return ScenarioDeleted(message="Scenario deleted", data=scenario_id)


@router.post("/agents/{agent_id}/lab/starter", status_code=201)
async def add_starter_suite(
    agent_id: IdParam, user: CurrentUser, session: SessionDep
) -> StarterAdded:
    """Adds the starter suite made from the agent (and its flow): the scenarios whose names the
    suite does not have yet."""
    return await _starter(session, await agent_suite(session, user.id, agent_id))


@router.post("/flows/{flow_id}/lab/starter", status_code=201)
async def add_flow_starter_suite(
    flow_id: IdParam, user: CurrentUser, session: SessionDep
) -> StarterAdded:
    """Adds a scenario per branch of the flow's published version (those the suite lacks)."""
    return await _starter(session, await flow_suite(session, user.id, flow_id))


async def _pin(session: AsyncSession, suite: Suite) -> runner.Pin:
    """What a run of the suite is pinned to: the agent's version now, its flow's published
    version (a flow's own suite: that version, which it needs)."""
    agent_version, settings = None, {}
    if suite.agent is not None:
        version = await agents.current_version(session, suite.agent)
        agent_version, settings = version.version, dict(version.settings)
    flow_version = None
    if suite.flow_id:
        found = await flows.version(session, suite.flow_id, None)
        flow_version = int(found.version) if found is not None else None
    if suite.agent is None and flow_version is None:
        raise ValidationFailed({"flow_id": [NOT_PUBLISHED]})
    return runner.Pin(
        user_id=suite.user_id,
        agent_id=suite.agent_id,
        agent_version=agent_version,
        agent_settings=settings,
        flow_id=suite.flow_id,
        flow_version=flow_version,
    )


async def start_run(
    session: AsyncSession,
    suite: Suite,
    body: RunIn,
    *,
    settings: Settings,
    source: str,
    quota: int | None = None,
) -> LabRun:
    """A run of the suite's scenarios (those named, or of the suite named), stored; RUN_JOB
    goes after the commit."""
    rows = await repository.scenarios(session, *suite.keys)
    if body.scenario_ids is not None:
        wanted = set(body.scenario_ids)
        rows = [r for r in rows if r.id in wanted]
    if body.suite is not None:
        rows = [r for r in rows if r.suite == body.suite]
    scenarios = [
        (
            r.id,
            Scenario(
                name=r.name, suite=r.suite, callee=r.callee, expect=r.expect,
                variables=r.variables,
            ),
        )
        for r in rows
    ]  # fmt: skip
    needs_no_llm([scenario.callee for _, scenario in scenarios], settings)
    pin = await _pin(session, suite)
    quota = settings.lab_calls_per_day if quota is None else quota
    return await runner.start(session, pin, scenarios, quota=quota, source=source)


@router.post("/agents/{agent_id}/lab/runs", status_code=201)
async def create_run(
    agent_id: IdParam,
    body: RunIn,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    jobs: JobsDep,
) -> RunStarted:
    """Runs the suite: each scenario a sandbox call, several at once; follow it by reading the
    run."""
    suite = await agent_suite(session, user.id, agent_id)
    return await begin(session, suite, body, settings=settings, jobs=jobs, source="app")


@router.post("/flows/{flow_id}/lab/runs", status_code=201)
async def create_flow_run(
    flow_id: IdParam,
    body: RunIn,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    jobs: JobsDep,
) -> RunStarted:
    """Runs the flow's own suite, each call the flow's published version alone."""
    suite = await flow_suite(session, user.id, flow_id)
    return await begin(session, suite, body, settings=settings, jobs=jobs, source="app")


async def begin(
    session: AsyncSession,
    suite: Suite,
    body: RunIn,
    *,
    settings: Settings,
    jobs: JobQueue,
    source: str,
) -> RunStarted:
    """Starts a run (`start_run`) and sends its job once the request commits."""
    run = await start_run(session, suite, body, settings=settings, source=source)
    run_id = run.id

    async def send() -> None:
        await jobs.send(runner.RUN_JOB, run_id)

    on_commit(session, send)
    return RunStarted(message="The run has started", data=await run_out(session, run))


async def _runs(session: AsyncSession, suite: Suite, paging: PageRequest) -> RunsPage:
    runs, total = await repository.runs_page(
        session, *suite.keys, page=paging.page, per_page=paging.per_page
    )
    data = [run_summary(r, await repository.results(session, r.id)) for r in runs]
    return RunsPage(data=data, pagination=paging.pagination(total))


@router.get("/agents/{agent_id}/lab/runs")
async def list_runs(
    agent_id: IdParam,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> RunsPage:
    """The agent's runs, the newest first."""
    return await _runs(session, await agent_suite(session, user.id, agent_id), paging)


@router.get("/flows/{flow_id}/lab/runs")
async def list_flow_runs(
    flow_id: IdParam,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> RunsPage:
    """The flow's own suite's runs, the newest first."""
    return await _runs(session, await flow_suite(session, user.id, flow_id), paging)


async def owned_run(session: AsyncSession, user_id: int, run_id: str) -> LabRun:
    run = await session.get(LabRun, run_id)
    if run is None or run.user_id != user_id:
        raise NotFound(RUN_NOT_FOUND)
    return run


@router.get("/lab/runs/{run_id}")
async def get_run(run_id: IdParam, user: CurrentUser, session: SessionDep) -> RunResponse:
    return RunResponse(data=await run_out(session, await owned_run(session, user.id, run_id)))


async def _result(session: AsyncSession, user_id: int, result_id: str) -> tuple[LabResult, Call]:
    """The user's result and its call (404: another user's, or no call placed yet)."""
    result = await session.get(LabResult, result_id)
    run = await session.get(LabRun, result.run_id) if result is not None else None
    if result is None or run is None or run.user_id != user_id:
        raise NotFound(RESULT_NOT_FOUND)
    call = await session.get(Call, result.call_id) if result.call_id else None
    if call is None:
        raise NotFound("This scenario has no call yet.")
    return result, call


@router.get("/lab/results/{result_id}/call")
async def result_call(
    result_id: IdParam, user: CurrentUser, session: SessionDep
) -> ResultCallResponse:
    """The scenario's call as the judge read it: the transcript (the checks' evidence points
    into it), actions, flow steps, reply latencies and values; and its recording."""
    result, call = await _result(session, user.id, result_id)
    record = await call_record(session, call.id)
    recording = f"/api/v1/lab/results/{result.id}/recording" if call.recording_path else None
    return ResultCallResponse(
        data=ResultCall(
            call_id=call.id,
            outcome=record.outcome,
            duration_seconds=record.duration_seconds,
            lines=[RecordLineOut(**asdict(line)) for line in record.lines],
            actions=[RecordActionOut(**asdict(action)) for action in record.actions],
            steps=record.steps,
            reply_seconds=record.reply_seconds,
            values=record.values,
            transferred_to=record.transferred_to,
            recording_url=recording,
        )
    )


@router.get("/lab/results/{result_id}/recording", response_class=FileResponse)
async def result_recording(
    result_id: IdParam, user: CurrentUser, session: SessionDep, request: Request, domain: CallsDep
) -> Response:
    """The scenario's call recording, inline (Range requests answered, so a player seeks)."""
    _result_row, call = await _result(session, user.id, result_id)
    return await recording_response(call, request, domain.media.store, "inline")


@router.get("/lab/runs/{run_id}/compare/{other_id}")
async def compare_runs(
    run_id: IdParam, other_id: IdParam, user: CurrentUser, session: SessionDep
) -> ComparisonResponse:
    """`other_id` (the later run) against `run_id`: the settings that changed, and each
    expectation whose result changed, with both checks and their evidence."""
    before = await run_out(session, await owned_run(session, user.id, run_id))
    after = await run_out(session, await owned_run(session, user.id, other_id))
    return ComparisonResponse(data=compare(before, after))
