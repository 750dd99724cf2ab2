"""Whole sandbox calls, sped up: the production path (carrier REST, signed webhooks, Media
Streams, the Pipecat pipeline, recording) against the simulated callees of docs/sandbox.md."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace

import numpy as np
import pytest
from sqlalchemy import select

from callwright.calls import repository as calls
from callwright.calls.events import CLOSING, CONNECTED
from callwright.calls.media_hooks import OPTED_OUT
from callwright.compliance.do_not_call import OnDoNotCallList
from callwright.models.compliance import DoNotCall
from callwright.realtime.events import TURN_LATENCY
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.policy import OPT_OUT_REPLY
from tests.factories import add_user
from tests.live import TEST_SPEED, Live, decode_mp3

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _lines(live: Live, call_id: str) -> list[tuple[str, str]]:
    async for session in live.app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


async def test_a_whole_conversation(live: Live) -> None:
    call_id = await live.place("+15551230000")  # digits sum to 22: the "busy now, call back" person
    call = await live.wait_finalized(call_id)
    assert call.status == "completed"
    assert (call.end_reason, call.answered_by) == ("completed", "human"), "the agent closed it"
    assert call.answered_at is not None
    assert call.ended_at is not None

    lines = await _lines(live, call_id)
    speakers = [s for s, _ in lines]
    assert speakers[0] == "assistant", lines
    assert speakers.count("assistant") >= 2
    assert speakers.count("user") >= 2
    assert "Bright Dental" in lines[0][1]
    heard = " ".join(t.lower() for s, t in lines if s == "user")
    assert "call me back" in heard, "the callee's words come through the real STT"
    assert "goodbye" in lines[-1][1].lower()

    # Events: connected first, one per transcript line, then duration and closing, in order.
    messages = [e["message"] for e in live.events_for(call_id) if e["category"] == "call"]
    assert messages[0] == CONNECTED
    assert messages[-2] == f"Call duration & price: {call.duration_seconds}s"
    assert messages[-1] == CLOSING
    closing = live.events_for(call_id)[-1]
    assert closing["completed"] is True
    assert (closing["outcome"], closing["answeredBy"]) == ("completed", "human")
    assert closing["outcomeText"] == "The call has completed"
    assert len([m for m in messages if m.startswith(("Assistant: ", "User: "))]) == len(lines)
    assert live.events_for(call_id, room="user:999") == [], "nobody else's room"

    # The recording: stereo MP3, as long as the call, agent left and callee right both audible.
    assert call.recording_path
    mp3 = (live.calls.media.recordings / call.recording_path).read_bytes()
    samples, rate = decode_mp3(mp3)
    assert samples.shape[1] == 2
    seconds = len(samples) / rate
    assert call.duration_seconds is not None
    assert abs(seconds - call.duration_seconds) <= 2.5, (seconds, call.duration_seconds)
    bitrate = len(mp3) * 8 / seconds / 1000
    assert 24 <= bitrate <= 40, bitrate
    agent, callee = samples[:, 0].astype(np.float64), samples[:, 1].astype(np.float64)
    assert np.sqrt(np.mean(agent**2)) > 300, "the agent's voice is on the left"
    assert np.sqrt(np.mean(callee**2)) > 100, "the callee's voice is on the right"

    # What the callee heard: the agent's goodbye was played to the end before the hang-up.
    sandbox = await live.sandbox_call(call)
    report = sandbox.report
    assert report is not None
    assert report.hung_up_by == "agent"
    assert report.marks_echoed >= 1
    assert report.latencies, "latency measured as the callee hears it"
    # Measured, not judged: how fast it is depends on the machine (Whisper's time is real time
    # while the call clock runs at TEST_SPEED), and benchmarks/voice_latency.py holds the target.
    # A reply is heard after the callee stops and within the call.
    assert all(0.2 < x < call.duration_seconds for x in report.latencies), report.latencies

    async for session in live.app.state.db.session():
        stored = await calls.latencies(session, call_id)
    assert len(stored) >= 2
    went_live = [
        d["turn"]
        for room, event, d in live.published
        if room == "admin" and event == TURN_LATENCY and d["callId"] == call_id
    ]
    assert went_live == [row.turn for row in stored], "each reply's latency went live"

    # Live captions: every kept line was shown while it was spoken, under the line's key; the
    # agent's words one by one, its last caption being the line itself.
    captions = live.captions_for(call_id)
    finals = [e for e in live.events_for(call_id) if e.get("final")]
    assert [(e["speaker"], e["text"]) for e in sorted(finals, key=lambda e: e["at"])] == lines
    for final in finals:
        shown = [c["text"] for _, c in captions if c["key"] == final["key"]]
        assert shown, f"{final['key']} was never shown in flight"
        if final["speaker"] == "assistant":
            assert len(shown) >= 2, shown
            assert all(b.startswith(a) for a, b in itertools.pairwise(shown)), shown
            assert final["text"].startswith(shown[-1]), (shown[-1], final["text"])
    # The greeting is shown as the callee starts to hear it, not when it has been said (it
    # lasts several seconds): the first caption and the first heard audio are close in time.
    heard_at = (
        report.started_at
        + next(s.start for s in report.segments if s.speaker == "agent") / TEST_SPEED
    )
    shown_at = next(at for at, c in captions if c["key"] == "a1")
    assert -0.5 < shown_at - heard_at < 1.0, shown_at - heard_at


@pytest.mark.parametrize(
    ("number", "status", "words"),
    [
        ("+15005550001", "no-answer", "No answer"),
        ("+15005550002", "busy", "The line was busy"),
        ("+15005550003", "failed", "The call failed: the carrier could not connect it"),
    ],
)
async def test_calls_that_never_connect(live: Live, number: str, status: str, words: str) -> None:
    call_id = await live.place(number)
    call = await live.wait_finalized(call_id, within=30)
    assert call.status == status
    assert (call.end_reason, call.answered_by) == (status, None)
    assert live.events_for(call_id)[-1]["outcomeText"] == words
    assert call.answered_at is None
    assert call.recording_path is None
    assert call.duration_seconds == 0
    messages = [e["message"] for e in live.events_for(call_id)]
    assert CONNECTED not in messages
    assert messages[-1] == CLOSING


async def test_voicemail_gets_a_short_message(live: Live) -> None:
    call_id = await live.place("+15005550004")
    call = await live.wait_finalized(call_id)
    assert call.status == "completed"
    assert (call.end_reason, call.answered_by) == ("voicemail", "voicemail")
    # The greeting stays the callee's line, marked as the voicemail's on the live socket.
    greeting = [e for e in live.events_for(call_id) if e.get("speaker") == "user"]
    assert greeting
    assert all(e["answeredBy"] == "voicemail" for e in greeting)
    assert live.events_for(call_id)[-1]["outcomeText"] == "Voicemail reached"
    lines = await _lines(live, call_id)
    user = " ".join(t.lower() for s, t in lines if s == "user")
    assert "message" in user or "reached" in user
    last = [t for s, t in lines if s == "assistant"][-1]
    assert "call us back" in last.lower()
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "agent"


async def test_callee_hangs_up(live: Live) -> None:
    call_id = await live.place("+15005550005")
    call = await live.wait_finalized(call_id)
    assert call.status == "completed"
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "callee"
    assert (call.end_reason, call.answered_by) == ("callee-hung-up", "human")
    assert live.events_for(call_id)[-1]["outcomeText"] == "The callee hung up"
    assert call.recording_path


async def test_wait_for_greeting_lets_the_callee_speak_first(live: Live) -> None:
    call_id = await live.place(
        "+15551230001", wait_for_greeting=True
    )  # digits sum to 23: wrong person
    call = await live.wait_finalized(call_id)
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    first = sandbox.report.segments[0]
    assert first.speaker == "callee"
    assert first.text == "Hello?"
    lines = await _lines(live, call_id)
    assert lines[0][0] == "user"
    assert any("wrong number" in t.lower() for s, t in lines if s == "user"), lines


async def test_barge_in_stops_the_agent(live: Live) -> None:
    call_id = await live.place("+15005550006", interruption_threshold=100)
    call = await live.wait_finalized(call_id)
    sandbox = await live.sandbox_call(call)
    report = sandbox.report
    assert report is not None
    assert report.clears >= 1, "the agent told the carrier to drop its queued audio"
    assert report.yield_delays, "the callee talked over the agent"
    assert report.yield_delays[0] < 1.5, "the agent stopped talking soon after"


async def test_max_duration_ends_with_a_goodbye(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim = live.calls.media.claim

    async def short(call_id: str, token: str, leg: str = "agent") -> CallPlan | None:
        plan = await claim(call_id, token, leg)  # one "minute" of max duration lasts 5 s here
        return replace(plan, max_duration_seconds=5) if plan else None

    monkeypatch.setattr(live.calls.media, "claim", short)
    call_id = await live.place("+15005550007", max_duration=1)  # the silent callee
    call = await live.wait_finalized(call_id)
    lines = await _lines(live, call_id)
    assert "time limit" in lines[-1][1]
    assert (call.end_reason, call.answered_by) == ("time-limit", "unknown"), "never heard"
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "agent"
    assert call.duration_seconds is not None
    assert call.duration_seconds < 30


async def test_a_call_the_user_stops_says_stopped(live: Live) -> None:
    """Stopped mid-conversation: the carrier reports a completed call and the media ends as if
    the callee hung up, yet it ends as the user's stop (and is billed from answer to stop)."""
    call_id = await live.place("+15551230000")
    for _ in range(200):
        if any(e["message"] == CONNECTED for e in live.events_for(call_id)):
            break
        await asyncio.sleep(0.1)
    async for session in live.app.state.db.session():
        call = await calls.get(session, call_id)
        assert call is not None
        assert await live.engine.stop(session, call)
    call = await live.wait_finalized(call_id)
    assert call.status == "completed"
    assert call.end_reason == "stopped"
    assert call.answered_at is not None
    assert live.events_for(call_id)[-1]["outcomeText"] == "You stopped the call"
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "agent", "hung up from our side"


async def test_a_callee_who_opts_out_is_listed_with_the_evidence(live: Live) -> None:
    user = await add_user(live.app, email="optout@example.com", balance_cents=10_000)
    call_id = await live.place("+15005550008", user_id=user.id)
    call = await live.wait_finalized(call_id)
    assert (call.status, call.end_reason, call.answered_by) == ("completed", "completed", "human")
    lines = await _lines(live, call_id)
    said = [t for s, t in lines if s == "user"]
    asked = next(t for t in said if "stop calling" in t.lower())
    assert [t for s, t in lines if s == "assistant"][-1] == OPT_OUT_REPLY
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "agent"
    async with live.app.state.db.sessionmaker() as session:
        entry = await session.scalar(
            select(DoNotCall).where(DoNotCall.phone == "+15005550008", DoNotCall.user_id == user.id)
        )
    assert entry is not None
    assert (entry.user_id, entry.source, entry.call_id, entry.evidence) == (
        user.id,
        "opt-out",
        call_id,
        asked,
    )
    messages = [e.get("message") for e in live.events_for(call_id)]
    assert OPTED_OUT in messages
    # Listed now: the next call to the number is refused before it is placed.
    with pytest.raises(OnDoNotCallList):
        await live.place("+15005550008", user_id=user.id)
