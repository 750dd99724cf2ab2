"""Transfers, our side of Twilio's protocol (docs/actions.md, "Transfer"): the exact REST call
update and TwiML the carrier sends, the signed result and whisper callbacks and what they
answer, the agent's request through the media hooks, the outcome and the two parts' seconds."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
from fastapi import FastAPI

from callwright.agents.transfers import target
from callwright.calls import repository as calls
from callwright.calls.transfers import DEFAULT_WHISPER, post_transfer_seconds
from callwright.kit.security import sha256_hex
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.public_api.serialize import call_ended_by
from callwright.telephony import signature
from callwright.telephony.base import CarrierError, StatusUpdate, StreamRequest, TransferRequest
from callwright.telephony.carriers.twilio import TwilioCarrier
from callwright.telephony.state import CallStatus
from tests.factories import ApiClient

pytestmark = pytest.mark.asyncio

SID = "CA" + "3" * 32
MEDIA = "wss://app.example.com/api/v1/media/twilio"
RESULT = "https://app.example.com/api/v1/webhooks/twilio/transfer/c1/result"
WHISPER = "https://app.example.com/api/v1/webhooks/twilio/transfer/c1/whisper"


def _request(whisper: str | None) -> TransferRequest:
    return TransferRequest(
        call_id="c1",
        to_number="+15005550011",
        caller_id="+18885550100",
        media_url=MEDIA,
        listen_token="tok&1",
        result_url=RESULT,
        whisper_url=whisper,
        timeout_seconds=20,
    )


@pytest.mark.parametrize("warm", [False, True])
async def test_the_carrier_updates_the_call_with_the_protocols_twiml(warm: bool) -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"sid": SID, "status": "in-progress"})

    carrier = TwilioCarrier(
        account_sid="AC1", auth_token="t", transport=httpx.MockTransport(handler)
    )
    await carrier.transfer(SID, _request(WHISPER if warm else None))
    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == f"https://api.twilio.com/2010-04-01/Accounts/AC1/Calls/{SID}.json"
    assert request.headers["authorization"] == "Basic QUMxOnQ="
    form = parse_qs(request.content.decode())
    assert list(form) == ["Twiml"]
    number = f'<Number url="{WHISPER}" method="POST">' if warm else "<Number>"
    assert form["Twiml"] == [
        '<?xml version="1.0" encoding="UTF-8"?><Response>'
        f'<Start><Stream name="listen" url="{MEDIA}" track="both_tracks">'
        '<Parameter name="callId" value="c1"/><Parameter name="token" value="tok&amp;1"/>'
        '<Parameter name="leg" value="listen"/></Stream></Start>'
        f'<Dial action="{RESULT}" method="POST" timeout="20" callerId="+18885550100">'
        f"{number}+15005550011</Number></Dial></Response>"
    ]


async def test_the_answers_to_a_transfers_callbacks() -> None:
    carrier = TwilioCarrier(account_sid="AC1", auth_token="t")
    assert carrier.after_transfer(None).body.endswith("<Response><Hangup/></Response>")
    resume = StreamRequest("c1", MEDIA, "new", "resume", {"transfer": "busy"})
    assert carrier.after_transfer(resume).body == (
        '<?xml version="1.0" encoding="UTF-8"?><Response><Connect>'
        f'<Stream url="{MEDIA}"><Parameter name="callId" value="c1"/>'
        '<Parameter name="token" value="new"/><Parameter name="leg" value="resume"/>'
        '<Parameter name="transfer" value="busy"/></Stream></Connect></Response>'
    )
    assert carrier.whisper("A <call> from Sam").body.endswith(
        "<Response><Say>A &lt;call&gt; from Sam</Say></Response>"
    )
    await carrier.close()


def test_the_target_is_the_department_asked_for_else_the_default() -> None:
    listed = {"default": "+15005550011", "Sales": "+15005550012"}
    assert target(None, listed, "sales") == ("Sales", "+15005550012")
    assert target("+15005550013", listed, "nobody") == ("default", "+15005550011")
    assert target("+15005550013", {"Sales": "+15005550012"}, None) == (
        "default",
        "+15005550013",
    )
    assert target(None, {"Sales": "+15005550012"}, None) == ("Sales", "+15005550012")
    assert target(None, None, "sales") is None


async def _live_call(app: FastAPI, **values: Any) -> str:
    fields: dict[str, Any] = {
        "carrier": app.state.calls.flows.carrier.name,
        "carrier_call_id": SID,
        "status": "in-progress",
        "answered_at": utcnow() - timedelta(seconds=10),
        "to_number": "+15005550010",
        "from_number": "+18885550100",
        "prompt": "You are Sam from Acme. You are calling to say hello.",
        "voice": "joe",
    }
    async with app.state.db.sessionmaker() as session:
        call = Call(**(fields | values))
        session.add(call)
        await session.commit()
        return call.id


async def _get(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call = await calls.get(session, call_id)
        assert call is not None
        return call


async def test_the_agent_asks_the_carrier_to_transfer(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[str, TransferRequest]] = []

    async def transfer(carrier_call_id: str, request: TransferRequest) -> None:
        asked.append((carrier_call_id, request))

    carrier = app.state.calls.flows.carrier
    monkeypatch.setattr(carrier, "transfer", transfer)
    call_id = await _live_call(
        app,
        transfer_list={"default": "+15005550011", "Billing": "+15005550012"},
        transfer_mode="warm",
    )
    started = await app.state.calls.media.hooks(call_id).transfer("billing", "Sam's callee.")
    assert (started.ok, started.to) == (True, "Billing")
    ((sid, request),) = asked
    base = f"{app.state.settings.app_url}/api/v1/webhooks/{carrier.name}/transfer/{call_id}"
    assert (sid, request.to_number, request.caller_id) == (SID, "+15005550012", "+18885550100")
    assert (request.result_url, request.whisper_url) == (f"{base}/result", f"{base}/whisper")
    call = await _get(app, call_id)
    assert (call.transferred_to, call.transfer_status) == ("+15005550012", "dialing")
    assert call.transfer_summary == "Sam's callee."
    assert call.listen_token_hash == sha256_hex(request.listen_token)
    assert call.pre_transfer_duration is not None
    assert call.pre_transfer_duration >= 10
    # Its action line says where it goes, and how.
    async with app.state.db.sessionmaker() as session:
        (line,) = await calls.events(session, call_id)
    assert (line.category, line.message) == ("action", "Transferring to Billing (+15005550012)")
    assert line.action is not None
    assert (line.action["status"], line.action["arguments"]) == (
        "started",
        {"to": "+15005550012", "department": "Billing", "mode": "warm", "summary": "Sam's callee."},
    )
    # One transfer at a time; the listening stream's secret is spent once.
    again = await app.state.calls.media.hooks(call_id).transfer(None, "")
    assert (again.ok, again.reason) == (False, "A transfer is already under way.")
    media = app.state.calls.media
    assert await media.claim(call_id, request.listen_token, "agent") is None
    plan = await media.claim(call_id, request.listen_token, "listen")
    assert plan is not None
    assert plan.leg == "listen"
    assert await media.claim(call_id, request.listen_token, "listen") is None


async def test_a_call_without_a_target_or_a_refusing_carrier_goes_on(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    call_id = await _live_call(app)
    started = await app.state.calls.media.hooks(call_id).transfer(None, "")
    assert (started.ok, started.reason) == (False, "This call has no transfer number.")

    async def refuse(carrier_call_id: str, request: TransferRequest) -> None:
        raise CarrierError("The number is not reachable.")

    monkeypatch.setattr(app.state.calls.flows.carrier, "transfer", refuse)
    other = await _live_call(app, carrier_call_id="CA" + "4" * 32, transfer_number="+15005550011")
    started = await app.state.calls.media.hooks(other).transfer(None, "")
    assert (started.ok, started.reason) == (False, "The number is not reachable.")
    assert (await _get(app, other)).transfer_status == "failed"


async def _callback(
    client: ApiClient,
    app: FastAPI,
    call_id: str,
    step: str,
    form: dict[str, str],
    sign: bool = True,
) -> httpx.Response:
    carrier = app.state.calls.flows.carrier
    url = f"{app.state.settings.app_url}/api/v1/webhooks/{carrier.name}/transfer/{call_id}/{step}"
    sig, body = signature.sign_form(carrier.auth_token, url, form)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": sig if sign else "x" + sig[1:],
    }
    return await client.post(
        url.replace(app.state.settings.app_url, ""), content=body, headers=headers
    )


async def test_a_busy_result_brings_the_agent_back_on_a_new_stream(
    app: FastAPI, client: ApiClient
) -> None:
    call_id = await _live_call(
        app,
        transferred_to="+15005550012",
        transfer_status="dialing",
        pre_transfer_duration=10,
        media_token_hash=None,
    )
    form = {"CallSid": SID, "DialCallStatus": "busy", "DialCallSid": "CA" + "5" * 32}
    assert (await _callback(client, app, call_id, "result", form, sign=False)).status_code == 403
    response = await _callback(client, app, call_id, "result", form)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    twiml = response.text
    assert '<Parameter name="leg" value="resume"/>' in twiml
    assert '<Parameter name="transfer" value="busy"/>' in twiml
    token = re.search(r'name="token" value="([^"]+)"', twiml)
    assert token is not None
    call = await _get(app, call_id)
    assert call.transfer_status == "busy"
    assert call.media_token_hash == sha256_hex(token.group(1))
    plan = await app.state.calls.media.claim(call_id, token.group(1), "resume")
    assert plan is not None
    assert (plan.leg, plan.transfer_result) == ("resume", "busy")
    async with app.state.db.sessionmaker() as session:
        events = [(e.category, e.message) for e in await calls.events(session, call_id)]
    assert events == [("action", "Transfer to +15005550012: the line was busy")]


@pytest.mark.parametrize(
    ("parent_status", "ended_by", "blands"),
    [("in-progress", "person", "PERSON"), ("completed", "callee", "USER")],
)
async def test_a_completed_result_hangs_up_and_the_call_ends_transferred(
    app: FastAPI, client: ApiClient, parent_status: str, ended_by: str, blands: str
) -> None:
    """The Dial action's CallStatus says who ended it: still in progress, the person left the
    callee (and the call hangs up); completed, the callee hung up first."""
    call_id = await _live_call(
        app,
        transferred_to="+15005550011",
        transfer_status="dialing",
        pre_transfer_duration=12,
        transfer_summary=None,
    )
    whisper = await _callback(client, app, call_id, "whisper", {"CallSid": "CA9", "To": "+1"})
    assert whisper.text.endswith(f"<Response><Say>{DEFAULT_WHISPER}</Say></Response>")
    form = {
        "CallSid": SID,
        "CallStatus": parent_status,
        "DialCallStatus": "completed",
        "DialCallDuration": "30",
    }
    response = await _callback(client, app, call_id, "result", form)
    assert response.text.endswith("<Response><Hangup/></Response>")
    flows = app.state.calls.flows
    await flows.on_status(StatusUpdate(SID, CallStatus.COMPLETED, duration_seconds=47))
    await app.state.calls.media.hooks(call_id, "listen").finished(None)
    call = await _get(app, call_id)
    assert call.finalized_at is not None
    assert (call.end_reason, call.transfer_status) == ("transferred", "completed")
    assert (call.pre_transfer_duration, call.post_transfer_duration) == (12, 35)
    assert post_transfer_seconds(call) == 35
    assert call.transfer_ended_by == ended_by
    assert call_ended_by(call) == blands
    async with app.state.db.sessionmaker() as session:
        (action,) = [e for e in await calls.events(session, call_id) if e.category == "action"]
    assert action.action is not None
    assert action.action["result"]["ended_by"] == ended_by
