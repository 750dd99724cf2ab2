"""The offline brain (no LLM) in a whole sandbox call to the person who asks what only a tool
could answer (+1 500 555 0030): it says plainly it cannot look that up, offers a call back, and
the call goes on to its polite end."""

from __future__ import annotations

import pytest

from callwright.calls import repository as calls
from callwright.voice_agent.policy import LOOKUP_REPLY
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_offline_brain_says_it_cannot_look_things_up(live: Live) -> None:
    call_id = await live.place(
        "+15005550030",
        prompt="You are Nova from Acme Dental. You are calling about an appointment.",
    )
    call = await live.wait_finalized(call_id)
    assert call.status == "completed"
    async for session in live.app.state.db.session():
        lines = [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    heard = [t for s, t in lines if s == "user"]
    said = [t for s, t in lines if s == "assistant"]
    assert any("tuesday" in t.lower() for t in heard), lines
    answer = next(i for i, t in enumerate(said) if t.startswith(LOOKUP_REPLY))
    assert answer < len(said) - 1, "the call went on after it"
    assert "goodbye" in said[-1].lower()
