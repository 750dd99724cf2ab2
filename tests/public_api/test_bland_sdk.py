"""Bland's own published Python SDK (`bland` 0.3.0, Fern-generated), pointed at Callwright on
loopback by its `base_url`: it places a sandbox call that runs to its end, lists it, reads its
details and recording, stops another call, and analyses the first. The SDK's client is
synchronous (httpx.Client), so its calls run in a thread while the live server runs here."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
from bland.client import BlandAI
from bland.core.api_error import ApiError
from sqlalchemy import select

from callwright.models import WebhookDelivery
from tests.factories import add_api_key, add_user
from tests.live import PROMPT, Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A talking sandbox person (docs/sandbox.md: the digits pick the scenario).
PERSON = "+15551230000"
#: Rings for 8 s (4 s at the tests' speed) and nobody answers: there is time to stop it.
RINGS_OUT = "+15005550001"


async def _sdk(live: Live) -> tuple[BlandAI, str, int]:
    user = await add_user(
        live.app, email=f"sdk-{uuid.uuid4().hex[:8]}@example.com", balance_cents=5_000
    )
    key = await add_api_key(live.app, user)
    return BlandAI(api_key=key, base_url=live.url, timeout=30), key, user.id


async def run(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(fn, *args, **kwargs)


async def test_the_bland_sdk_runs_a_call_to_its_end_and_reads_it(live: Live) -> None:
    sdk, key, _ = await _sdk(live)
    sent = await run(
        sdk.call,
        phone_number=PERSON,
        task=PROMPT + " The customer's name is {{name}}.",
        temperature=None,
        tools=None,
        interruption_threshold=None,
        voice_id=1,
        max_duration=2,
        wait_for_greeting=False,
        voicemail_action="hangup",
        webhook=f"{live.url}/hooks/sdk-test",
        request_data={"name": "Alex"},
        answered_by_enabled=True,  # answered_by is null without it, as Bland's
    )
    assert (sent.status, sent.message) == ("success", "Call successfully queued.")
    call = await live.wait_finalized(sent.call_id)
    assert call.status == "completed"

    listed = await run(sdk.calls.list, to_number=PERSON, limit=5)
    assert listed.count >= 1
    mine = next(c for c in listed.calls if c.call_id == sent.call_id)
    assert (mine.to, mine.completed, mine.queue_status) == (PERSON, True, "complete")
    assert mine.answered_by == "human"
    assert mine.call_length > 0

    details = await run(sdk.calls.details, sent.call_id)
    assert details.completed is True
    assert details.queue_status == "complete"
    assert details.answered_by == "human"
    assert details.transcripts, "a transcript was kept"
    assert details.transcripts[0].user == "assistant"
    assert "Bright Dental" in details.concatenated_transcript
    assert details.request_data == {"name": "Alex"}
    assert details.call_length > 0
    assert details.corrected_duration > 0
    extra: dict[str, Any] = details.dict()
    assert extra["status"] == "completed"
    assert extra["call_ended_by"] in ("ASSISTANT", "USER")
    assert extra["price"] > 0
    assert extra["recording_url"] == f"{live.url}/v1/recordings/{sent.call_id}"

    recording = await run(sdk.calls.recording, sent.call_id)
    assert recording.status == "success"
    assert recording.url == extra["recording_url"]
    async with httpx.AsyncClient(headers={"authorization": key}, timeout=30) as client:
        wav = await client.get(recording.url)
        mp3 = await client.get(recording.url, headers={"accept": "audio/mpeg"})
    assert wav.status_code == 200
    assert wav.content[:4] == b"RIFF"
    assert mp3.status_code == 200
    assert mp3.headers["content-type"] == "audio/mpeg"
    assert len(wav.content) > len(mp3.content) > 1000

    voices = await run(sdk.voices.list)
    assert voices.voices[0].voice_id == 1

    # The call's own webhook, as Bland sends it: the call object, once, at the end (after
    # the analysis, so its summary is in it), signed with X-Webhook-Signature.
    await live.app.state.jobs.drain()  # the post-call analysis, sent after the end's commit
    async with live.app.state.db.sessionmaker() as session:
        rows = (
            await session.scalars(
                select(WebhookDelivery).where(WebhookDelivery.call_id == sent.call_id)
            )
        ).all()
    assert [(r.event, r.url) for r in rows] == [("call.ended", f"{live.url}/hooks/sdk-test")]
    assert bland_receiver(json.loads(rows[0].payload)) == {
        "call_id": sent.call_id,
        "status": "completed",
        "transcripts": len(details.transcripts),
        "concatenated_transcript": details.concatenated_transcript,
        "summary": True,
        "recording_url": recording.url,
    }
    ended = json.loads(rows[0].payload)
    assert (ended["price"], ended["call_length"]) == (extra["price"], details.call_length)
    assert ended["request_data"] == {"name": "Alex"}
    assert ended["variables"]["name"] == "Alex"


def bland_receiver(payload: dict[str, Any]) -> dict[str, Any]:
    """What a receiver written for Bland's post-call webhook reads (Bland's docs' example)."""
    return {
        "call_id": payload["call_id"],
        "status": payload["status"],
        "transcripts": len(payload["transcripts"]),
        "concatenated_transcript": payload["concatenated_transcript"],
        "summary": bool(payload["summary"]),
        "recording_url": payload["recording_url"],
    }


async def test_the_bland_sdk_stops_a_ringing_call_and_sees_errors(live: Live) -> None:
    sdk, _, _ = await _sdk(live)
    sent = await run(
        sdk.call,
        phone_number=RINGS_OUT,
        task=PROMPT,
        temperature=0.5,
        tools=None,
        interruption_threshold=None,
    )
    await asyncio.sleep(0.5)
    stopped = await run(sdk.calls.stop, sent.call_id)
    assert (stopped.status, stopped.message) == ("success", "Call ended successfully.")
    call = await live.wait_finalized(sent.call_id, within=30)
    assert call.end_reason == "stopped"
    assert call.answered_at is None

    with pytest.raises(ApiError) as bad:
        await run(
            sdk.call,
            phone_number="+12",
            task=PROMPT,
            temperature=None,
            tools=None,
            interruption_threshold=None,
        )
    assert bad.value.status_code == 400
    assert bad.value.body["status"] == "error"
    assert bad.value.body["message"] == "Invalid phone number."
    with pytest.raises(ApiError) as unknown:
        await run(sdk.calls.details, str(uuid.uuid4()))
    assert unknown.value.status_code == 404
    with pytest.raises(ApiError) as unauthorized:
        await run(BlandAI(api_key="cw_wrong", base_url=live.url).calls.list)
    assert unauthorized.value.status_code == 401


async def test_the_bland_sdk_analyzes_a_finished_call(live: Live) -> None:
    sdk, _, _ = await _sdk(live)
    sent = await run(
        sdk.call,
        phone_number=PERSON,
        task=PROMPT,
        temperature=None,
        tools=None,
        interruption_threshold=None,
        max_duration=2,
    )
    await live.wait_finalized(sent.call_id)
    analysis = await run(
        sdk.calls.analyze,
        sent.call_id,
        goal="Remind the customer of their dental appointment.",
        questions=[["Did the customer pick up?", "boolean"], ["Who was calling?", "string"]],
    )
    assert analysis.status == "success"
    # One list per call analysed (the SDK's List[List[Any]]), one answer per question.
    assert len(analysis.answers) == 1
    picked_up, who = analysis.answers[0]
    assert picked_up is True
    assert who == "Sarah from Bright Dental"  # the agent introduced itself
