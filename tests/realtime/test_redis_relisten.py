"""socket.io's Redis manager listens again within seconds of a Redis restart: what other
processes publish after that (a call's lines and end) reaches this process's sockets. The
library's own waits double up to a minute, so after a restart of a few seconds it missed what
was published in the next several."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest
import redis.asyncio as aioredis

from callwright.config import Settings
from callwright.realtime.server import (
    RELISTEN_SECONDS,
    SOCKETIO_CHANNEL,
    Realtime,
    RelisteningRedisManager,
    channel,
)
from tests.servers import PrivateRedis

pytestmark = pytest.mark.asyncio


async def _published_until_heard(url: str, heard: list[Any], within: float) -> float:
    """Publish on the manager's channel until it hears it; the seconds that took."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    client = aioredis.from_url(url)
    try:
        while not heard:
            assert loop.time() - started < within, f"not heard within {within} s"
            await client.publish(channel(url, SOCKETIO_CHANNEL), b'{"method": "probe"}')
            await asyncio.sleep(0.1)
    finally:
        await client.aclose()
    return loop.time() - started


async def test_the_manager_listens_again_soon_after_a_redis_restart() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/test.sh installs it)")
    redis = PrivateRedis()
    redis.start()
    heard: list[Any] = []
    manager = RelisteningRedisManager(
        redis.url, channel=channel(redis.url, SOCKETIO_CHANNEL), write_only=True
    )

    async def listen() -> None:
        async for message in manager._redis_listen_with_retries():
            if message.get("type") == "message":
                heard.append(message["data"])

    task = asyncio.create_task(listen())
    try:
        await _published_until_heard(redis.url, heard, within=10)
        redis.stop()
        await asyncio.sleep(4)  # down long enough for the library's waits to reach 4 s
        redis.start()
        heard.clear()
        took = await _published_until_heard(redis.url, heard, within=10)
        assert took <= RELISTEN_SECONDS[1] + 1.0, f"listening again took {took:.1f} s"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        redis.stop()


def test_pubsub_channels_are_per_database() -> None:
    """Pub/sub ignores the database number: two installs on one Redis server (or the suite's
    two passes side by side) must not hear each other's events."""
    assert channel("redis://127.0.0.1:6379/15", "socketio") == "callwright:15:socketio"
    assert channel("redis://127.0.0.1:6379/14", "socketio") == "callwright:14:socketio"
    assert channel("redis://127.0.0.1:6379", "realtime-control") == "callwright:0:realtime-control"


async def test_closing_stops_the_socketio_listener(migrated: Settings) -> None:
    """socket.io never stops its Redis manager's listener: left running after the app closed,
    it retried a Redis that had gone with the app for ever (and logged each time)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/test.sh installs it)")
    redis = PrivateRedis()
    redis.start()

    async def nobody(_token: str) -> None:
        return None

    try:
        realtime = Realtime(migrated.model_copy(update={"redis_url": redis.url}), nobody)
        realtime.sio.manager.initialize()
        listener = realtime.sio.manager.thread
        await asyncio.sleep(0.2)
        assert not listener.done(), "listening"
        await realtime.close()
        assert listener.done()
    finally:
        redis.stop()
