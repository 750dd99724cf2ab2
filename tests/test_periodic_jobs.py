"""The periodic jobs (the reconciler, the due-call sweep, the campaign tick, the webhook sweep)
in a receiving role: sent by the scheduler on their intervals where `scheduler` is on, none
where it is off, and one stream of them for a cluster whose processes share one Redis broker
with one scheduler among them (docs/deployment.md, "One scheduler process")."""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest

from callwright.calls.tasks import DIAL_DUE_JOB, RECONCILE_JOB
from callwright.campaigns.dialler import TICK_JOB
from callwright.config import Settings
from callwright.core import Core
from callwright.developers.tasks import SWEEP_JOB
from callwright.kit.db import Database
from callwright.realtime.events import LiveEvent
from tests.servers import PrivateRedis

pytestmark = pytest.mark.asyncio

#: The logger of taskiq's line per job run ("Executing task <name> with ID: <id>").
RECEIVER = "taskiq.receiver.receiver"


async def _nowhere(room: str, event: LiveEvent) -> None:
    return None


def _runs(caplog: pytest.LogCaptureFixture, job: str) -> list[float]:
    """When `job` ran (taskiq's record of each run), in this test."""
    return [
        r.created
        for r in caplog.records
        if str(r.msg).startswith("Executing task")
        and isinstance(r.args, tuple)
        and r.args[0] == job
    ]


def _every(migrated: Settings, **update: object) -> Settings:
    return migrated.model_copy(
        update={
            "reconcile_seconds": 0,
            "dial_due_sweep_seconds": 0,
            "campaign_tick_seconds": 0,
            "webhook_sweep_seconds": 0,
            **update,
        }
    )


async def test_a_receiving_role_runs_each_enabled_job_on_its_interval(
    migrated: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=RECEIVER)  # the routine jobs' runs log at DEBUG
    settings = _every(migrated, reconcile_seconds=1, dial_due_sweep_seconds=2)
    core = Core.build(settings, Database(settings.database_url), publish=_nowhere)
    await core.start(receive=True)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    try:
        while len(_runs(caplog, RECONCILE_JOB)) < 3:
            assert loop.time() < deadline, "the reconciler did not run every second"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # the due-call sweep sent in the same second runs
    finally:
        await core.close()
    reconciled, swept = _runs(caplog, RECONCILE_JOB), _runs(caplog, DIAL_DUE_JOB)
    assert len(reconciled) == 3
    assert len(swept) == 2  # as the scheduler starts, then 2 s later
    assert 1.5 < swept[1] - swept[0] < 3.0
    assert _runs(caplog, TICK_JOB) == _runs(caplog, SWEEP_JOB) == []  # 0: off


async def test_with_the_scheduler_off_a_receiving_role_runs_none(
    migrated: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=RECEIVER)
    settings = _every(
        migrated,
        scheduler=False,
        reconcile_seconds=1,
        dial_due_sweep_seconds=1,
        campaign_tick_seconds=1,
        webhook_sweep_seconds=1,
    )
    core = Core.build(settings, Database(settings.database_url), publish=_nowhere)
    await core.start(receive=True)
    try:
        await asyncio.sleep(2.2)  # with the scheduler on, each would have run twice
    finally:
        await core.close()
    assert [r.getMessage() for r in caplog.records if r.name == RECEIVER] == []


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")
async def test_two_receiving_processes_with_one_scheduler_run_one_stream_of_ticks(
    migrated: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """Two receiving roles on one Redis broker (a private one), the reconciler every second in
    both settings, the scheduler on in one of them: about one run a second between them, not
    two."""
    caplog.set_level(logging.DEBUG, logger=RECEIVER)
    redis = PrivateRedis()
    await asyncio.to_thread(redis.start)
    cores = [
        Core.build(
            _every(migrated, job_broker_url=redis.url, reconcile_seconds=1, scheduler=on),
            Database(migrated.database_url),
            publish=_nowhere,
        )
        for on in (True, False)
    ]
    try:
        for core in cores:
            await core.start(receive=True)
        started = asyncio.get_running_loop().time()
        await asyncio.sleep(3.5)
        window = asyncio.get_running_loop().time() - started
    finally:
        for core in cores:
            await core.close()
        redis.stop()
    runs = len(_runs(caplog, RECONCILE_JOB))
    # One scheduler: a run as it starts (within its first second), then one a second.
    assert 2 <= runs <= int(window) + 1, f"{runs} reconciler runs in {window:.1f} s"
