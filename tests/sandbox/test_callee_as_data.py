"""A callee written as data on a placed call (issue 32, docs/sandbox.md): the create form's
`CallwrightCallee` (the lab's `Callee` as JSON) is played instead of the persona the number
picks; a bad one is Twilio's 400 naming the field; only the sandbox carrier sends it."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from fastapi import FastAPI

from callwright.lab.contract import Callee
from callwright.sandbox.network import CALLEE_FIELD, SandboxNetwork, install_error_handler
from callwright.sandbox.numbers import Persona, persona_for, persona_of
from callwright.telephony.base import CarrierError, DialRequest
from callwright.telephony.carriers.twilio import TwilioCarrier

SECRET = "sandbox-callee-secret-0123456789abcdefgh"
#: A number whose own persona is a talking person (the plan's "busy now" scenario).
PERSON = "+15551230000"


def _app(network: SandboxNetwork) -> FastAPI:
    app = FastAPI()
    app.include_router(network.router)
    install_error_handler(app)
    return app


def _request(callee: dict[str, Any] | None) -> DialRequest:
    return DialRequest(
        call_id="call-1",
        to_number=PERSON,
        from_number="+15005550000",
        media_url="ws://127.0.0.1:9/media",
        status_callback_url="http://app.test/status",
        media_token="secret",
        callee=callee,
    )


def test_a_callee_as_data_becomes_the_persona_it_describes() -> None:
    callee = Callee(
        kind="interrupts",
        label="a florist who talks over the agent",
        hello="Petals and Stems, hello?",
        lines=["Yes, this is the florist.", "[press 4]", "Bye now."],
        interruption="Hold on, who gave you this number?",
        pauses=0.5,
        thinking=1.5,
        ring_seconds=4.0,
        joined=["Hello, person."],
        resumed=["Back again."],
        voice="angus",
    )
    assert persona_of(callee) == Persona(
        kind="interrupts",
        label="a florist who talks over the agent",
        ring_seconds=4.0,
        hello="Petals and Stems, hello?",
        lines=("Yes, this is the florist.", "[press 4]", "Bye now."),
        interruption="Hold on, who gave you this number?",
        pauses=0.5,
        thinking=1.5,
        joined=("Hello, person.",),
        resumed=("Back again.",),
        voice="angus",
    )
    # Without a label, one that says what it is; without a voice, none (the network picks).
    plain = persona_of(Callee(kind="silent"))
    assert (plain.label, plain.voice) == ("a silent callee written as data", None)


async def test_the_sandbox_carrier_sends_the_callee_and_the_network_plays_it() -> None:
    """Through the real carrier code: a "busy" callee as data on a number whose own persona
    talks ends busy, after its own ring; the call keeps the persona it was given."""
    statuses: list[str] = []
    ended = asyncio.Event()

    def callback(request: httpx.Request) -> httpx.Response:
        status = dict(parse_qsl(request.content.decode()))["CallStatus"]
        statuses.append(status)
        if status in ("busy", "completed", "failed"):
            ended.set()
        return httpx.Response(204)

    network = SandboxNetwork(SECRET, speed=10.0, callback_transport=httpx.MockTransport(callback))
    carrier = TwilioCarrier(
        account_sid=network.account_sid,
        auth_token=network.auth_token,
        base_url="http://127.0.0.1/sandbox/twilio",
        name="sandbox",
        transport=httpx.ASGITransport(app=_app(network), client=("127.0.0.1", 5000)),
    )
    callee = Callee(kind="busy", label="always on the phone", ring_seconds=1.0, voice="sarah")
    sid = await carrier.dial(_request(callee.model_dump(mode="json")))
    await asyncio.wait_for(ended.wait(), timeout=10)
    await carrier.close()
    await network.close()
    assert persona_for(PERSON).kind == "person", "the number alone would have talked"
    assert network.calls[sid].persona == persona_of(callee)
    assert statuses[-1] == "busy"


async def test_a_call_without_a_callee_keeps_the_numbers_persona() -> None:
    network = SandboxNetwork(
        SECRET, callback_transport=httpx.MockTransport(lambda _: httpx.Response(204))
    )
    carrier = TwilioCarrier(
        account_sid=network.account_sid,
        auth_token=network.auth_token,
        base_url="http://127.0.0.1/sandbox/twilio",
        name="sandbox",
        transport=httpx.ASGITransport(app=_app(network), client=("127.0.0.1", 5000)),
    )
    sid = await carrier.dial(_request(None))
    persona = network.calls[sid].persona
    await carrier.close()
    await network.close()
    assert persona == persona_for(PERSON)


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ("{not json", "CallwrightCallee"),
        (json.dumps({"kind": "a robot"}), "CallwrightCallee.kind"),
        (json.dumps({"lines": ["fine", "x" * 501]}), "CallwrightCallee.lines.1"),
        (json.dumps({"thinking": 11}), "CallwrightCallee.thinking"),
        (json.dumps({"mood": "grumpy"}), "CallwrightCallee.mood"),
        (json.dumps({"voice": "hal-9000"}), "CallwrightCallee.voice"),
        (json.dumps(["person"]), "CallwrightCallee"),
    ],
)
async def test_a_bad_callee_is_twilios_400_naming_the_field(given: str, field: str) -> None:
    network = SandboxNetwork(SECRET)
    auth = base64.b64encode(f"{network.account_sid}:{network.auth_token}".encode()).decode()
    transport = httpx.ASGITransport(app=_app(network), client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.post(
            f"/sandbox/twilio/2010-04-01/Accounts/{network.account_sid}/Calls.json",
            data={
                "To": PERSON,
                "From": "+15005550000",
                "Twiml": "<Response><Hangup/></Response>",
                CALLEE_FIELD: given,
            },
            headers={"authorization": f"Basic {auth}"},
        )
    await network.close()
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["status"]) == (20001, 400)
    assert body["message"].startswith(field + ":"), body["message"]
    assert network.calls == {}, "no call was placed"


async def test_a_real_twilio_never_receives_a_callee() -> None:
    """A lab call's callee on a carrier that is not the sandbox is refused before any request:
    a real network would ring a person instead."""
    sent: list[httpx.Request] = []

    def twilio(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(201, json={"sid": "CA" + "0" * 32})

    carrier = TwilioCarrier(
        account_sid="AC" + "1" * 32, auth_token="t", transport=httpx.MockTransport(twilio)
    )
    with pytest.raises(CarrierError, match="only the sandbox"):
        await carrier.dial(_request(Callee().model_dump(mode="json")))
    assert sent == []
    # A call without one is dialled as ever, with no such field.
    await carrier.dial(_request(None))
    await carrier.close()
    assert len(sent) == 1
    assert CALLEE_FIELD not in dict(parse_qsl(sent[0].content.decode()))
