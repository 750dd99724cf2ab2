"""Running an agent's suite (docs/lab.md, "Runs"): every scenario placed as a sandbox call of
kind "lab" (nobody's bill, the callee the scenario's data), several at once, each judged once
its call is finished (and analysed, when an expectation reads the analysis).

A run is a job (`RUN_JOB`): it runs where jobs run (the API process on the embedded default,
a worker with a Redis broker). Its state is in the database (`lab_runs`, `lab_results`), which
the screens and `/v1` read, so a run is followed by polling it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents.service import TOOLS_KEY
from callwright.calls.builder import CallRequest, FlowChoice, build_order
from callwright.calls.flows import CallFlows
from callwright.calls.service import CallService
from callwright.kit.db import Database
from callwright.kit.errors import ValidationFailed
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.lab import repository
from callwright.lab.contract import Scenario
from callwright.lab.evaluate import judge
from callwright.lab.record import call_record
from callwright.models import Agent, Call, LabResult, LabRun

log = logging.getLogger(__name__)

#: The job that runs a run (its id the argument).
RUN_JOB = "lab.run"
#: The number a lab call dials: one of the sandbox's own; the scenario's callee answers it.
LAB_NUMBER = "+15005550199"
#: The longest a lab call may last, in minutes (the agent's max duration when shorter): a
#: silent callee or a loop ends there, and a run stays minutes long.
LAB_MAX_MINUTES = 3
#: Seconds between the starts of a run's first calls: they are the same agent's, so their first
#: turns are the same sentences, which the first call's synthesis puts in the speech cache for
#: the next (eight started together would synthesise them eight times at once, and answer
#: eight callees at once). The calls still overlap: each lasts far longer than the stagger.
STAGGER_S = 2.0
#: Seconds to wait for a finished call's analysis when an expectation reads it.
ANALYSIS_WAIT_S = 60.0


class LabQuotaExceeded(ValidationFailed):
    """More lab calls than the user's daily quota (`settings.lab_calls_per_day`)."""


@dataclass(frozen=True)
class Pin:
    """What a run is pinned to: the agent's version (its number and settings; None and {} for a
    flow's own suite) and the flow's published version (None: no flow)."""

    user_id: int
    agent_id: str | None
    agent_version: int | None
    agent_settings: dict[str, Any]
    flow_id: str | None
    flow_version: int | None


async def calls_today(session: AsyncSession, user_id: int) -> int:
    """The lab calls the user's runs placed in the last 24 hours."""
    return await repository.calls_since(session, user_id, utcnow() - timedelta(days=1))


async def start(
    session: AsyncSession,
    pin: Pin,
    scenarios: Sequence[tuple[str | None, Scenario]],
    *,
    quota: int,
    source: str,
) -> LabRun:
    """A run of `scenarios` (each with its stored id, or None) pinned to `pin`, stored running
    with its results queued; LabQuotaExceeded past the user's quota. The caller sends RUN_JOB
    after the commit.

    The user's row is locked first (PostgreSQL) and the run written before the quota is
    counted (SQLite lets one writer in at a time), so runs started together are counted one
    after the other: they cannot all fit in what was left."""
    if not scenarios:
        raise ValidationFailed({"scenarios": ["The suite has no scenario to run."]})
    await repository.lock_user(session, pin.user_id)
    run = LabRun(**asdict(pin), status="running", source=source)
    session.add(run)
    await session.flush()
    for position, (scenario_id, scenario) in enumerate(scenarios):
        session.add(
            LabResult(
                run_id=run.id,
                position=position,
                scenario=scenario.model_dump(mode="json"),
                scenario_id=scenario_id,
                status="queued",
                checks=[],
            )
        )
    await session.flush()
    used = await calls_today(session, pin.user_id)
    if used > quota:
        left = max(0, quota - (used - len(scenarios)))
        raise LabQuotaExceeded(
            {"scenarios": [f"The lab places at most {quota} calls a day: {left} left today."]}
        )
    return run


class LabRunner:
    """Runs runs: `run(run_id)` is RUN_JOB. At most `concurrency` scenarios are called at once
    across all the runs this process runs (two runs started together share the bound)."""

    def __init__(
        self, db: Database, service: CallService, flows: CallFlows, *, concurrency: int
    ) -> None:
        self.db, self.service, self.flows = db, service, flows
        self.concurrency = concurrency
        self._gate = asyncio.Semaphore(concurrency)

    def register(self, jobs: JobQueue) -> None:
        jobs.register(RUN_JOB, self.run)

    async def run(self, run_id: str) -> None:
        async for session in self.db.session():
            found = await session.get(LabRun, run_id)
            if found is None or found.status != "running":
                return
            run = found
            ids = [r.id for r in await repository.results(session, run_id, "queued")]
        await asyncio.gather(
            *(
                self._scenario(run, result_id, min(i, self.concurrency) * STAGGER_S)
                for i, result_id in enumerate(ids)
            )
        )
        await self._finish(run_id)

    async def _scenario(self, run: LabRun, result_id: str, after: float) -> None:
        await asyncio.sleep(after)
        async with self._gate:
            try:
                await self._call_and_judge(run, result_id)
            except Exception as exc:  # one scenario's failure is its result, not the run's
                log.warning("lab run %s: scenario %s could not run: %s", run.id, result_id, exc)
                await self._update(result_id, status="error", error=str(exc)[:500])

    async def _call_and_judge(self, run: LabRun, result_id: str) -> None:
        async for session in self.db.session():
            result = await session.get(LabResult, result_id)
            assert result is not None
            scenario = Scenario.model_validate(result.scenario)
            call_id = await self._place(session, run, scenario)
            result.call_id, result.status, result.started_at = call_id, "calling", utcnow()
        call = await self.flows.wait_finalized(call_id, within=_longest(scenario), poll=0.5)
        if _not_placed(call):
            await self._update(result_id, status="error", error=(call.error or "")[:500])
            return
        if scenario.expect.values:
            await self._analysed(call)
        async for session in self.db.session():
            record = await call_record(session, call_id)
        checks = judge(scenario.expect, record)
        passed = all(c.passed for c in checks)
        await self._update(
            result_id,
            status="passed" if passed else "failed",
            checks=[c.model_dump(mode="json") for c in checks],
        )

    async def _place(self, session: AsyncSession, run: LabRun, scenario: Scenario) -> str:
        """The scenario's call: the agent's order (its flow at the run's version), or the flow's
        alone for a flow's own suite, placed as a lab call to the scenario's callee."""
        flow = FlowChoice(run.flow_id, run.flow_version) if run.flow_id else None
        request = CallRequest(
            kind="lab",
            to_number=LAB_NUMBER,
            user_id=run.user_id,
            agent_id=run.agent_id,
            variables=scenario.variables or None,
            flow=flow,
            lab_callee=scenario.callee.model_dump(mode="json"),
        )
        order = await build_order(session, request, *pinned_agent(run))
        lab = replace(order, max_duration=min(order.max_duration, LAB_MAX_MINUTES))
        call = await self.service.place(session, lab)
        return call.id

    async def _analysed(self, call: Call) -> None:
        """Wait (a while) for the call's analysis, which the judge's values may read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANALYSIS_WAIT_S
        while loop.time() < deadline:
            async for session in self.db.session():
                found = await session.get(Call, call.id)
                if found is not None and found.analysis:
                    return
            await asyncio.sleep(0.5)

    async def _update(self, result_id: str, **fields: Any) -> None:
        async for session in self.db.session():
            result = await session.get(LabResult, result_id)
            if result is not None:
                for name, value in fields.items():
                    setattr(result, name, value)
                result.finished_at = utcnow()

    async def _finish(self, run_id: str) -> None:
        async for session in self.db.session():
            run = await session.get(LabRun, run_id)
            statuses = [r.status for r in await repository.results(session, run_id)]
            if run is None:
                return
            if "error" in statuses:
                run.status = "error"
            elif all(s == "passed" for s in statuses):
                run.status = "passed"
            else:
                run.status = "failed"
            run.finished_at = utcnow()


def pinned_agent(run: LabRun) -> tuple[Agent | None, list[dict[str, Any]]]:
    """The agent as the run's version saved it and its custom tools then, not as they are now
    (None and []: a flow's own suite)."""
    if run.agent_id is None:
        return None, []
    columns = dict(run.agent_settings)
    tools: list[dict[str, Any]] = columns.pop(TOOLS_KEY, [])
    return Agent(id=run.agent_id, user_id=run.user_id, **columns), tools


def _not_placed(call: Call) -> bool:
    """Whether the carrier never took the call (it failed before it rang: the sandbox network
    did not answer, or refused the callee), which leaves nothing to judge."""
    return call.status == "failed" and call.ringing_at is None and call.answered_at is None


def _longest(scenario: Scenario) -> float:
    """Seconds a scenario's call may take: its max duration, ringing and the wrap-up."""
    return LAB_MAX_MINUTES * 60 + scenario.callee.ring_seconds + 120
