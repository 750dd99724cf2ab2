"""The media websocket accepts only the carrier the call was placed with: its signature on the
upgrade, the call's single-use secret in the stream, one connection per call, and no setting
taken from the client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import websockets
from websockets.exceptions import InvalidStatus

from callwright.calls import repository as calls
from callwright.calls.events import CONNECTED
from callwright.kit.security import sha256_hex
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.sandbox.network import _stream_of
from callwright.telephony import signature
from tests.live import PROMPT, TEST_SPEED, Live

pytestmark = pytest.mark.asyncio(loop_scope="session")
TOKEN = "the-calls-own-secret-0123456789"


async def _ringing_call(live: Live) -> str:
    """A call the carrier is ringing, with a known media secret (no dial job)."""
    call_id = ""
    async for session in live.app.state.db.session():
        call = Call(
            carrier="sandbox",
            carrier_call_id="CA" + sha256_hex(str(utcnow()))[:32],
            to_number="+15551230000",
            from_number="+18885550100",
            prompt=PROMPT,
            voice="joe",
            status="ringing",
            max_duration=2,
            media_token_hash=sha256_hex(TOKEN),
        )
        session.add(call)
        await session.flush()
        call_id = call.id
    return call_id


def _signed(live: Live) -> dict[str, str]:
    token = live.engine.carrier.auth_token  # type: ignore[attr-defined]
    return {"X-Twilio-Signature": signature.compute(token, live.engine.media_url)}


async def _stream(live: Live, headers: dict[str, str], params: dict[str, str]) -> Any:
    """Connect as a Media Streams client; returns the close code the server answers with, or
    None when it keeps the stream open."""
    async with websockets.connect(live.engine.media_url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"}))
        start = {"streamSid": "MZ1", "callSid": "CA1", "customParameters": params}
        await ws.send(json.dumps({"event": "start", "streamSid": "MZ1", "start": start}))
        try:
            await asyncio.wait_for(ws.recv(), timeout=5)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        return None


async def _status(live: Live, call_id: str) -> str:
    async for session in live.app.state.db.session():
        call = await calls.get(session, call_id)
        assert call is not None
        return call.status
    raise AssertionError


async def test_an_unsigned_upgrade_is_refused(live: Live) -> None:
    call_id = await _ringing_call(live)
    for headers in ({}, {"X-Twilio-Signature": "bm90IGEgc2lnbmF0dXJl"}):
        with pytest.raises(InvalidStatus) as refused:
            await _stream(live, headers, {"callId": call_id, "token": TOKEN})
        assert refused.value.response.status_code == 403
    assert await _status(live, call_id) == "ringing"


async def test_a_wrong_secret_is_refused_and_changes_nothing(live: Live) -> None:
    call_id = await _ringing_call(live)
    for params in ({"callId": call_id}, {"callId": call_id, "token": "guess"}):
        assert await _stream(live, _signed(live), params) == 1008
    assert await _status(live, call_id) == "ringing", "an unanswered call stays unanswered"
    assert CONNECTED not in [e["message"] for e in live.events_for(call_id)]


async def test_the_secret_opens_one_stream_and_no_setting_comes_from_the_client(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callwright.voice_agent import media

    seen: list[dict[str, Any]] = []

    class FakeSession:
        def __init__(self, websocket: Any, plan: Any, *args: Any, **kwargs: Any) -> None:
            self.websocket = websocket
            seen.append({"call_id": plan.call_id, **kwargs})

        async def run(self) -> None:
            await self.websocket.send_text(json.dumps({"event": "accepted"}))
            await self.websocket.close()

    monkeypatch.setattr(media, "CallSession", FakeSession)
    call_id = await _ringing_call(live)
    params = {"callId": call_id, "token": TOKEN, "sandboxSpeed": "50"}
    async with websockets.connect(live.engine.media_url, additional_headers=_signed(live)) as ws:
        await ws.send(json.dumps({"event": "start", "start": {"customParameters": params}}))
        assert json.loads(await asyncio.wait_for(ws.recv(), timeout=5)) == {"event": "accepted"}
    assert [s["call_id"] for s in seen] == [call_id]
    assert seen[0]["speed"] == TEST_SPEED, "the speed is the server's, never the client's"
    assert await _stream(live, _signed(live), params) == 1008, "a second connection is refused"
    assert len(seen) == 1


async def _answered(live: Live, call_id: str) -> Call:
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:
        async for session in live.app.state.db.session():
            call = await calls.get(session, call_id)
            if call is not None and call.answered_at is not None and call.carrier_call_id:
                return call
        await asyncio.sleep(0.1)
    raise AssertionError("the call was never answered")


async def _talking(live: Live, call_id: str) -> None:
    """Wait for the call's first transcript line: its real stream has taken its secret."""
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:
        async for session in live.app.state.db.session():
            if await calls.transcript(session, call_id):
                return
        await asyncio.sleep(0.1)
    raise AssertionError("the call's stream never started")


async def test_a_live_calls_stream_cannot_be_joined(live: Live) -> None:
    call_id = await live.place("+15551230000")
    call = await _answered(live, call_id)
    carrier_call_id = call.carrier_call_id
    assert carrier_call_id is not None
    # Answered is the carrier's word; the stream connects just after. Replayed before it, the
    # secret would be taken first (and the real stream refused): wait until it is talking.
    await _talking(live, call_id)
    # The secret the carrier was given, replayed by someone who also has a valid signature.
    _, params = _stream_of(live.app.state.sandbox.calls[carrier_call_id].twiml)
    assert params["token"]
    assert await _stream(live, _signed(live), params) == 1008
    done = await live.wait_finalized(call_id)
    assert done.status == "completed", "the real stream goes on undisturbed"


@pytest.fixture(autouse=True)
async def _quiet_jobs(live: Live) -> AsyncIterator[None]:
    yield
    await live.app.state.jobs.drain()
