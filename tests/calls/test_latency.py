"""Per-reply latency: stored and published live (`turn-latency`) by the media hooks, read back by
`GET call/{id}/latency` and the call details, for the owner and admins only."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from callwright.calls.events import CallEvents
from callwright.realtime.events import TURN_LATENCY, LiveEvent, wire
from callwright.realtime.server import ADMIN_ROOM, user_room, visitor_room
from callwright.voice_agent.contract import TurnTiming
from tests.calls.test_calls_api import add_call
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

FIRST = TurnTiming(turn=1, end_of_speech_ms=300, stt_ms=420, llm_ms=12, tts_ms=180, total_ms=910)
SECOND = TurnTiming(turn=2, end_of_speech_ms=300, stt_ms=None, llm_ms=15, tts_ms=200, total_ms=None)


async def _report(app: FastAPI, call_id: str, *timings: TurnTiming) -> list[tuple[str, str, Any]]:
    published: list[tuple[str, str, Any]] = []

    async def publish(room: str, event: LiveEvent) -> None:
        published.append((room, *wire(event)))

    hooks = app.state.calls.media.hooks(call_id)
    hooks.events = CallEvents(publish)
    for timing in timings:
        await hooks.latency(timing)
    return published


async def test_each_reply_is_stored_and_published_to_the_owner_and_admins(app: FastAPI) -> None:
    client, user = await signed_in(app, "lat@example.com")
    call = await add_call(app, user.id, status="in-progress")
    published = await _report(app, call.id, FIRST, SECOND)
    first = {
        "callId": call.id,
        "turn": 1,
        "end_of_speech_ms": 300,
        "stt_ms": 420,
        "llm_ms": 12,
        "tts_ms": 180,
        "total_ms": 910,
    }
    second = first | {"turn": 2, "stt_ms": None, "llm_ms": 15, "tts_ms": 200, "total_ms": None}
    assert published == [
        (ADMIN_ROOM, TURN_LATENCY, first),
        (user_room(user.id), TURN_LATENCY, first),
        (ADMIN_ROOM, TURN_LATENCY, second),
        (user_room(user.id), TURN_LATENCY, second),
    ]
    async with client:
        stored = (await client.api("GET", f"call/{call.id}/latency")).json()
        details = (await client.api("GET", f"call-details/{call.id}")).json()["data"]
    rows = [
        {k: v for k, v in first.items() if k != "callId"},
        {k: v for k, v in second.items() if k != "callId"},
    ]
    assert stored == {"success": True, "data": rows}
    assert details["latencies"] == rows


async def test_a_call_without_replies_has_no_latency(app: FastAPI) -> None:
    client, user = await signed_in(app, "quiet@example.com")
    call = await add_call(app, user.id)
    async with client:
        assert (await client.api("GET", f"call/{call.id}/latency")).json()["data"] == []
        assert (await client.api("GET", f"call-details/{call.id}")).json()["data"][
            "latencies"
        ] == []


async def test_a_test_call_without_an_owner_goes_to_the_admins_and_its_visitor(
    app: FastAPI,
) -> None:
    call = await add_call(app, None, kind="test")
    published = await _report(app, call.id, FIRST)
    assert [(room, event) for room, event, _ in published] == [
        (ADMIN_ROOM, TURN_LATENCY),
        (visitor_room(call.id), TURN_LATENCY),
    ]


async def test_another_users_latency_is_out_of_reach(app: FastAPI) -> None:
    owner_client, owner = await signed_in(app, "lat-owner@example.com")
    intruder_client, _ = await signed_in(app, "lat-intruder@example.com")
    admin_client, _ = await signed_in(app, "lat-admin@example.com", role="admin")
    call = await add_call(app, owner.id)
    await _report(app, call.id, FIRST)
    async with owner_client, intruder_client, admin_client:
        refused = await intruder_client.api("GET", f"call/{call.id}/latency")
        assert refused.status_code == 404
        assert "910" not in refused.text
        seen = await admin_client.api("GET", f"call/{call.id}/latency")
        assert [row["total_ms"] for row in seen.json()["data"]] == [910]
