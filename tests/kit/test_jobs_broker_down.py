"""The job queue while its Redis is down (a restart; the whole call is `tests/test_restarts.py`):
a receiver waits for Redis instead of failing, and a job sent meanwhile is held and sent once
Redis answers, in order. On a private `redis-server` (tests/servers.py), never the shared one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest

from callwright.kit.jobs import JobQueue, RedisQueue
from tests.servers import PrivateRedis, have_servers

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not have_servers(), reason="needs redis-server (the test command's)"),
]


async def test_a_receiver_waits_for_redis_and_held_jobs_are_sent_in_order() -> None:
    redis = PrivateRedis()  # not started yet: down
    ran: list[int] = []
    got_all = asyncio.Event()

    async def job(n: int) -> None:
        ran.append(n)
        if len(ran) == 3:
            got_all.set()

    jobs = JobQueue(redis.url)
    assert isinstance(jobs.broker, RedisQueue)
    jobs.register("test.job", job)
    pool = jobs.broker.connection_pool
    connect = cast(Callable[..., Awaitable[Any]], pool.get_connection)
    tries = 0

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal tries
        tries += 1
        return await connect(*args, **kwargs)

    pool.get_connection = counted  # type: ignore[method-assign]
    try:
        await jobs.start(receive=True)
        for n in (1, 2, 3):
            await jobs.send("test.job", n)  # held, not raised
        assert jobs.held == 3
        # Down for a second: the receiver and the resender wait between tries (backing off
        # from 0.25 s) rather than trying again at once (taskiq restarts a failed receiver
        # without a pause: about a hundred tries a second).
        await asyncio.sleep(1.0)
        assert tries <= 12, f"{tries} connection attempts in a second while Redis was down"
        await asyncio.to_thread(redis.start)
        await asyncio.wait_for(got_all.wait(), timeout=30)
        assert ran == [1, 2, 3]
        assert jobs.held == 0

        # Killed and back: the receiver (whose connection was cut) receives again.
        await asyncio.to_thread(redis.stop)
        await asyncio.to_thread(redis.start)
        done = asyncio.Event()
        jobs.register("test.after", lambda: _set(done))
        await jobs.send("test.after")
        await asyncio.wait_for(done.wait(), timeout=30)
    finally:
        await jobs.close()
        redis.stop()


async def _set(event: asyncio.Event) -> None:
    event.set()
