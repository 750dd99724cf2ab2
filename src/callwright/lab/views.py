"""The agent lab's runs as the API shows them (docs/lab.md): a run with its results and
checks, its summary, two runs compared."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents.service import shown_settings
from callwright.lab import repository
from callwright.lab.contract import Check, Scenario
from callwright.lab.schemas import CheckChange, ResultOut, RunComparison, RunOut, RunSummary
from callwright.models import LabResult, LabRun


def compare(before: RunOut, after: RunOut) -> RunComparison:
    """`after` against `before`: the settings that differ (the flow's published version among
    them, for a flow's runs), and each expectation of a scenario both ran whose result differs
    (with both checks, and both results to open their calls)."""
    old = {r.scenario.name: r for r in before.results}
    new = {r.scenario.name: r for r in after.results}
    changed = []
    for name in sorted(old.keys() & new.keys()):
        was = {c.expectation: c for c in old[name].checks}
        now = {c.expectation: c for c in new[name].checks}
        for expectation in sorted(was.keys() | now.keys()):
            a, b = was.get(expectation), now.get(expectation)
            if (a.passed if a else None) != (b.passed if b else None):
                changed.append(
                    CheckChange(
                        scenario=name,
                        expectation=expectation,
                        before=a,
                        after=b,
                        before_result_id=old[name].id,
                        after_result_id=new[name].id,
                    )
                )
    settings = {
        name: [before.agent_settings.get(name), after.agent_settings.get(name)]
        for name in sorted(before.agent_settings.keys() | after.agent_settings.keys())
        if before.agent_settings.get(name) != after.agent_settings.get(name)
    }
    if before.flow_version != after.flow_version:
        settings["flow_version"] = [before.flow_version, after.flow_version]
    return RunComparison(
        before=RunSummary.model_validate(before.model_dump(exclude={"agent_settings", "results"})),
        after=RunSummary.model_validate(after.model_dump(exclude={"agent_settings", "results"})),
        settings_changed=settings,
        changed=changed,
        only_before=sorted(old.keys() - new.keys()),
        only_after=sorted(new.keys() - old.keys()),
    )


def run_summary(run: LabRun, results: list[LabResult]) -> RunSummary:
    return RunSummary(
        id=run.id,
        agent_id=run.agent_id,
        agent_version=run.agent_version,
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
        agent_settings=shown_settings(run.agent_settings),
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
