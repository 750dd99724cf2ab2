"""The periodic jobs' scheduler (`kit/schedule.py`): Taskiq's scheduler loop, sending through our
`JobQueue`, so the in-memory broker's count of jobs in flight and the jobs held while Redis is
down apply to what it sends."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable

import pytest

from callwright.kit.jobs import JobQueue
from callwright.kit.schedule import Intervals, start_scheduler
from tests.servers import PrivateRedis

pytestmark = pytest.mark.asyncio


async def test_intervals_are_whole_seconds_rounded_up_and_0_is_off() -> None:
    source = Intervals({"a": 0.2, "b": 2.5, "c": 15, "off": 0})
    schedules = await source.get_schedules()
    assert {s.task_name: s.interval for s in schedules} == {"a": 1, "b": 3, "c": 15}


def _recorder(
    ran: dict[str, list[float]], finished: list[str], name: str
) -> Callable[[], Awaitable[None]]:
    """A job that notes when it starts, takes a while, and notes that it finished."""

    async def job() -> None:
        ran[name].append(asyncio.get_running_loop().time())
        await asyncio.sleep(0.3)
        finished.append(name)

    return job


async def test_each_job_is_sent_on_its_interval_and_drained_with_the_others() -> None:
    jobs = JobQueue()  # in memory: the jobs run in this process
    ran: dict[str, list[float]] = {"every-1": [], "every-2": [], "off": []}
    finished: list[str] = []
    for name in ran:
        jobs.register(name, _recorder(ran, finished, name))
    await jobs.start(receive=True)
    scheduler = start_scheduler(jobs, {"every-1": 1, "every-2": 2, "off": 0})
    assert scheduler is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    try:
        while len(ran["every-1"]) < 3:
            assert loop.time() < deadline, ran
            await asyncio.sleep(0.05)
    finally:
        await scheduler.stop()
    # What the scheduler sent counts as in flight: drain waits for the runs still sleeping.
    await jobs.drain()
    assert len(finished) == sum(len(times) for times in ran.values())
    await jobs.close()
    # Sent as soon as the scheduler starts, then every interval (Taskiq's loop wakes on each
    # whole second); never the one that is off.
    assert len(ran["every-2"]) == 2
    assert ran["off"] == []
    first, second, third = ran["every-1"]
    assert 0.4 < second - first < 2.0
    assert 0.4 < third - second < 2.0
    assert 1.5 < ran["every-2"][1] - ran["every-2"][0] < 3.0


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")
async def test_a_job_due_while_redis_is_down_is_held_and_runs_once_it_is_back() -> None:
    redis = PrivateRedis()  # not started yet: down
    jobs = JobQueue(redis.url)
    ran = asyncio.Event()

    async def job() -> None:
        ran.set()

    jobs.register("test.tick", job)
    await jobs.start(receive=True)
    scheduler = start_scheduler(jobs, {"test.tick": 60})
    assert scheduler is not None
    loop = asyncio.get_running_loop()
    try:
        deadline = loop.time() + 10
        while not jobs.held:  # its first send, held: not lost, and not raised in Taskiq's loop
            assert loop.time() < deadline, "the scheduler sent nothing"
            await asyncio.sleep(0.05)
        await asyncio.to_thread(redis.start)
        await asyncio.wait_for(ran.wait(), timeout=30)
        assert jobs.held == 0
    finally:
        await scheduler.stop()
        await jobs.close()
        redis.stop()
