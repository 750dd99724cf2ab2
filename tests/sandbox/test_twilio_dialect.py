"""The sandbox network speaks Twilio, driven by Twilio's own Python client (`twilio` 9.x) and
checked against Twilio's documented Media Streams messages (docs/sandbox.md, "What of Twilio it
speaks"). A small fake app stands for ours: TwiML URLs, a status callback, an audio file, and a
media websocket whose agent greets, answers a key press, and marks what it sent."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import numpy as np
import pytest
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from twilio.base.exceptions import TwilioRestException
from twilio.rest import Client

from callwright.kit.serving import free_port, serving
from callwright.sandbox.dial import speech
from callwright.sandbox.keys import KeyDetector
from callwright.sandbox.line import frames_of
from callwright.sandbox.network import SandboxNetwork, install_error_handler
from callwright.speech.audio import mp3_bytes, phone_audio, tone, ulaw_decode, wav_bytes
from callwright.telephony import signature

SECRET = "sandbox-dialect-secret-0123456789abcdef"
FROM = "+18885550100"
BUSY, FAILED, SILENT, PRESSES = "+15005550002", "+15005550003", "+15005550007", "+15005550021"
EXAMPLES = json.loads((Path(__file__).parent / "twilio_media_messages.json").read_text())
T = TypeVar("T")


@dataclass
class Socket:
    """One media websocket the network opened to the fake app."""

    params: dict[str, str] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["event"] == name]

    def payloads(self, track: str) -> list[bytes]:
        return [
            base64.b64decode(m["media"]["payload"])
            for m in self.events("media")
            if m["media"]["track"] == track
        ]


class FakeApp:
    """Our side: TwiML by name, the status callback, `/audio.wav`, and the media websocket
    (leg `agent` greets and answers a key; every other leg only listens)."""

    def __init__(self, token: str, greeting: list[bytes]) -> None:
        self.token = token
        self.greeting = greeting
        self.documents: dict[str, str] = {}
        self.posts: list[tuple[str, dict[str, str], bool]] = []
        self.sockets: list[Socket] = []
        self.ended = asyncio.Event()
        #: A 16 kHz stereo WAV: the network plays it as 8 kHz mono.
        self.wav = wav_bytes(np.repeat(tone(440, 0.6, rate=16000), 2), 16000, 2)
        self.app = FastAPI()
        self.app.add_api_websocket_route("/media", self._media)
        self.app.add_api_route("/audio.wav", self._audio, methods=["GET"])
        self.app.add_api_route("/{name}", self._hook, methods=["POST"])

    def posted(self, name: str) -> list[dict[str, str]]:
        return [form for n, form, _ in self.posts if n == name]

    def socket(self, leg: str) -> Socket:
        return next(s for s in self.sockets if s.params.get("leg") == leg)

    async def _audio(self) -> Response:
        return Response(self.wav, media_type="audio/wav")

    async def _hook(self, name: str, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        sig = request.headers.get("x-twilio-signature", "")
        self.posts.append(
            (name, form, signature.validate(self.token, str(request.url), form.items(), sig))
        )
        if name == "status" and form["CallStatus"] in ("completed", "failed"):
            self.ended.set()
        if name not in self.documents:
            return Response(status_code=204)
        return Response(self.documents[name], media_type="application/xml")

    async def _media(self, ws: WebSocket) -> None:
        socket = Socket()
        self.sockets.append(socket)
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await ws.receive_json()
                socket.messages.append(message)
                if message["event"] == "start":
                    socket.params = message["start"]["customParameters"]
                    socket.started.set()
                if socket.params.get("leg") == "agent" and message["event"] in ("start", "dtmf"):
                    await self._say(ws, message["streamSid"], message["event"])
        socket.closed.set()

    async def _say(self, ws: WebSocket, stream_sid: str, name: str) -> None:
        for frame in self.greeting:
            payload = base64.b64encode(frame).decode()
            await ws.send_json(
                {"event": "media", "streamSid": stream_sid, "media": {"payload": payload}}
            )
        await ws.send_json({"event": "mark", "streamSid": stream_sid, "mark": {"name": name}})


@dataclass
class World:
    network: SandboxNetwork
    fake: FakeApp
    base: str
    twilio: Client

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://") + "/media"

    def stream(self, verb: str, leg: str, track: str = "") -> str:
        attribute = f' track="{track}"' if track else ""
        return (
            f'<{verb}><Stream url="{self.ws}"{attribute}>'
            f'<Parameter name="leg" value="{leg}"/></Stream></{verb}>'
        )

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """The twilio client is synchronous: it runs in a thread while the network serves."""
        return await asyncio.to_thread(functools.partial(function, *args, **kwargs))


@pytest.fixture
async def world() -> AsyncIterator[World]:
    network = SandboxNetwork(SECRET, speed=5.0)
    fake = FakeApp(network.auth_token, await speech("ryan", "Hi, this is Sarah. Press one."))
    rest_app = FastAPI()
    rest_app.include_router(network.router)
    install_error_handler(rest_app)
    app_port, sandbox_port = free_port(), free_port()
    client = Client(network.account_sid, network.auth_token)
    # The client's own way to another host: its API domain's base URL.
    client.api.base_url = f"http://127.0.0.1:{sandbox_port}/sandbox/twilio"
    async with serving(fake.app, app_port), serving(rest_app, sandbox_port):
        yield World(network, fake, f"http://127.0.0.1:{app_port}", client)
        await network.close()


async def _until(check: Callable[[], bool], within: float = 30.0) -> None:
    for _ in range(int(within / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {within} s")


async def test_the_twilio_client_places_lists_fetches_updates_and_hangs_up(world: World) -> None:
    calls, fake = world.twilio.calls, world.fake
    hang_up = "<Response><Hangup/></Response>"
    busy = await world.run(calls.create, to=BUSY, from_=FROM, twiml=hang_up)
    failed = await world.run(calls.create, to=FAILED, from_=FROM, twiml=hang_up)
    # TwiML by Url: the network asks the app for it (signed, the call's fields) on answer.
    fake.documents["main"] = (
        f"<Response>{world.stream('Start', 'listen', 'outbound_track')}"
        f"{world.stream('Connect', 'first')}</Response>"
    )
    main = await world.run(
        calls.create,
        to=SILENT,
        from_=FROM,
        url=f"{world.base}/main",
        status_callback=f"{world.base}/status",
        status_callback_event=["initiated", "ringing", "answered", "completed"],
    )
    assert main.status == "queued"
    await _until(lambda: any(s.params.get("leg") == "first" for s in fake.sockets))
    (asked,) = fake.posted("main")
    assert (asked["CallSid"], asked["CallStatus"], asked["To"]) == (main.sid, "in-progress", SILENT)

    # Listing: newest first, paged as Twilio pages (the client follows next_page_uri).
    sids = [main.sid, failed.sid, busy.sid]
    assert [c.sid for c in await world.run(calls.list, page_size=2)] == sids
    assert [c.sid for c in await world.run(lambda: list(calls.stream(page_size=1)))] == sids
    assert [c.sid for c in await world.run(calls.list, limit=2)] == sids[:2]
    assert [c.sid for c in await world.run(calls.list, status="busy")] == [busy.sid]
    assert [c.sid for c in await world.run(calls.list, to=SILENT)] == [main.sid]
    first = await world.run(calls.page, page_size=2)
    second = await world.run(first.next_page)
    assert [c.sid for c in second] == [busy.sid]
    assert await world.run(second.next_page) is None
    assert [c.sid for c in await world.run(second.previous_page)] == sids[:2]
    assert set(second._payload) == {
        "calls",
        "page",
        "page_size",
        "start",
        "end",
        "uri",
        "first_page_uri",
        "next_page_uri",
        "previous_page_uri",
    }
    assert (second._payload["page"], second._payload["start"], second._payload["end"]) == (1, 2, 2)
    fetched = await world.run(calls(main.sid).fetch)
    assert (fetched.status, fetched.to, fetched.direction) == (
        "in-progress",
        SILENT,
        "outbound-api",
    )

    # Update with TwiML: the stream stops, the network plays the WAV and keys, and a new stream
    # opens; the listening fork hears the audio and the tones.
    update = (
        f'<Response><Play>{world.base}/audio.wav</Play><Play digits="1w2"/>'
        f"{world.stream('Connect', 'second')}</Response>"
    )
    moved = await world.run(calls(main.sid).update, twiml=update)
    assert moved.status == "in-progress"
    await _until(lambda: any(s.params.get("leg") == "second" for s in fake.sockets))
    assert fake.socket("first").messages[-1]["event"] == "stop"
    # Update with a Url: the network fetches the TwiML (signed, the call's fields) and runs it.
    fake.documents["third"] = f"<Response>{world.stream('Connect', 'third')}</Response>"
    await world.run(calls(main.sid).update, url=f"{world.base}/third", method="POST")
    await _until(lambda: any(s.params.get("leg") == "third" for s in fake.sockets))
    assert fake.socket("second").messages[-1]["event"] == "stop"
    assert fake.posted("third")[0]["CallSid"] == main.sid

    hung_up = await world.run(calls(main.sid).update, status="completed")
    assert hung_up.status == "completed"
    await asyncio.wait_for(fake.ended.wait(), timeout=30)
    assert (await world.run(calls(main.sid).fetch)).status == "completed"

    heard = world.fake.socket("listen").payloads("outbound")
    played = b"".join(frames_of(phone_audio(fake.wav)))
    assert played[800:4000] in b"".join(heard), "the WAV, at 8 kHz mono"
    detector = KeyDetector()
    for frame in heard:
        detector.feed(ulaw_decode(frame))
    assert detector.heard == ["1", "2"]

    statuses = fake.posted("status")
    assert [s["CallStatus"] for s in statuses] == ["queued", "ringing", "in-progress", "completed"]
    assert [s["SequenceNumber"] for s in statuses] == ["0", "1", "2", "3"]
    assert {s["CallbackSource"] for s in statuses} == {"call-progress-events"}
    assert int(statuses[-1]["CallDuration"]) >= 1
    assert all(valid for *_, valid in fake.posts), "every request signed"


async def test_twilio_errors_reach_the_client_as_twilio_exceptions(world: World) -> None:
    calls = world.twilio.calls
    with pytest.raises(TwilioRestException) as missing:
        await world.run(calls("CA" + "0" * 32).fetch)
    assert (missing.value.status, missing.value.code) == (404, 20404)
    with pytest.raises(TwilioRestException) as no_twiml:
        await world.run(calls.create, to=SILENT, from_=FROM)
    assert (no_twiml.value.status, no_twiml.value.code) == (400, 21205)
    with pytest.raises(TwilioRestException) as bad_play:
        await world.run(
            calls.create, to=SILENT, from_=FROM, twiml="<Response><Play>nowhere</Play></Response>"
        )
    assert bad_play.value.code == 12200


async def test_every_sandbox_path_answers_twilio_json(app: FastAPI) -> None:
    """Known paths with another method, unknown paths, bad paging: Twilio's error shape from
    the whole app (whose other paths serve the web app's HTML)."""
    network: SandboxNetwork = app.state.sandbox
    calls = f"/sandbox/twilio/2010-04-01/Accounts/{network.account_sid}/Calls.json"
    cases = [
        ("GET", "/sandbox/twilio", 404, 20404),
        ("GET", "/sandbox/twilio/", 404, 20404),
        ("POST", "/sandbox/twilio/2010-04-01/Accounts/AC1/Messages.json", 404, 20404),
        ("GET", calls.replace("Calls.json", "Calls/CA1/Recordings.json"), 404, 20404),
        ("DELETE", calls, 405, 20004),
        ("PUT", calls.replace(".json", "/CA1.json"), 405, 20004),
        ("GET", calls + "?PageSize=1001", 400, 20007),
        ("GET", calls + "?PageSize=ten", 400, 20001),
        ("GET", calls + "?PageToken=PAnothing", 400, 21481),
        ("GET", calls + "?Status=ringingish", 400, 20001),
        ("GET", calls.replace(network.account_sid, "AC0"), 401, 20003),
    ]
    auth = (network.account_sid, network.auth_token)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1", auth=auth
    ) as http:
        for method, path, status, code in cases:
            response = await http.request(method, path)
            assert response.headers["content-type"] == "application/json", (method, path)
            body = response.json()
            assert set(body) == {"code", "message", "more_info", "status"}, (method, path)
            assert (response.status_code, body["code"], body["status"]) == (status, code, status)
            assert body["more_info"] == f"https://www.twilio.com/docs/errors/{code}"


def test_play_reads_wav_and_mp3_at_any_rate_as_phone_audio() -> None:
    """What `<Play>` fetches becomes 8 kHz mono: a WAV at 16 kHz stereo, an MP3 at 44.1 kHz."""
    second = tone(440, 1.0, rate=16000)
    assert abs(len(phone_audio(wav_bytes(np.repeat(second, 2), 16000, 2))) - 8000) < 10
    mp3 = mp3_bytes(tone(440, 1.0, rate=44100), 44100, 1)
    assert abs(len(phone_audio(mp3)) - 8000) < 800  # the MP3's own padding
    with pytest.raises(ValueError, match="not a WAV or MP3"):
        phone_audio(b"<html>not audio</html>")


def _shape(value: Any) -> Any:
    """A message's keys and types, all the way down (customParameters: any names)."""
    if isinstance(value, dict):
        return {k: dict if k == "customParameters" else _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [type(item) for item in value][:1]
    return type(value)


async def test_every_media_streams_message_is_one_twilio_documents(world: World) -> None:
    """A call to the callee that presses 1, with a listening fork on both tracks: each message
    on either websocket has exactly the keys and types of Twilio's example of its kind;
    `sequenceNumber` counts every message after `connected` from 1, in order; `chunk` counts
    each track's media from 1."""
    examples = {m["event"]: _shape(m) for m in EXAMPLES["messages"]}
    twiml = (
        f"<Response>{world.stream('Start', 'listen', 'both_tracks')}"
        f"{world.stream('Connect', 'agent')}</Response>"
    )
    await world.run(
        world.twilio.calls.create,
        to=PRESSES,
        from_=FROM,
        twiml=twiml,
        status_callback=f"{world.base}/status",
    )
    await asyncio.wait_for(world.fake.ended.wait(), timeout=60)
    agent, fork = world.fake.socket("agent"), world.fake.socket("listen")
    await asyncio.wait_for(fork.closed.wait(), timeout=10)

    assert {m["event"] for m in agent.messages} == set(examples), "every kind, in a real call"
    assert [m["dtmf"]["digit"] for m in agent.events("dtmf")] == ["1"]
    assert [m["mark"]["name"] for m in agent.events("mark")] == ["start", "dtmf"]
    for socket in (agent, fork):
        for message in socket.messages:
            assert _shape(message) == examples[message["event"]], message
        first, *rest = socket.messages
        assert first["event"] == "connected"
        assert [m["sequenceNumber"] for m in rest] == [str(n) for n in range(1, len(rest) + 1)]
        assert rest[0]["event"] == "start"
        assert rest[-1]["event"] == "stop"
        for track in socket.messages[1]["start"]["tracks"]:
            media = [m["media"] for m in socket.events("media") if m["media"]["track"] == track]
            assert [m["chunk"] for m in media] == [str(n) for n in range(1, len(media) + 1)]
            stamps = [int(m["timestamp"]) for m in media]
            assert stamps == sorted(stamps)
    assert fork.messages[1]["start"]["tracks"] == ["inbound", "outbound"]
    start = agent.messages[1]["start"]
    assert (start["accountSid"], start["tracks"]) == (world.network.account_sid, ["inbound"])
