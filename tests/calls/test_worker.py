"""Scale-out jobs: with a Redis job broker and the embedded worker off, the API process only
queues the dial; a separate worker (`callwright worker`'s run_worker) receives it from Redis,
dials through the carrier and the call runs to its end."""

from __future__ import annotations

import asyncio
import os

import pytest
import redis.asyncio as aioredis

from callwright.calls import repository as calls
from callwright.calls.events import CLOSING
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.core import run_worker
from callwright.kit.jobs import JobQueue, make_broker
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call

REDIS_URL = os.environ.get("CALLWRIGHT_TEST_REDIS_URL", "")


def test_the_broker_follows_the_setting() -> None:
    assert JobQueue("").in_memory
    assert not JobQueue("redis://127.0.0.1:6379/15").in_memory
    with pytest.raises(ValueError, match="unsupported job broker"):
        make_broker("amqp://localhost")


async def test_sending_an_unknown_job_is_an_error() -> None:
    queue = JobQueue("")
    with pytest.raises(LookupError):
        await queue.send("no.such.job")


async def test_in_memory_jobs_run_in_this_process() -> None:
    queue = JobQueue("")
    seen: list[int] = []

    async def job(n: int) -> None:
        await asyncio.sleep(0.01)
        seen.append(n)

    queue.register("test.job", job)
    for n in range(3):
        await queue.send("test.job", n)
    await queue.drain()
    assert sorted(seen) == [0, 1, 2]
    await queue.close()


async def test_a_worker_process_dials_queued_calls(migrated: Settings) -> None:
    if not REDIS_URL:
        pytest.skip("set CALLWRIGHT_TEST_REDIS_URL (scripts/test.sh does)")
    client = aioredis.from_url(REDIS_URL)
    await client.delete("callwright:jobs")
    await client.aclose()

    port = free_port()
    settings = migrated.model_copy(
        update={
            "app_url": f"http://127.0.0.1:{port}",
            "port": port,
            "sandbox_speed": 4.0,
            "job_broker_url": REDIS_URL,
            "redis_url": REDIS_URL,
            "embedded_worker": False,
        }
    )
    app = create_app(settings)
    async with serving(app.state.realtime.wrap(app), port):
        async for session in app.state.db.session():
            call = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="dashboard",
                    to_number="+15005550002",  # busy
                    from_number="+18885550100",
                    prompt="Remind the customer about their appointment tomorrow.",
                    voice="joe",
                    max_duration=1,
                ),
            )
            call_id = call.id
        # Nobody receives jobs yet: the call stays queued, not dialled.
        await asyncio.sleep(1.0)
        async for session in app.state.db.session():
            waiting = await session.get(Call, call_id)
            assert waiting is not None
            assert waiting.status == "queued"
            assert waiting.carrier_call_id is None

        stop = asyncio.Event()
        worker = asyncio.create_task(run_worker(settings, stop))
        try:
            done = await app.state.calls.flows.wait_finalized(call_id, within=30, poll=0.2)
        finally:
            stop.set()
            await worker
    assert done.status == "busy"
    assert done.carrier_call_id is not None
    async for session in app.state.db.session():
        messages = [e.message for e in await calls.events(session, call_id)]
    assert messages[-1] == CLOSING
