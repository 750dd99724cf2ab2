"""Transfers on the sandbox network, Twilio's side (docs/sandbox.md#transfers): a call update
with TwiML stops the agent's stream, opens a listening fork with both tracks, and <Dial>s a
transfer target, who hears the warm whisper and talks with the callee; busy and unanswered
targets end the Dial with their DialCallStatus, and the action's <Connect><Stream> brings the
agent back. A small fake app (a media websocket, the whisper / action / status URLs) stands for
ours; every request the network makes to it must carry a valid X-Twilio-Signature."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np
import pytest
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect

from callwright.kit.serving import free_port, serving
from callwright.sandbox import twiml
from callwright.sandbox.dial import NETWORK_VOICE, PERSON_VOICE, speech
from callwright.sandbox.network import SandboxCall, SandboxNetwork, install_error_handler
from callwright.sandbox.numbers import SPECIAL
from callwright.speech.audio import ulaw_decode
from callwright.telephony import signature

SECRET = "sandbox-transfer-secret-0123456789abcdef"
SPEED = 5.0
CALLEE, PERSON, BUSY, NO_ANSWER = "+15005550010", "+15005550011", "+15005550012", "+15005550013"
GREETING = "Hi, this is Sarah from Bright Dental. How can I help you today?"
WHISPER = "Transferring a caller who asks about an order."


@dataclass
class Stream:
    """One websocket the network opened to the fake app."""

    params: dict[str, str] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    #: The callee said something and then was quiet for half a second.
    replied: asyncio.Event = field(default_factory=asyncio.Event)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    signed: bool = False

    def media(self, track: str) -> list[dict[str, Any]]:
        return [
            m["media"]
            for m in self.messages
            if m["event"] == "media" and m["media"].get("track", "inbound") == track
        ]

    def payloads(self, track: str) -> list[bytes]:
        return [base64.b64decode(m["payload"]) for m in self.media(track)]


class FakeApp:
    """Our side, as small as the protocol allows: the agent greets on its streams (and closes a
    resumed one once the callee has answered), the whisper URL answers a <Say>, the action URL
    answers what the test says, and every request's signature is checked."""

    def __init__(self, auth_token: str, greeting: list[bytes]) -> None:
        self.token = auth_token
        self.greeting = greeting
        self.streams: list[Stream] = []
        self.posts: list[tuple[str, dict[str, str], bool, float]] = []
        self.transfer_twiml = ""
        self.action_twiml = "<Response><Hangup/></Response>"
        self.ended = asyncio.Event()
        self.app = FastAPI()
        self.app.add_api_websocket_route("/media", self._media)
        self.app.add_api_route("/{name}", self._hook, methods=["POST"])

    def stream(self, leg: str) -> Stream:
        return next(s for s in self.streams if s.params.get("leg") == leg)

    def posted(self, name: str) -> list[dict[str, str]]:
        return [form for n, form, _, _ in self.posts if n == name]

    async def _hook(self, name: str, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        valid = signature.validate(
            self.token,
            str(request.url),
            form.items(),
            request.headers.get("x-twilio-signature", ""),
        )
        self.posts.append((name, form, valid, time.monotonic()))
        if name == "status" and form["CallStatus"] in ("completed", "failed"):
            self.ended.set()
        body = {
            "whisper": f"<Response><Say>{WHISPER}</Say></Response>",
            "action": self.action_twiml,
            "transfer": self.transfer_twiml,
        }.get(name)
        if body is None:
            return Response(status_code=204)
        return Response(body, media_type="application/xml")

    async def _media(self, ws: WebSocket) -> None:
        stream = Stream()
        stream.signed = signature.validate(
            self.token, str(ws.url), [], ws.headers.get("x-twilio-signature", "")
        )
        self.streams.append(stream)
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await self._listen(ws, stream)
        stream.closed.set()

    async def _listen(self, ws: WebSocket, stream: Stream) -> None:
        loud = quiet = 0
        while True:
            message = await ws.receive_json()
            stream.messages.append(message)
            if message["event"] == "start":
                stream.params = message["start"]["customParameters"]
                stream.started.set()
                if stream.params.get("leg") != "listen":
                    await self._say(ws, message["streamSid"])
            elif message["event"] == "media" and stream.params.get("leg") != "listen":
                pcm = ulaw_decode(base64.b64decode(message["media"]["payload"]))
                if float(np.abs(pcm.astype(np.int32)).mean()) > 300:
                    loud, quiet = loud + 1, 0
                elif loud > 10:
                    quiet += 1
                    if quiet == 25:
                        stream.replied.set()
                        if stream.params.get("leg") == "resume":
                            await ws.close()
                            return

    async def _say(self, ws: WebSocket, stream_sid: str) -> None:
        for frame in self.greeting:
            payload = base64.b64encode(frame).decode()
            await ws.send_json(
                {"event": "media", "streamSid": stream_sid, "media": {"payload": payload}}
            )


@dataclass
class World:
    network: SandboxNetwork
    fake: FakeApp
    base: str  # the fake app's http URL
    rest: httpx.AsyncClient

    @property
    def calls_url(self) -> str:
        return f"/sandbox/twilio/2010-04-01/Accounts/{self.network.account_sid}/Calls"

    def stream_twiml(self, verb: str, leg: str, **params: str) -> str:
        ws = self.base.replace("http://", "ws://") + "/media"
        parameters = "".join(
            f'<Parameter name="{k}" value="{v}"/>' for k, v in ({"leg": leg} | params).items()
        )
        track = ' track="both_tracks"' if verb == "Start" else ""
        return f'<{verb}><Stream url="{ws}"{track}>{parameters}</Stream></{verb}>'

    def transfer(self, target: str, *, warm: bool = True, timeout: int = 20) -> str:
        url = f' url="{self.base}/whisper"' if warm else ""
        return (
            f"<Response>{self.stream_twiml('Start', 'listen', token='single-use')}"
            f'<Dial action="{self.base}/action" method="POST" timeout="{timeout}" '
            f'callerId="+18885550100"><Number{url}>{target}</Number></Dial></Response>'
        )

    async def place(self, to: str) -> str:
        response = await self.rest.post(
            self.calls_url + ".json",
            data={
                "To": to,
                "From": "+18885550100",
                "Twiml": f"<Response>{self.stream_twiml('Connect', 'main')}</Response>",
                "StatusCallback": f"{self.base}/status",
            },
        )
        assert response.status_code == 201, response.text
        sid: str = response.json()["sid"]
        return sid

    async def update(self, sid: str, **form: str) -> httpx.Response:
        return await self.rest.post(f"{self.calls_url}/{sid}.json", data=form)

    def call(self, sid: str) -> SandboxCall:
        return self.network.calls[sid]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    network = SandboxNetwork(SECRET, speed=SPEED)
    fake = FakeApp(network.auth_token, await speech("ryan", GREETING))
    port = free_port()
    rest_app = FastAPI()
    rest_app.include_router(network.router)
    install_error_handler(rest_app)
    auth = (network.account_sid, network.auth_token)
    transport = httpx.ASGITransport(app=rest_app, client=("127.0.0.1", 5000))
    async with (
        serving(fake.app, port),
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", auth=auth) as rest,
    ):
        yield World(network, fake, f"http://127.0.0.1:{port}", rest)
        await network.close()


def _contains(haystack: list[bytes], needle: list[bytes]) -> bool:
    """Whether the frames `needle` occur, in a row, in `haystack`."""
    joined, part = b"".join(haystack), b"".join(needle)
    return bool(part) and part in joined


async def _asked_then_update(world: World, to: str, **form: str) -> str:
    sid = await world.place(to)
    main_started = asyncio.wait_for(_first(world, "main"), timeout=20)
    main = await main_started
    await asyncio.wait_for(main.replied.wait(), timeout=30)  # "Can I speak to a real person?"
    response = await world.update(sid, **form)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "in-progress"
    return sid


async def _until(check: Callable[[], bool], within: float = 30.0) -> None:
    for _ in range(int(within / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {within} s")


async def _first(world: World, leg: str) -> Stream:
    while True:
        for stream in world.fake.streams:
            if stream.params.get("leg") == leg:
                return stream
        await asyncio.sleep(0.02)


async def test_a_warm_transfer_moves_the_callee_to_the_person(world: World) -> None:
    sid = await _asked_then_update(world, CALLEE, Twiml=world.transfer(PERSON))
    main = world.fake.stream("main")
    # Twilio ends the agent's bidirectional stream: `stop`, then the socket closes.
    await asyncio.wait_for(main.closed.wait(), timeout=10)
    assert main.messages[-1]["event"] == "stop"
    await asyncio.wait_for(world.fake.ended.wait(), timeout=60)
    call = world.call(sid)
    (leg,) = call.legs

    # The whisper: a signed POST for the new child leg, its <Say> heard by the person only.
    (whisper,) = world.fake.posted("whisper")
    assert whisper["CallSid"] == leg.sid != sid
    assert (whisper["ParentCallSid"], whisper["To"], whisper["From"]) == (
        sid,
        PERSON,
        "+18885550100",
    )
    assert whisper["CallStatus"] == "in-progress"
    assert leg.whisper == [WHISPER]

    # The person and the callee talked: the persona's lines, in turn, the person first.
    person, callee = SPECIAL[PERSON], SPECIAL[CALLEE]
    assert [(s.speaker, s.text) for s in leg.script] == [
        ("person", person.hello),
        ("callee", callee.joined[0]),
        ("person", person.lines[0]),
        ("callee", callee.joined[1]),
        ("person", person.lines[1]),
    ]

    # The listening fork: connected, start with both tracks and our parameters, media of both
    # tracks (chunk and timestamp counted per track), stop at the end.
    fork = world.fake.stream("listen")
    assert [m["event"] for m in fork.messages[:2]] == ["connected", "start"]
    start = fork.messages[1]["start"]
    assert start["tracks"] == ["inbound", "outbound"]
    assert start["customParameters"] == {"leg": "listen", "token": "single-use"}
    assert start["callSid"] == sid
    assert fork.messages[-1]["event"] == "stop"
    inbound, outbound = fork.media("inbound"), fork.media("outbound")
    assert len(inbound) == len(outbound) > 100
    assert [m["chunk"] for m in outbound[:3]] == ["1", "2", "3"]
    assert [m["timestamp"] for m in outbound[:3]] == ["0", "20", "40"]
    # The person's voice is what the callee hears (outbound); the callee's is inbound.
    assert _contains(fork.payloads("outbound"), (await speech(PERSON_VOICE, person.hello))[5:30])
    # (the callee's voice: flite kal, the agent's stream named no voice of its own)
    assert _contains(fork.payloads("inbound"), (await speech("kal", callee.joined[0]))[5:30])
    assert not _contains(fork.payloads("outbound"), (await speech(NETWORK_VOICE, WHISPER))[5:30])

    # The action: DialCallStatus completed with the child's sid and seconds; Hangup ends it.
    # (Posted as the call ends: on a busy machine a moment after the end is signalled.)
    await _until(lambda: len(world.fake.posted("action")) == 1)
    (action,) = world.fake.posted("action")
    assert action["CallSid"] == sid
    assert (action["DialCallStatus"], action["DialCallSid"]) == ("completed", leg.sid)
    assert int(action["DialCallDuration"]) == leg.duration >= 10
    final = world.fake.posted("status")[-1]
    assert final["CallStatus"] == "completed"
    # CallDuration is the whole call: the agent's part and the transfer.
    assert int(final["CallDuration"]) >= int(call.sessions[0].duration) + leg.duration
    assert call.hung_up_by == "agent"
    got = (await world.rest.get(f"{world.calls_url}/{leg.sid}.json")).json()
    assert (got["parent_call_sid"], got["status"], got["to"]) == (sid, "completed", PERSON)
    listed = await world.rest.get(world.calls_url + ".json", params={"ParentCallSid": sid})
    assert [row["sid"] for row in listed.json()["calls"]] == [leg.sid]
    assert all(valid for *_, valid, _ in world.fake.posts), "every request signed"
    assert all(s.signed for s in world.fake.streams)


RESUME = (
    '<Response><Connect><Stream url="{ws}"><Parameter name="leg" value="resume"/>'
    '<Parameter name="transfer" value="{status}"/></Stream></Connect></Response>'
)


@pytest.mark.parametrize(
    ("target", "status", "by_url"), [(BUSY, "busy", False), (NO_ANSWER, "no-answer", True)]
)
async def test_a_failed_transfer_brings_the_agent_back(
    world: World, target: str, status: str, by_url: bool
) -> None:
    ws = world.base.replace("http://", "ws://") + "/media"
    world.fake.action_twiml = RESUME.format(ws=ws, status=status)
    transfer = world.transfer(target, timeout=5)
    form = {"Url": f"{world.base}/transfer"} if by_url else {"Twiml": transfer}
    world.fake.transfer_twiml = transfer
    sid = await _asked_then_update(world, CALLEE, **form)
    moved = time.monotonic()
    await asyncio.wait_for(world.fake.ended.wait(), timeout=60)
    call = world.call(sid)

    (action,) = world.fake.posted("action")
    assert action["DialCallStatus"] == status
    assert "DialCallDuration" not in action
    assert action["DialCallSid"] == call.legs[0].sid
    # Busy ends the Dial at once; no answer after the Dial's timeout (5 s of call time).
    took = (next(t for n, *_, t in world.fake.posts if n == "action") - moved) * SPEED
    assert (took < 4.0) if status == "busy" else (4.5 <= took < 20.0), took
    assert world.fake.posted("whisper") == [], "nobody answered: no whisper"

    # The action's <Connect><Stream> reconnects the callee to the agent, which carries on.
    resumed = world.fake.stream("resume")
    assert resumed.params == {"leg": "resume", "transfer": status}
    assert len(call.sessions) == 2
    said = [s.text for s in call.sessions[1].segments if s.speaker == "callee"]
    assert said[:1] == [SPECIAL[CALLEE].resumed[0]]
    # The fork hears the rest of the call: the agent's greeting on the resumed stream too.
    fork = world.fake.stream("listen")
    assert _contains(fork.payloads("outbound"), world.fake.greeting[5:30])
    assert world.fake.posted("status")[-1]["CallStatus"] == "completed"
    assert all(valid for *_, valid, _ in world.fake.posts), "every request signed"
    if by_url:
        (fetched,) = world.fake.posted("transfer")
        assert (fetched["CallSid"], fetched["CallStatus"]) == (sid, "in-progress")


async def test_call_updates_are_refused_as_twilio_refuses_them(world: World) -> None:
    sid = await world.place("+15005550001")  # rings for 8 s: not in progress yet
    cases = [
        ("<Response><Dial>", 12100),
        ('<!DOCTYPE r [<!ENTITY a "aaaa">]><Response><Say>&a;</Say></Response>', 12100),
        ("<Response><Gather/></Response>", 12200),
        ("<Response><Dial><Number>not a number</Number></Dial></Response>", 13223),
        ("<Response><Hangup/></Response>", 21220),  # valid, but the call is only ringing
    ]
    for document, code in cases:
        response = await world.update(sid, Twiml=document)
        assert (response.status_code, response.json()["code"]) == (400, code), document
    missing = await world.update("CA" + "0" * 32, Twiml="<Response><Hangup/></Response>")
    assert (missing.status_code, missing.json()["code"]) == (404, 20404)


def test_the_twiml_of_a_transfer_parses_into_its_verbs() -> None:
    verbs = twiml.parse(
        '<?xml version="1.0" encoding="UTF-8"?><Response>'
        '<Start><Stream url="wss://app/media" track="both_tracks">'
        '<Parameter name="leg" value="listen"/></Stream></Start>'
        '<Say voice="alice" loop="2">One moment.</Say><Pause length="2"/>'
        '<Dial action="https://app/result" timeout="1" callerId="+18885550100">'
        '<Number url="https://app/whisper">(500) 555-0011</Number></Dial><Hangup/></Response>'
    )
    start, say, pause, dial, hangup = verbs
    assert isinstance(start, twiml.Start)
    assert start.stream.tracks == ["inbound", "outbound"]
    assert start.stream.parameters == {"leg": "listen"}
    assert say == twiml.Say("One moment.", "alice", 2)
    assert pause == twiml.Pause(2.0)
    assert dial == twiml.Dial(
        numbers=(twiml.Number("+15005550011", "https://app/whisper"),),
        action="https://app/result",
        timeout=5,  # Twilio's minimum
        caller_id="+18885550100",
    )
    assert hangup == twiml.Hangup()


async def test_hanging_up_during_a_cold_transfer_ends_the_dial_and_the_call(world: World) -> None:
    """Stop Call while the person talks: the Dial ends, its action is told (the call already
    completed, so what it answers never runs), the fork gets `stop`, the call completes."""
    world.fake.action_twiml = "<Response><Say>Never said.</Say></Response>"
    sid = await _asked_then_update(world, CALLEE, Twiml=world.transfer(PERSON, warm=False))
    hello = (await speech(PERSON_VOICE, SPECIAL[PERSON].hello))[5:30]
    fork = await _first(world, "listen")
    await _until(lambda: _contains(fork.payloads("outbound"), hello))  # answered, talking
    assert (await world.update(sid, Status="completed")).status_code == 200
    await asyncio.wait_for(world.fake.ended.wait(), timeout=30)
    call = world.call(sid)
    (leg,) = call.legs
    assert world.fake.posted("whisper") == [], "a cold transfer: no whisper"
    assert leg.whisper == []
    await _until(lambda: len(world.fake.posted("action")) == 1)
    (action,) = world.fake.posted("action")
    assert (action["CallStatus"], action["DialCallStatus"], action["DialBridged"]) == (
        "completed",
        "completed",
        "true",
    )
    assert 0 < len(leg.script) < 5, "cut while they talked"
    assert not [s for s in call.said if s.speaker == "network"], "the action's TwiML never ran"
    assert fork.messages[-1]["event"] == "stop"
    assert world.fake.posted("status")[-1]["CallStatus"] == "completed"
