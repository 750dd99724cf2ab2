"""The agent lab's web API (docs/lab.md): an agent's scenarios (list, add, change, delete, the
starter suite), its runs (start, list, read, compare). A user reaches only their own agents'
(another user's id answers 404)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import service as agents
from callwright.auth.deps import CurrentUser
from callwright.config import Settings
from callwright.flows import repository as flows
from callwright.kit.bounds import PageRequest, page_params
from callwright.kit.db import SessionDep, on_commit
from callwright.kit.deps import JobsDep, SettingsDep
from callwright.kit.errors import NotFound, ValidationFailed
from callwright.kit.jobs import JobQueue
from callwright.lab import repository, runner, starter
from callwright.lab.contract import PERSONA_NEEDS_LLM, Callee, Check, Scenario
from callwright.lab.schemas import (
    CheckChange,
    ComparisonResponse,
    ResultOut,
    RunComparison,
    RunIn,
    RunOut,
    RunResponse,
    RunsPage,
    RunStarted,
    RunSummary,
    ScenarioDeleted,
    ScenarioList,
    ScenarioOut,
    ScenarioSaved,
    StarterAdded,
)
from callwright.models import Agent, LabResult, LabRun, LabScenario
from callwright.voice_agent.flow_graph import FlowGraph

router = APIRouter(tags=["lab"])

IdParam = Annotated[str, Path(max_length=36)]
SCENARIO_NOT_FOUND = "The scenario was not found."
RUN_NOT_FOUND = "The run was not found."
#: The most scenarios an agent's suite holds.
SUITE_MAX = 50


def scenario_out(row: LabScenario) -> ScenarioOut:
    return ScenarioOut(
        id=row.id,
        agent_id=row.agent_id,
        name=row.name,
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
        "callee": scenario.callee.model_dump(mode="json"),
        "expect": scenario.expect.model_dump(mode="json", exclude_defaults=True),
        "variables": scenario.variables,
    }


def needs_no_llm(callees: list[Callee], settings: Settings) -> None:
    """A free-text persona is played by the install's LLM: without one, refused (422 on
    `callee.persona`) when a scenario is saved or run."""
    if not settings.llm_base_url and any(c.persona for c in callees):
        raise ValidationFailed({"callee.persona": [PERSONA_NEEDS_LLM]})


def _add(agent: Agent, scenario: Scenario) -> LabScenario:
    return LabScenario(user_id=agent.user_id, agent_id=agent.id, **_stored(scenario))


async def _room_for(session: AsyncSession, agent_id: str, more: int) -> None:
    if await repository.scenario_count(session, agent_id) + more > SUITE_MAX:
        raise ValidationFailed({"name": [f"A suite holds at most {SUITE_MAX} scenarios."]})


@router.get("/agents/{agent_id}/lab/scenarios")
async def list_scenarios(agent_id: IdParam, user: CurrentUser, session: SessionDep) -> ScenarioList:
    """The agent's suite, in the order the scenarios were added."""
    agent = await agents.owned(session, user.id, agent_id)
    return ScenarioList(
        data=[scenario_out(s) for s in await repository.scenarios(session, agent.id)]
    )


@router.post("/agents/{agent_id}/lab/scenarios", status_code=201)
async def create_scenario(
    agent_id: IdParam, body: Scenario, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> ScenarioSaved:
    agent = await agents.owned(session, user.id, agent_id)
    needs_no_llm([body.callee], settings)
    await _room_for(session, agent.id, 1)
    row = _add(agent, body)
    session.add(row)
    await session.flush()
    return ScenarioSaved(message="Scenario added", data=scenario_out(row))


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
    agent = await agents.owned(session, user.id, agent_id)
    have = {s.name for s in await repository.scenarios(session, agent.id)}
    graph = await _flow_graph(session, agent)
    made = [s for s in starter.starter_suite(agent, graph) if s.name not in have]
    await _room_for(session, agent.id, len(made))
    rows = [_add(agent, s) for s in made]
    session.add_all(rows)
    await session.flush()
    message = f"{len(rows)} scenarios added" if rows else "The suite has every starter scenario"
    return StarterAdded(message=message, data=[scenario_out(r) for r in rows])


async def _flow_graph(session: AsyncSession, agent: Agent) -> FlowGraph | None:
    """The agent's flow's published graph (None: no flow, or none published)."""
    if not agent.flow_id:
        return None
    found = await flows.version(session, agent.flow_id, None)
    return FlowGraph.model_validate(found.graph) if found is not None else None


async def start_run(
    session: AsyncSession, agent: Agent, body: RunIn, *, settings: Settings, source: str
) -> LabRun:
    """A run of the agent's suite (or the scenarios named), stored; RUN_JOB goes after the
    commit."""
    rows = await repository.scenarios(session, agent.id)
    if body.scenario_ids is not None:
        wanted = set(body.scenario_ids)
        rows = [r for r in rows if r.id in wanted]
    scenarios = [
        (r.id, Scenario(name=r.name, callee=r.callee, expect=r.expect, variables=r.variables))
        for r in rows
    ]
    needs_no_llm([scenario.callee for _, scenario in scenarios], settings)
    version = None
    if agent.flow_id:
        found = await flows.version(session, agent.flow_id, None)
        version = int(found.version) if found is not None else None
    quota = settings.lab_calls_per_day
    return await runner.start(
        session, agent, scenarios, quota=quota, source=source, flow_version=version
    )


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
    agent = await agents.owned(session, user.id, agent_id)
    return await begin(session, agent, body, settings=settings, jobs=jobs, source="app")


async def begin(
    session: AsyncSession,
    agent: Agent,
    body: RunIn,
    *,
    settings: Settings,
    jobs: JobQueue,
    source: str,
) -> RunStarted:
    """Starts a run (`start_run`) and sends its job once the request commits."""
    run = await start_run(session, agent, body, settings=settings, source=source)
    run_id = run.id

    async def send() -> None:
        await jobs.send(runner.RUN_JOB, run_id)

    on_commit(session, send)
    return RunStarted(message="The run has started", data=await run_out(session, run))


@router.get("/agents/{agent_id}/lab/runs")
async def list_runs(
    agent_id: IdParam,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> RunsPage:
    """The agent's runs, the newest first."""
    agent = await agents.owned(session, user.id, agent_id)
    runs, total = await repository.runs_page(
        session, agent.id, page=paging.page, per_page=paging.per_page
    )
    data = [run_summary(r, await repository.results(session, r.id)) for r in runs]
    return RunsPage(data=data, pagination=paging.pagination(total))


async def owned_run(session: AsyncSession, user_id: int, run_id: str) -> LabRun:
    run = await session.get(LabRun, run_id)
    if run is None or run.user_id != user_id:
        raise NotFound(RUN_NOT_FOUND)
    return run


@router.get("/lab/runs/{run_id}")
async def get_run(run_id: IdParam, user: CurrentUser, session: SessionDep) -> RunResponse:
    return RunResponse(data=await run_out(session, await owned_run(session, user.id, run_id)))


@router.get("/lab/runs/{run_id}/compare/{other_id}")
async def compare_runs(
    run_id: IdParam, other_id: IdParam, user: CurrentUser, session: SessionDep
) -> ComparisonResponse:
    """`other_id` (the later run) against `run_id`: the settings that changed, and each
    expectation whose result changed, with both checks and their evidence."""
    before = await run_out(session, await owned_run(session, user.id, run_id))
    after = await run_out(session, await owned_run(session, user.id, other_id))
    return ComparisonResponse(data=compare(before, after))


def compare(before: RunOut, after: RunOut) -> RunComparison:
    def checks(run: RunOut) -> dict[tuple[str, str], Check]:
        return {(r.scenario.name, c.expectation): c for r in run.results for c in r.checks}

    old, new = checks(before), checks(after)
    changed = [
        CheckChange(scenario=key[0], expectation=key[1], before=old.get(key), after=new.get(key))
        for key in sorted(old.keys() | new.keys())
        if (old[key].passed if key in old else None) != (new[key].passed if key in new else None)
    ]
    settings = {
        name: [before.agent_settings.get(name), after.agent_settings.get(name)]
        for name in sorted(before.agent_settings.keys() | after.agent_settings.keys())
        if before.agent_settings.get(name) != after.agent_settings.get(name)
    }
    return RunComparison(
        before=RunSummary.model_validate(before.model_dump(exclude={"agent_settings", "results"})),
        after=RunSummary.model_validate(after.model_dump(exclude={"agent_settings", "results"})),
        settings_changed=settings,
        changed=changed,
    )


def run_summary(run: LabRun, results: list[LabResult]) -> RunSummary:
    return RunSummary(
        id=run.id,
        agent_id=run.agent_id,
        status=run.status,
        source=run.source,
        flow_id=run.flow_id,
        flow_version=run.flow_version,
        scenario_count=len(results),
        passed_count=sum(r.status == "passed" for r in results),
        failed_count=sum(r.status in ("failed", "error") for r in results),
        created_at=run.created_at,
        finished_at=run.finished_at,
    )


async def run_out(session: AsyncSession, run: LabRun) -> RunOut:
    results = await repository.results(session, run.id)
    return RunOut(
        **run_summary(run, results).model_dump(),
        agent_settings=run.agent_settings,
        results=[
            ResultOut(
                id=r.id,
                position=r.position,
                scenario_id=r.scenario_id,
                scenario=Scenario.model_validate(r.scenario),
                status=r.status,
                call_id=r.call_id,
                checks=[Check.model_validate(c) for c in r.checks or []],
                error=r.error,
                started_at=r.started_at,
                finished_at=r.finished_at,
            )
            for r in results
        ],
    )
