"""The parent call's audio path at the sandbox network, between the verbs of its TwiML.

`Line` is the call's clock outside a bidirectional stream: it plays 20 ms frames at the
network's speed (what the callee hears and says while a `<Say>`, a `<Pause>` or a `<Dial>`
runs) and copies every frame of the call, a stream's included, to the call's listening forks.
`Fork` is one `<Start><Stream>`: a unidirectional Media Streams websocket that gets `connected`,
`start`, the `media` of the tracks it asked for (`track`, `chunk`, `timestamp`, `payload`) and
`stop` when the call ends; what it sends back is ignored, as at Twilio. `callback` makes the
network's signed requests (a `<Number url>`, a `<Dial action>`, a `<Redirect>`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
import numpy as np
import websockets

from callwright.sandbox.persona_llm import Hear, PersonaLLM
from callwright.sandbox.twiml import Stream
from callwright.speech.audio import FRAME_SAMPLES, PHONE_RATE, ulaw_encode
from callwright.telephony import signature

log = logging.getLogger(__name__)
FRAME = 0.02  # seconds
SILENCE = b"\xff" * FRAME_SAMPLES
API_VERSION = "2010-04-01"


@dataclass
class Wire:
    """What the call's TwiML needs of the network: its account, its clock, its HTTP client."""

    account_sid: str
    auth_token: str
    speed: float
    http: httpx.AsyncClient
    #: The LLM that plays free-text personas (None: none configured; their lines instead).
    writer: PersonaLLM | None = None
    #: How callees make out the agent's words, for their answers by the kind of question
    #: (None: they answer in order).
    ears: Hear | None = None


async def callback(wire: Wire, url: str, method: str, form: dict[str, str]) -> httpx.Response:
    """A request signed with X-Twilio-Signature, as Twilio makes its TwiML requests: a POST
    signs the URL and the form; a GET carries the form in the query and signs the whole URL."""
    if method == "GET":
        full = url + ("&" if "?" in url else "?") + urlencode(form)
        sig = signature.compute(wire.auth_token, full)
        return await wire.http.get(full, headers={"X-Twilio-Signature": sig})
    sig, body = signature.sign_form(wire.auth_token, url, form)
    headers = {"X-Twilio-Signature": sig, "Content-Type": "application/x-www-form-urlencoded"}
    return await wire.http.post(url, content=body, headers=headers)


@dataclass
class ForkReport:
    """What one listening fork was sent (tests read it)."""

    url: str
    parameters: dict[str, str]
    tracks: list[str]
    stream_sid: str
    chunks: dict[str, int] = field(default_factory=lambda: {"inbound": 0, "outbound": 0})
    stopped: bool = False
    error: str = ""


class Fork:
    """One `<Start><Stream>`: a Media Streams client that only sends."""

    def __init__(self, wire: Wire, stream: Stream, call_sid: str) -> None:
        self.wire = wire
        self.call_sid = call_sid
        self.stream = stream
        self.report = ForkReport(
            stream.url, dict(stream.parameters), stream.tracks, "MZ" + secrets.token_hex(16)
        )
        self._ws: Any = None
        self._drain: asyncio.Task[None] | None = None
        self._seq = 0

    async def open(self) -> None:
        headers = {"X-Twilio-Signature": signature.compute(self.wire.auth_token, self.stream.url)}
        try:
            self._ws = await websockets.connect(
                self.stream.url, max_size=2**20, additional_headers=headers
            )
            # `connected` is the one message Twilio does not number.
            await self._ws.send(
                json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"})
            )
            await self._send(self._start())
        except (OSError, websockets.WebSocketException) as exc:
            # Twilio's 31920 (Stream - WebSocket - Handshake Error): the call goes on without it.
            log.warning("sandbox fork %s failed: %s", self.stream.url, exc)
            self.report.error = f"31920: {exc}"
            self._ws = None
            return
        self._drain = asyncio.create_task(self._ignore_incoming())

    def _start(self) -> dict[str, Any]:
        return {
            "event": "start",
            "streamSid": self.report.stream_sid,
            "start": {
                "streamSid": self.report.stream_sid,
                "accountSid": self.wire.account_sid,
                "callSid": self.call_sid,
                "tracks": self.report.tracks,
                "customParameters": dict(self.stream.parameters),
                "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1},
            },
        }

    async def _send(self, message: dict[str, Any]) -> None:
        self._seq += 1
        numbered = {"event": message["event"], "sequenceNumber": str(self._seq)}
        await self._ws.send(json.dumps(numbered | message))

    async def _ignore_incoming(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in self._ws:
                pass

    async def frame(self, inbound: bytes, outbound: bytes) -> None:
        """One 20 ms frame of each track it asked for."""
        if self._ws is None or self.report.stopped:
            return
        try:
            for track, payload in (("inbound", inbound), ("outbound", outbound)):
                if track not in self.report.tracks:
                    continue
                self.report.chunks[track] += 1
                chunk = self.report.chunks[track]
                media = {
                    "track": track,
                    "chunk": str(chunk),
                    "timestamp": str((chunk - 1) * int(FRAME * 1000)),
                    "payload": base64.b64encode(payload).decode(),
                }
                await self._send(
                    {"event": "media", "streamSid": self.report.stream_sid, "media": media}
                )
        except websockets.ConnectionClosed:
            self.report.error = self.report.error or "closed by the app"
            self._ws = None

    async def stop(self) -> None:
        if self._ws is None or self.report.stopped:
            return
        self.report.stopped = True
        stop = {"accountSid": self.wire.account_sid, "callSid": self.call_sid}
        with contextlib.suppress(websockets.ConnectionClosed):
            await self._send({"event": "stop", "streamSid": self.report.stream_sid, "stop": stop})
            await self._ws.close()
        if self._drain is not None:
            self._drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._drain


class Line:
    """The call's clock between streams, and the tee to its forks."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.forks: list[Fork] = []
        #: Call time (seconds) the line has played itself (outside bidirectional streams).
        self.played = 0.0

    async def tap(self, inbound: bytes, outbound: bytes) -> None:
        """A frame of the call (the callee's voice, what it hears) for the forks."""
        for fork in self.forks:
            await fork.frame(inbound, outbound)

    async def play(self, frames: list[tuple[bytes, bytes]], interrupted: asyncio.Event) -> int:
        """Play (inbound, outbound) frames at the call's pace; the number played (fewer when
        `interrupted` is set)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        for n, (inbound, outbound) in enumerate(frames):
            if interrupted.is_set():
                return n
            await self.tap(inbound, outbound)
            self.played += FRAME
            delay = started + (n + 1) * FRAME / self.wire.speed - loop.time()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(interrupted.wait(), timeout=delay)
        return len(frames)

    async def close(self) -> None:
        for fork in self.forks:
            await fork.stop()


def frames_of(pcm: np.ndarray) -> list[bytes]:
    data = ulaw_encode(pcm.astype(np.int16))
    return [
        data[i : i + FRAME_SAMPLES].ljust(FRAME_SAMPLES, b"\xff")
        for i in range(0, len(data), FRAME_SAMPLES)
    ]


def ringback(seconds: float) -> list[bytes]:
    """What a caller hears while the far end rings: the US ringback tone (440 + 480 Hz, two
    seconds on, four off)."""
    t = np.arange(int(seconds * PHONE_RATE)) / PHONE_RATE
    on = (t % 6.0) < 2.0
    wave = (np.sin(2 * np.pi * 440 * t) + np.sin(2 * np.pi * 480 * t)) * 0.1 * 32767
    return frames_of((wave * on).astype(np.int16))


def silence(seconds: float) -> list[bytes]:
    return [SILENCE] * max(0, round(seconds / FRAME))
