"""The roles apart: an API process that hosts neither calls nor the sandbox, a voice process
(`roles.create_voice_app`) and the sandbox network in a process of its own
(`roles.create_sandbox_app`), each a real server on a port of its own. A call placed through the
API is dialled at the sandbox, streams its media to the voice process and ends completed,
recorded and transcribed; the API process itself answers neither the media websocket nor the
sandbox's REST API."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import TranscriptEntry
from callwright.roles import create_sandbox_app, create_voice_app
from callwright.sandbox.numbers import persona_for
from tests.factories import add_user
from tests.live import TEST_SPEED, place_call

pytestmark = pytest.mark.asyncio

#: A short conversation: the callee says it is the wrong person.
WRONG_PERSON = next(
    n
    for n in (f"+15005550{i}" for i in range(104, 180))
    if persona_for(n).label.startswith("wrong person")
)


async def test_a_call_through_separate_api_voice_and_sandbox_processes(
    app: FastAPI, migrated: Settings
) -> None:
    if migrated.database_url.startswith("postgresql"):
        pytest.skip("a whole call through three servers: run once per suite, in the SQLite pass")
    api_port, voice_port, sandbox_port = free_port(), free_port(), free_port()
    roles = migrated.model_copy(
        update={
            "app_url": f"http://127.0.0.1:{api_port}",
            "media_url": f"http://127.0.0.1:{voice_port}",
            "sandbox_url": f"http://127.0.0.1:{sandbox_port}",
            "sandbox_speed": TEST_SPEED,
            "host_calls": False,
            "host_sandbox": False,
        }
    )
    api = create_app(roles)
    voice = create_voice_app(roles)
    sandbox = create_sandbox_app(roles)
    assert api.state.sandbox is None
    user = await add_user(app, email="roles@example.com", balance_cents=1000)

    async with (
        serving(sandbox, sandbox_port),
        serving(voice, voice_port),
        serving(api.state.realtime.wrap(api), api_port),
        httpx.AsyncClient() as http,
    ):
        await asyncio.to_thread(voice.state.voice_engines.transcriber.load)
        for port, role in ((voice_port, "voice"), (sandbox_port, "sandbox")):
            answer = await http.get(f"http://127.0.0.1:{port}/api/v1/health")
            assert answer.json()["role"] == role
        # The API process hosts neither: no sandbox REST API, no media websocket route.
        sandbox_path = "/sandbox/twilio/2010-04-01/Accounts/AC0/Calls.json"
        refused = await http.post(f"http://127.0.0.1:{api_port}{sandbox_path}")
        assert refused.status_code in (404, 405)  # only the SPA's GET fallback matches
        assert not any(getattr(r, "path", "") == "/api/v1/media/twilio" for r in api.router.routes)

        call_id = await place_call(api, WRONG_PERSON, user_id=user.id)
        done = await api.state.calls.flows.wait_finalized(call_id, within=120, poll=0.2)
        assert sandbox.state.sandbox.calls, "the sandbox process carried the call"

    assert done.status == "completed", (done.status, done.end_reason, done.error)
    assert done.answered_at is not None
    assert done.recording_path
    async with app.state.db.sessionmaker() as session:
        lines = await session.scalar(select(func.count()).where(TranscriptEntry.call_id == call_id))
    assert (lines or 0) >= 2, "both sides spoke, through the voice process"
