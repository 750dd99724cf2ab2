"""The keypad over whole sandbox calls (docs/actions.md, "Keypad"): the agent's keys go out
as in-band DTMF tones that the sandbox's IVR hears (Goertzel), whether the offline brain chose
them from the menu's words or the call's precall_dtmf_sequence pressed them; the callee's keys
come back as Media Streams `dtmf` messages that the brain answers. Each is an action line."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from bland.core.api_error import ApiError

from callwright.agents.settings import DTMF_MESSAGE
from callwright.calls import repository as calls
from callwright.sandbox.keys import KeyDetector
from callwright.speech.audio import PHONE_RATE, resample
from tests.live import Live, decode_mp3
from tests.public_api.test_bland_sdk import _sdk, run

pytestmark = pytest.mark.asyncio(loop_scope="session")

IVR = "+15005550020"
CONFIRMS = "+15005550021"
#: An agent whose goal shares words with the IVR's "deliveries" and "late or missing delivery".
LATE_DELIVERY = (
    "You are Sarah from Bright Dental. You are calling Acme Supplies about a late delivery: "
    "order 4471 of dental supplies has not arrived. Ask when it will arrive."
)


async def _lines(live: Live, call_id: str) -> list[tuple[str, str]]:
    async for session in live.app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


def _actions(live: Live, call_id: str) -> list[dict[str, Any]]:
    return [e["action"] for e in live.events_for(call_id) if e["category"] == "action"]


async def test_the_offline_brain_gets_through_the_ivr_to_the_person(live: Live) -> None:
    call_id = await live.place(IVR, prompt=LATE_DELIVERY, wait_for_greeting=True)
    call = await live.wait_finalized(call_id)
    sandbox = await live.sandbox_call(call)
    report = sandbox.report
    assert report is not None
    lines = await _lines(live, call_id)
    assert report.keys_heard == ["3", "1"], (report.keys_heard, lines)
    assert report.reached == "Jordan"
    actions = _actions(live, call_id)
    assert [(a["name"], a["summary"]) for a in actions] == [
        ("press_digits", "Pressed 3"),
        ("press_digits", "Pressed 1"),
    ]
    assert all(a["kind"] == "keypad" and a["status"] == "succeeded" for a in actions)
    heard = " ".join(t.lower() for s, t in lines if s == "user")
    assert "jordan" in heard, lines
    said = [t for s, t in lines if s == "assistant"]
    assert said, "the agent talks once a person answers"
    assert "Bright Dental" in said[0], "its first words are to the person, not to the menu"
    assert call.status == "completed"
    # The recording holds the tones as the callee heard them, on the agent's side (left).
    assert call.recording_path
    samples, rate = decode_mp3((live.calls.media.recordings / call.recording_path).read_bytes())
    agent = resample(np.ascontiguousarray(samples[:, 0]), rate, PHONE_RATE)
    detector = KeyDetector()
    for i in range(0, len(agent) - 159, 160):
        detector.feed(agent[i : i + 160])
    assert detector.heard == ["3", "1"]


async def test_bland_sdk_precall_sequence_is_pressed_when_answered(live: Live) -> None:
    """`/v1/calls`' precall_dtmf_sequence, sent as a Bland SDK user sends a field its SDK
    lacks (`additional_body_parameters`); the goal matches none of the menu's words, so only
    the precall keys can get through."""
    sdk, _, _ = await _sdk(live)
    options: Any = {"additional_body_parameters": {"precall_dtmf_sequence": "3w1"}}
    sent = await run(
        sdk.call,
        phone_number=IVR,
        task="You are Sam from Bright Dental. You are calling to ask about an invoice.",
        tools=None,
        temperature=None,
        interruption_threshold=None,
        max_duration=2,
        wait_for_greeting=True,
        request_options=options,
    )
    call = await live.wait_finalized(sent.call_id)
    assert call.precall_dtmf_sequence == "3w1"
    sandbox = await live.sandbox_call(call)
    report = sandbox.report
    assert report is not None
    assert report.keys_heard[:2] == ["3", "1"], report.keys_heard
    assert report.reached == "Jordan"
    first = _actions(live, sent.call_id)[0]
    assert first == {
        "kind": "keypad",
        "name": "press_digits",
        "status": "succeeded",
        "summary": "Pressed 3 (pause) 1",
        "arguments": {"digits": "3w1", "precall": True},
        "result": None,
        "latency_ms": None,
    }
    bad: Any = {"additional_body_parameters": {"precall_dtmf_sequence": "12x"}}
    with pytest.raises(ApiError) as refused:
        await run(
            sdk.call,
            phone_number=IVR,
            task=LATE_DELIVERY,
            tools=None,
            temperature=None,
            interruption_threshold=None,
            request_options=bad,
        )
    assert refused.value.status_code == 400, "Bland's status for a refused field"
    assert DTMF_MESSAGE in json.dumps(refused.value.body), refused.value.body


async def test_the_callees_key_reaches_the_agent(live: Live) -> None:
    call_id = await live.place(
        CONFIRMS,
        prompt=(
            "You are Sarah from Bright Dental. You are calling to remind the customer about their "
            "cleaning appointment tomorrow at 3 pm. Ask them to press 1 to confirm the appointment."
        ),
    )
    call = await live.wait_finalized(call_id)
    sandbox = await live.sandbox_call(call)
    assert sandbox.report is not None
    assert sandbox.report.keys_pressed == ["1"]
    lines = await _lines(live, call_id)
    said = [t for s, t in lines if s == "assistant"]
    assert "press 1 on your keypad" in said[0], said
    assert "I got your 1" in said[1], said
    actions = [a for a in _actions(live, call_id) if a["name"] == "caller_pressed"]
    assert [(a["kind"], a["summary"], a["arguments"]) for a in actions] == [
        ("keypad", "The callee pressed 1", {"digit": "1"})
    ]
    assert (call.status, call.end_reason) == ("completed", "completed")
