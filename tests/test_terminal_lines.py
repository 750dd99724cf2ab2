"""What command 1's terminal shows (`kit.logs`): an idle process prints nothing for its routine
jobs (the due-call sweep, the campaign tick, the reconciler, the webhook sweep: the scheduler's
sends and their runs below INFO), and each call prints
one line when it starts and one when it ends, with its id, number, outcome and length."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from callwright.calls.tasks import DIAL_DUE_JOB, DIAL_JOB, RECONCILE_JOB
from callwright.campaigns.dialler import TICK_JOB
from callwright.config import Settings
from callwright.core import Core
from callwright.developers.tasks import SWEEP_JOB
from callwright.kit import logs
from callwright.kit.db import Database
from callwright.main import create_app
from callwright.realtime.events import LiveEvent
from tests.live import Live
from tests.workers import REDIS_URL, worker_process

ROUTINE = {DIAL_DUE_JOB, TICK_JOB, RECONCILE_JOB, SWEEP_JOB}
#: Where taskiq logs a line per job run, and per job its scheduler sends.
RECEIVER, SCHEDULER = "taskiq.receiver.receiver", "taskiq.cli.scheduler.run"


async def _nowhere(room: str, event: LiveEvent) -> None:
    return None


def _lines(caplog: pytest.LogCaptureFixture, opening: str) -> list[logging.LogRecord]:
    """Taskiq's "Executing task <name> with ID: <id>" (a run) or "Sending task <name> with
    schedule_id <id>" (a send) records."""
    return [r for r in caplog.records if str(r.msg).startswith(opening)]


def _per_job(records: list[logging.LogRecord]) -> dict[str, int]:
    names = [r.args[0] for r in records if isinstance(r.args, tuple)]
    return {str(name): names.count(name) for name in set(names)}


async def test_idle_routine_jobs_print_no_info_line(
    migrated: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    # Every routine job on Taskiq's shortest interval (1 s), until each was sent and run twice.
    settings = migrated.model_copy(
        update={
            "dial_due_sweep_seconds": 1,
            "campaign_tick_seconds": 1,
            "reconcile_seconds": 1,
            "webhook_sweep_seconds": 1,
        }
    )
    logs.configure()
    caplog.set_level(logging.INFO)
    # Only to count them: where taskiq's loggers are at DEBUG, the routine lines show, as DEBUG.
    caplog.set_level(logging.DEBUG, logger=RECEIVER)
    caplog.set_level(logging.DEBUG, logger=SCHEDULER)
    core = Core.build(settings, Database(settings.database_url), publish=_nowhere)
    await core.start(receive=True)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while not all(
            _per_job(_lines(caplog, opening)).get(name, 0) >= 2
            for name in ROUTINE
            for opening in ("Sending task", "Executing task")
        ):
            assert loop.time() < deadline, "the routine jobs were not sent and run"
            await asyncio.sleep(0.05)
    finally:
        await core.close()
    lines = _lines(caplog, "Sending task") + _lines(caplog, "Executing task")
    assert set(_per_job(lines)) == ROUTINE
    assert {r.levelname for r in lines} == {"DEBUG"}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


async def test_a_worker_without_the_scheduler_runs_the_routine_jobs_quietly(
    migrated: Settings, tmp_path: Path
) -> None:
    """In a cluster the scheduler runs in one process; the others run what it sends, and an
    idle one prints nothing for them either."""
    if not REDIS_URL:
        pytest.skip("set CALLWRIGHT_TEST_REDIS_URL (scripts/test.sh does)")
    redis = aioredis.from_url(REDIS_URL)
    await redis.delete("callwright:jobs")
    await redis.aclose()
    settings = migrated.model_copy(update={"job_broker_url": REDIS_URL, "embedded_worker": False})
    sender = Core.build(settings, Database(settings.database_url), publish=_nowhere)
    await sender.start(receive=False)
    log = tmp_path / "worker.log"
    loop = asyncio.get_running_loop()
    try:
        with worker_process(migrated, log, CALLWRIGHT_SCHEDULER="false") as worker:
            for name in sorted(ROUTINE):  # as the scheduler in another process sends them
                await sender.jobs.send(name)
            await sender.jobs.send(DIAL_JOB, "no-such-call")  # a job whose line shows, after
            deadline = loop.time() + 60
            while f"Executing task {DIAL_JOB}" not in log.read_text():
                assert worker.poll() is None, log.read_text()
                assert loop.time() < deadline, log.read_text()
                await asyncio.sleep(0.1)
    finally:
        await sender.close()
    said = log.read_text()
    assert [name for name in ROUTINE if name in said] == [], said


async def test_a_call_prints_one_line_as_it_starts_and_one_as_it_ends(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    logs.configure()
    caplog.set_level(logging.INFO)
    call_id = await live.place("+15005550002")  # the sandbox's busy line
    await live.wait_finalized(call_id, within=30)
    await asyncio.sleep(0.1)  # the end's line follows its commit
    about = [r.getMessage() for r in caplog.records if call_id in r.getMessage()]
    assert about == [
        f"call {call_id} started: dialling +15005550002",
        f"call {call_id} to +15005550002 ended: busy, 0:00",
    ]
    assert all(
        re.fullmatch(r"INFO", r.levelname) for r in caplog.records if call_id in r.getMessage()
    )


async def test_the_terminal_says_where_to_sign_in(
    migrated: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    logs.configure()
    caplog.set_level(logging.INFO)
    app = create_app(migrated.model_copy(update={"app_url": "http://127.0.0.1:8000/"}))
    async with app.router.lifespan_context(app):
        pass
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert said == ["Callwright is ready: sign in at http://127.0.0.1:8000/login"]
