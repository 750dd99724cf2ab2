"""How long an agent lab run takes (issue 32): a suite of 8 scenarios and one of 20, each placed
as real sandbox calls through the real pipeline at real time, at the lab's concurrency.

Run: PYTHONPATH=src .venv/bin/python benchmarks/lab_suite.py [sizes] [-v] (default 8,20; -v
prints each failed scenario's transcript)

The agent is the demo user's, as `callwright seed` makes it; the suite of 8 is its starter suite
(the happy path, a decline, a wrong person, a voicemail, an opt-out, a request for a person,
an interrupter, a silent callee), and larger suites repeat those callees under other names.
For each size it prints the run's wall time (from the start to the last result judged), the
scenarios passed, failed and in error, the most calling at once, and the slowest scenario;
and the settings it ran with (`CALLWRIGHT_LAB_CONCURRENCY`, the speech cache).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from fresh_app import run_fresh
from sqlalchemy import delete, select

from callwright.config import Settings
from callwright.kit.serving import serving
from callwright.lab import repository, runner, starter
from callwright.lab.endpoints import Suite, start_run
from callwright.lab.record import call_record
from callwright.lab.schemas import RunIn
from callwright.main import create_app
from callwright.models import Agent, LabRun, LabScenario
from callwright.realtime.events import LiveEvent
from callwright.seed import seed
from callwright.speech import tts


async def _demo_agent(app: Any) -> Agent:
    """The demo user's agent, as `callwright seed` makes it with the account."""
    async with app.state.db.sessionmaker() as session:
        await seed(session, app.state.settings)
        await session.commit()
        agent: Agent | None = await session.scalar(select(Agent).where(Agent.name.like("%(demo)")))
        assert agent is not None, "the seed makes the demo agent"
        return agent


async def _suite_of(app: Any, agent: Agent, size: int) -> Suite:
    """The agent's suite made `size` scenarios long: its starter suite's callees, repeated
    under new names past the first eight (the suite left by the last size goes first)."""
    made = starter.agent_suite(agent)
    async with app.state.db.sessionmaker() as session:
        await session.execute(delete(LabScenario).where(LabScenario.agent_id == agent.id))
        for i in range(size):
            scenario = made[i % len(made)]
            name = scenario.name if i < len(made) else f"{scenario.name} ({i // len(made) + 1})"
            session.add(
                LabScenario(
                    user_id=agent.user_id,
                    agent_id=agent.id,
                    name=name,
                    suite=scenario.suite,
                    callee=scenario.callee.model_dump(mode="json"),
                    expect=scenario.expect.model_dump(mode="json", exclude_defaults=True),
                    variables=scenario.variables,
                )
            )
        await session.commit()
    return Suite(agent.user_id, agent=agent)


async def _run(app: Any, suite: Suite) -> dict[str, Any]:
    async with app.state.db.sessionmaker() as session:
        run = await start_run(
            session, suite, RunIn(), settings=app.state.settings, source="app", quota=10_000
        )
        await session.commit()
        run_id = run.id
    started = time.perf_counter()
    await app.state.jobs.send(runner.RUN_JOB, run_id)
    most = 0
    while True:
        async with app.state.db.sessionmaker() as session:
            found = await session.get(LabRun, run_id)
            results = await repository.results(session, run_id)
        most = max(most, sum(r.status == "calling" for r in results))
        if found is not None and found.status != "running":
            break
        await asyncio.sleep(0.5)
    wall = time.perf_counter() - started
    slowest = max(
        results,
        key=lambda r: (
            (r.finished_at - r.started_at).total_seconds() if r.finished_at and r.started_at else 0
        ),
    )
    return {
        "wall": wall,
        "status": found.status if found else "?",
        "passed": sum(r.status == "passed" for r in results),
        "failed": [
            (
                r.scenario["name"],
                [f"{c['expectation']} ({c['found']})" for c in r.checks if not c["passed"]],
                r.call_id,
            )
            for r in results
            if r.status == "failed"
        ],
        "error": [(r.scenario["name"], r.error) for r in results if r.status == "error"],
        "most": most,
        "slowest": slowest.scenario["name"],
    }


async def main(sizes: list[int], settings: Settings) -> None:
    app = create_app(settings)

    async def quiet(room: str, event: LiveEvent) -> None:
        return None

    app.state.calls.events.publish = quiet
    async with serving(app, settings.port):
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        await asyncio.to_thread(tts.warm_up, tts.default_voice())
        print(
            f"lab concurrency {settings.lab_concurrency}, speech cache {settings.speech_cache_mb} MB,"
            f" sandbox speed {settings.sandbox_speed}"
        )
        agent = await _demo_agent(app)
        for size in sizes:
            suite = await _suite_of(app, agent, size)
            out = await _run(app, suite)
            print(
                f"suite of {size:2}: {out['wall']:6.1f} s, {out['status']}: {out['passed']} passed,"
                f" {len(out['failed'])} failed, {len(out['error'])} in error;"
                f" at most {out['most']} calling at once; slowest: {out['slowest']}"
            )
            for name, checks, call_id in out["failed"]:
                print(f"    failed {name}: {', '.join(checks)}")
                if VERBOSE and call_id:
                    async with app.state.db.sessionmaker() as session:
                        record = await call_record(session, call_id)
                    for line in record.lines:
                        print(f"        {line.at:6.1f} {line.speaker:6} {line.text}")
            for name, error in out["error"]:
                print(f"    error  {name}: {error}")


#: `-v`: print each failed scenario's transcript.
VERBOSE = "-v" in sys.argv

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    sizes_arg = [int(n) for n in (args[0] if args else "8,20").split(",")]
    run_fresh(lambda cfg: main(sizes_arg, cfg))
