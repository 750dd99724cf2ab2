"""Whole sandbox transfers (docs/actions.md, "Transfer"): the callee +15005550010 asks for a
person; the offline brain says its line and the carrier moves the call to the target (cold or
warm), whose person talks with the callee; busy and unanswered targets bring the agent back."""

from __future__ import annotations

import pytest

from callwright.calls import repository as calls
from callwright.voice_agent.policy import CONNECTING
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

WANTS_A_PERSON = "+15005550010"
JORDAN = "+15005550011"
BUSY = "+15005550012"


async def _lines(live: Live, call_id: str) -> list[tuple[str, str]]:
    async for session in live.app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


def _actions(live: Live, call_id: str) -> list[tuple[str, str]]:
    return [
        (e["action"]["status"], e["message"])
        for e in live.events_for(call_id)
        if e["category"] == "action"
    ]


async def test_a_cold_transfer_reaches_the_person(live: Live) -> None:
    call_id = await live.place(WANTS_A_PERSON, transfer_number=JORDAN)
    call = await live.wait_finalized(call_id, within=180)
    lines = await _lines(live, call_id)
    print(lines)
    print(_actions(live, call_id))
    sandbox = await live.sandbox_call(call)
    print(sandbox.legs, sandbox.forks, sandbox.errors)
    assert call.end_reason == "transferred", lines
    assert call.transferred_to == JORDAN
    assert (CONNECTING.lower() in " ".join(t.lower() for s, t in lines if s == "assistant"))
    assert any(s == "person" and "jordan" in t.lower() for s, t in lines), lines
    assert call.pre_transfer_duration and call.post_transfer_duration
    assert call.pre_transfer_duration + call.post_transfer_duration == call.duration_seconds
    assert [status for status, _ in _actions(live, call_id)] == ["started", "succeeded"]
