"""Whole sandbox calls (sped up) whose own settings change what happens on the line: the first
sentence opens the call, and a voicemail set to hang up gets no message."""

from __future__ import annotations

import pytest

from callwright.calls import repository as calls
from callwright.compliance.disclosure import DEFAULT_DISCLOSURE
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIRST = "Good morning, this is Sarah from Bright Dental about your cleaning tomorrow."


async def _lines(live: Live, call_id: str) -> list[tuple[str, str]]:
    async for session in live.app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


async def test_the_first_sentence_opens_the_call(live: Live) -> None:
    call_id = await live.place("+15551230004", first_sentence=FIRST)  # not interested
    call = await live.wait_finalized(call_id)
    assert (call.end_reason, call.answered_by) == ("completed", "human")
    lines = await _lines(live, call_id)
    # The AI disclosure follows the first sentence (compliance: on by default).
    assert lines[0] == ("assistant", f"{FIRST} {DEFAULT_DISCLOSURE}"), lines
    assert any(s == "user" for s, _ in lines)
    assert "goodbye" in lines[-1][1].lower()


async def test_voicemail_set_to_hang_up_leaves_no_message(live: Live) -> None:
    call_id = await live.place(
        "+15005550004", voicemail_action="hangup", voicemail_message="Never said."
    )
    call = await live.wait_finalized(call_id)
    assert (call.end_reason, call.answered_by) == ("voicemail", "voicemail")
    sandbox = await live.sandbox_call(call)
    report = sandbox.report
    assert report is not None
    assert report.hung_up_by == "agent", "the agent hung up (the mailbox listens for 30 s)"
    greeting = next(s for s in report.segments if s.speaker == "callee")
    assert "leave a message" in greeting.text
    # The beep follows the greeting; after it the agent said nothing before it hung up.
    assert not [s for s in report.segments if s.speaker == "agent" and s.start >= greeting.end]
    lines = await _lines(live, call_id)
    assert lines, "the greeting was heard"
    assert lines[-1][0] == "user", lines
    assert all("never said" not in t.lower() for _, t in lines)
