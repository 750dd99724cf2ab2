"""The agent lab for a business's CI (docs/lab.md, "In CI"): with an API key, start a run of an
agent's suite and read it until it ends. `callwright test-agent` drives these two routes."""

from __future__ import annotations

from fastapi import APIRouter

from callwright.developers.keys import ApiKeyCaller
from callwright.kit.db import SessionDep
from callwright.kit.deps import JobsDep, SettingsDep
from callwright.kit.errors import NotFound
from callwright.lab.endpoints import IdParam, agent_suite, begin, owned_run
from callwright.lab.schemas import RunIn, RunResponse, RunStarted
from callwright.lab.views import run_out

router = APIRouter(prefix="/v1", tags=["Call API (v1)"])


@router.post("/agents/{agent_id}/tests/run", status_code=201)
async def run_tests(
    agent_id: IdParam,
    body: RunIn,
    caller: ApiKeyCaller,
    session: SessionDep,
    settings: SettingsDep,
    jobs: JobsDep,
) -> RunStarted:
    """Runs the agent's suite (or the scenarios named): poll `GET .../tests/runs/{run_id}` until
    its status is no longer `running`."""
    suite = await agent_suite(session, caller.user.id, agent_id)
    return await begin(session, suite, body, settings=settings, jobs=jobs, source="api")


@router.get("/agents/{agent_id}/tests/runs/{run_id}")
async def read_test_run(
    agent_id: IdParam, run_id: IdParam, caller: ApiKeyCaller, session: SessionDep
) -> RunResponse:
    run = await owned_run(session, caller.user.id, run_id)
    if run.agent_id != agent_id:
        raise NotFound("The run was not found.")
    return RunResponse(data=await run_out(session, run))
