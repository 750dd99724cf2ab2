"""A live app (real uvicorn on a free port) for whole sandbox calls: the callee is a real
websocket client, status callbacks are real signed HTTP posts. A pytest plugin (see
tests/conftest.py), so the `live` fixture serves every folder that needs it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI

from callwright import roles
from callwright.calls.domain import Calls
from callwright.calls.flows import CallFlows
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call
from callwright.realtime.events import TRANSCRIPT_LIVE, LiveEvent, wire
from callwright.realtime.server import ADMIN_ROOM
from callwright.sandbox.network import SandboxCall

#: Sandbox calls in tests run this much faster than real time.
TEST_SPEED = 2.0
PROMPT = (
    "You are Sarah from Bright Dental. You are calling to remind the customer about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)


async def place_call(app: FastAPI, to: str, **overrides: Any) -> str:
    """Place a sandbox call through `app`'s calls service (a short call from the test prompt,
    `overrides` on top); answers its id."""
    values: dict[str, Any] = {
        "kind": "dashboard",
        "to_number": to,
        "from_number": "+18885550100",
        "prompt": PROMPT,
        "voice": "joe",
        "temperature": 0.7,
        "interruption_threshold": 100,
        "background_audio": "null",
        "max_duration": 2,
        "wait_for_greeting": False,
    } | overrides
    async for session in app.state.db.session():
        call = await app.state.calls.service.place(session, CallOrder(**values))
        call_id: str = call.id
    return call_id


@dataclass
class Live:
    app: FastAPI
    url: str
    published: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    captions: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    finished: dict[str, SandboxCall] = field(default_factory=dict)

    @property
    def calls(self) -> Calls:
        domain: Calls = self.app.state.calls
        return domain

    @property
    def engine(self) -> CallFlows:
        return self.calls.flows

    async def place(self, to: str, **overrides: Any) -> str:
        return await place_call(self.app, to, **overrides)

    async def wait_finalized(self, call_id: str, within: float = 120) -> Call:
        return await self.engine.wait_finalized(call_id, within=within, poll=0.2)

    async def sandbox_call(self, call: Call, within: float = 10) -> SandboxCall:
        deadline = asyncio.get_running_loop().time() + within
        while asyncio.get_running_loop().time() < deadline:
            if call.carrier_call_id and call.carrier_call_id in self.finished:
                return self.finished[call.carrier_call_id]
            await asyncio.sleep(0.1)
        raise AssertionError("the sandbox never reported the call")

    def captions_for(self, call_id: str) -> list[tuple[float, dict[str, Any]]]:
        """The call's `transcript-live` messages to the admins, with when each was sent."""
        return [(at, d) for at, d in self.captions if d["callId"] == call_id]

    def events_for(self, call_id: str, room: str = "admin") -> list[dict[str, Any]]:
        return [
            d
            for r, e, d in self.published
            if r == room and e == "webhook-event" and d["callId"] == call_id
        ]


@pytest.fixture(scope="session")
async def live(migrated: Settings) -> AsyncIterator[Live]:
    port = free_port()
    settings = migrated.model_copy(
        update={
            "app_url": f"http://127.0.0.1:{port}",
            "port": port,
            "sandbox_speed": TEST_SPEED,
            "warm_up_voice": False,
        }
    )
    app = create_app(settings)
    live = Live(app=app, url=settings.app_url)
    real_publish = app.state.realtime.publish

    async def publish(room: str, event: LiveEvent) -> None:
        name, data = wire(event)
        live.published.append((room, name, data))
        if name == TRANSCRIPT_LIVE and room == ADMIN_ROOM:
            live.captions.append((time.time(), data))
        await real_publish(room, event)

    app.state.calls.events.publish = publish

    async def remember(call: SandboxCall) -> None:
        live.finished[call.sid] = call

    app.state.sandbox.listeners.append(remember)
    async with serving(app.state.realtime.wrap(app), port):
        # The product's warm-up (a voice process's, before its first call): the first test's
        # call is then like every other.
        await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
        yield live


def decode_mp3(data: bytes) -> tuple[np.ndarray, int]:
    """(samples [n, channels] int16, rate) from MP3 bytes, with PyAV."""
    import io

    import av

    with av.open(io.BytesIO(data), mode="r") as container:
        stream = container.streams.audio[0]
        rate = stream.rate
        chunks = [frame.to_ndarray() for frame in container.decode(stream)]
    samples = np.concatenate(chunks, axis=1)  # planar float: [channels, n]
    return (np.clip(samples.T, -1, 1) * 32767).astype(np.int16), int(rate)
