"""Whole sandbox transfers (docs/actions.md, "Transfer"): the callee +15005550010 asks for a
person; the offline brain says its line and the carrier moves the call to the target (cold or
warm), whose person talks with the callee while our listening stream records and transcribes
them; a busy or unanswered target brings the agent back, which tells the callee and goes on."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from bland.client import BlandAI

from callwright.calls import repository as calls
from callwright.models import Call
from callwright.public_api.serialize import call_ended_by
from callwright.voice_agent.policy import CONNECTING
from callwright.voice_agent.transfer import back_line
from tests.factories import add_api_key, add_user
from tests.live import PROMPT, Live, decode_mp3

pytestmark = pytest.mark.asyncio(loop_scope="session")

WANTS_A_PERSON = "+15005550010"
JORDAN = "+15005550011"
BUSY = "+15005550012"
NO_ANSWER = "+15005550013"


async def _lines(live: Live, call_id: str) -> list[tuple[str, str]]:
    async for session in live.app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


def _actions(live: Live, call_id: str) -> list[tuple[str, dict[str, object]]]:
    return [
        (e["message"], e["action"]) for e in live.events_for(call_id) if e["category"] == "action"
    ]


def _loud(channel: np.ndarray, rate: int, start: float, end: float) -> float:
    """The share of 20 ms frames with speech-like energy between `start` and `end` seconds."""
    part = channel[int(start * rate) : int(end * rate)].astype(np.float64)
    frames = part[: len(part) // (rate // 50) * (rate // 50)].reshape(-1, rate // 50)
    return float(np.mean(np.sqrt(np.mean(frames**2, axis=1)) > 500)) if len(frames) else 0.0


async def _transferred(live: Live, call_id: str) -> tuple[Call, list[tuple[str, str]]]:
    call = await live.wait_finalized(call_id, within=180)
    lines = await _lines(live, call_id)
    assert (call.end_reason, call.transfer_status) == ("transferred", "completed"), lines
    assert call.transferred_to == JORDAN
    assert call.transferred_at is not None
    said = " ".join(t.lower() for s, t in lines if s == "assistant")
    assert CONNECTING.lower() in said, "the agent says its line before the transfer"
    person = " ".join(t.lower() for s, t in lines if s == "person")
    assert "jordan" in person, lines
    assert "order" in person, lines
    assert any(s == "user" and "order" in t.lower() for s, t in lines), "the callee, after"
    assert call.pre_transfer_duration
    assert call.post_transfer_duration
    assert call.pre_transfer_duration + call.post_transfer_duration == call.duration_seconds
    actions = _actions(live, call_id)
    assert [a["status"] for _, a in actions] == ["started", "succeeded"], actions
    assert actions[1][1]["result"]["dial_call_status"] == "completed"  # type: ignore[index]
    return call, lines


async def test_a_cold_transfer_through_blands_sdk_is_recorded_and_billed(live: Live) -> None:
    """`/v1/calls` with Bland's `transfer_list` (its SDK): the callee reaches the person; the
    recording holds the three voices, the bill and `/v1` details both parts."""
    user = await add_user(live.app, email="transfers@example.com", balance_cents=10_000)
    sdk = BlandAI(api_key=await add_api_key(live.app, user), base_url=live.url, timeout=30)
    sent = await asyncio.to_thread(
        sdk.call,
        phone_number=WANTS_A_PERSON,
        task=PROMPT,
        temperature=None,
        tools=None,
        interruption_threshold=None,
        max_duration=2,
        transfer_list={"default": JORDAN, "billing": BUSY},
    )
    assert sent.call_id is not None
    call, _ = await _transferred(live, sent.call_id)
    sandbox = await live.sandbox_call(call)
    assert [leg.whisper for leg in sandbox.legs] == [[]], "a cold transfer has no whisper"
    # The recording: the agent, then the person on the left (our side of the line); the callee
    # on the right all along.
    assert call.recording_path
    assert call.duration_seconds is not None
    assert call.pre_transfer_duration is not None
    assert call.post_transfer_duration is not None
    samples, rate = decode_mp3((live.calls.media.recordings / call.recording_path).read_bytes())
    seconds = len(samples) / rate
    assert abs(seconds - call.duration_seconds) < 6, (seconds, call.duration_seconds)
    split = call.pre_transfer_duration
    assert _loud(samples[:, 0], rate, 0, split) > 0.2, "the agent"
    assert _loud(samples[:, 0], rate, split + 2, seconds) > 0.2, "the person"
    assert _loud(samples[:, 1], rate, split + 2, seconds) > 0.1, "the callee with the person"
    # The bill: the whole call at the one rate, its two parts said.
    async for session in live.app.state.db.session():
        ledger = await calls.ledger_for_call(session, call.id)
    charge = next(e for e in ledger if e.kind == "charge")
    assert f"({call.pre_transfer_duration} s agent + {call.post_transfer_duration} s" in (
        charge.note or ""
    )
    minutes = -(-(call.duration_seconds - 1) // 60)
    assert charge.amount_cents == -min(minutes * 49, call.hold_cents)
    details = (await asyncio.to_thread(sdk.calls.details, call.id)).dict()
    assert details["outcome"] == "transferred"
    assert details["call_ended_by"] == "PERSON", "Jordan hangs up after his last line"
    assert details["transferred_to"] == JORDAN
    assert (details["pre_transfer_duration"], details["post_transfer_duration"]) == (
        call.pre_transfer_duration,
        call.post_transfer_duration,
    )
    assert "person" in [line["user"] for line in details["transcripts"]]


async def test_a_warm_transfer_whispers_the_summary_first(live: Live) -> None:
    """The person hears the summary first; the recording is the whole call, in call order:
    its length is the call's, and the agent, the callee and the person are each heard in it
    (transcribed by the app's own transcriber) where they spoke."""
    call_id = await live.place(WANTS_A_PERSON, transfer_number=JORDAN, transfer_mode="warm")
    call, _ = await _transferred(live, call_id)
    sandbox = await live.sandbox_call(call)
    (whisper,) = [leg.whisper for leg in sandbox.legs]
    assert whisper == [call.transfer_summary]
    assert "asked to speak to a person" in whisper[0]
    assert (call.transfer_ended_by, call_ended_by(call)) == ("person", "PERSON")
    assert call.recording_path
    assert call.duration_seconds is not None
    assert call.pre_transfer_duration is not None
    samples, rate = decode_mp3((live.calls.media.recordings / call.recording_path).read_bytes())
    seconds = len(samples) / rate
    assert abs(seconds - call.duration_seconds) < 6, (seconds, call.duration_seconds)
    split = call.pre_transfer_duration
    heard = await _heard(live, samples, rate, split)
    assert "sarah" in heard["agent"], heard
    assert "speak to" in heard["callee, before"], heard
    assert "jordan" in heard["person"], heard
    assert "order" in heard["callee, after"], heard


async def _heard(live: Live, samples: np.ndarray, rate: int, split: int) -> dict[str, str]:
    """What the app's transcriber hears on each side of the recording, before the transfer
    (`split` seconds in) and after it: left, the agent then the person; right, the callee."""
    transcriber = live.app.state.voice_engines.transcriber
    at = split * rate
    parts = {
        "agent": samples[:at, 0],
        "callee, before": samples[:at, 1],
        "person": samples[at:, 0],
        "callee, after": samples[at:, 1],
    }
    heard: dict[str, str] = {}
    for name, part in parts.items():
        text = await asyncio.to_thread(transcriber.transcribe, np.ascontiguousarray(part), rate)
        heard[name] = text.lower()
    return heard


@pytest.mark.parametrize("target", [BUSY, NO_ANSWER])
async def test_a_transfer_that_fails_brings_the_agent_back(live: Live, target: str) -> None:
    call_id = await live.place(WANTS_A_PERSON, transfer_number=target)
    call = await live.wait_finalized(call_id, within=180)
    lines = await _lines(live, call_id)
    status = "busy" if target == BUSY else "no-answer"
    assert call.transfer_status == status
    assert call.end_reason in ("completed", "callee-hung-up"), lines
    assert call.post_transfer_duration is None
    said = [t for s, t in lines if s == "assistant"]
    back = [i for i, t in enumerate(said) if back_line(status).split(",")[0] in t]
    assert back, f"the agent tells the callee: {lines} {_actions(live, call_id)}"
    assert not any(s == "person" for s, _ in lines), lines
    # The agent, back, hears the callee carry on (the persona's `resumed` lines: how many of
    # their words each turn holds depends on where the agent's turn-taking cut them).
    came_back = next(i for i, (s, t) in enumerate(lines) if s == "assistant" and t == said[back[0]])
    heard = " ".join(t.lower() for s, t in lines[came_back + 1 :] if s == "user")
    assert any(w in heard for w in ("okay", "yourself", "thanks", "goodbye")), lines
    actions = _actions(live, call_id)
    assert [a["status"] for _, a in actions] == ["started", "failed"], actions
    assert actions[1][1]["result"]["dial_call_status"] == status  # type: ignore[index]
    assert call.recording_path
