"""The simulated callee: a Twilio Media Streams client on the far end of a sandbox call.

It connects to the media websocket named in the call's TwiML and behaves as Twilio does:
`connected`, `start`, 20 ms mu-law `media` frames both ways, `mark` echoed once the audio before
it has played, `clear` empties what is still queued, `stop` at the end. The agent's audio is
played out at real time (times the speed factor) into what the callee hears; an energy VAD on
that decides when the agent talks, and the persona answers with a flite voice. Everything heard
and said is kept, so latency is measured as the callee experiences it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import websockets

from callwright.sandbox.numbers import Persona
from callwright.speech import tts
from callwright.speech.audio import FRAME_SAMPLES, PCM, PHONE_RATE, tone, ulaw_decode, ulaw_encode
from callwright.speech.vad import EnergyVAD

log = logging.getLogger(__name__)
FRAME = 0.02  # seconds
SILENCE_ULAW = b"\xff" * FRAME_SAMPLES

#: Human-ish timings (seconds of call time).
PICKUP_PATIENCE = 2.5  # the callee says hello if the agent has not spoken by then
THINKING_PAUSE = 0.3  # before answering, once the agent has stopped
GIVE_UP_AFTER = 15.0  # hang up when the agent neither talks nor hangs up (a loaded agent
# can take several seconds of call time to say goodbye: a busy 2-core CI box, 3 calls at once)
HANGS_UP_AT = 4.0  # the "hangs-up" persona
SILENT_HANGS_UP_AT = 45.0
VOICEMAIL_LISTENS = 30.0
INTERRUPT_AFTER = 1.0  # seconds into the agent's second turn


@dataclass
class Segment:
    speaker: Literal["agent", "callee"]
    start: float
    end: float
    text: str = ""


@dataclass
class CalleeReport:
    heard: PCM
    spoken: PCM
    segments: list[Segment]
    #: Callee's last word to the agent's first audio, per reply, as heard (seconds).
    latencies: list[float]
    #: Barge-in: callee starts talking over the agent until the agent's audio stops (seconds).
    yield_delays: list[float]
    hung_up_by: Literal["callee", "agent"]
    duration: float
    marks_echoed: int = 0
    clears: int = 0
    #: Late audio: 20 ms frames the carrier had to play with less than a frame of the agent's
    #: audio in hand, once its audio had started (its output streams without a break, quiet
    #: ambience between turns, so each one is a frame that came late: a gap the callee hears).
    late_frames: int = 0
    #: Wall-clock time (epoch s) of call time 0: call time t happened at started_at + t / speed.
    started_at: float = 0.0


@dataclass
class _Playback:
    """The carrier's outbound buffer: audio waits here until the clock plays it."""

    audio: bytearray = field(default_factory=bytearray)
    marks: list[tuple[int, str]] = field(default_factory=list)  # (bytes still ahead, name)


class SimulatedCallee:
    def __init__(
        self,
        persona: Persona,
        *,
        call_sid: str,
        account_sid: str,
        stream_url: str,
        parameters: dict[str, str],
        speed: float = 1.0,
        voice_name: str = "kal",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.persona = persona
        self.call_sid = call_sid
        self.account_sid = account_sid
        self.stream_url = stream_url
        self.parameters = parameters
        #: The upgrade request's headers (the network's X-Twilio-Signature).
        self.headers = headers or {}
        self.speed = max(0.1, speed)
        self.voice = tts.find(voice_name) or tts.default_voice()
        self.stream_sid = "MZ" + secrets.token_hex(16)
        self._hangup = asyncio.Event()
        self._closed_by_agent = False
        self._interrupted = False
        self.started_at = 0.0

    def hang_up_from_network(self) -> None:
        """The agent side ended the call through the REST API."""
        self._closed_by_agent = True
        self._hangup.set()

    async def _say(self, text: str) -> list[bytes]:
        pcm = await asyncio.to_thread(tts.synthesize, self.voice, text)
        return _frames(pcm)

    async def run(self) -> CalleeReport:
        heard: list[PCM] = []
        spoken: list[PCM] = []
        segments: list[Segment] = []
        latencies: list[float] = []
        yield_delays: list[float] = []
        playback = _Playback()
        counters = {"marks": 0, "clears": 0, "late": 0}
        async with websockets.connect(
            self.stream_url, max_size=2**20, additional_headers=self.headers
        ) as ws:
            await ws.send(
                json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"})
            )
            await ws.send(json.dumps(self._start_message()))
            reader = asyncio.create_task(self._read(ws, playback, counters))
            try:
                await self._converse(
                    ws, playback, heard, spoken, segments, latencies, yield_delays, counters
                )
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(
                        json.dumps(
                            {
                                "event": "stop",
                                "streamSid": self.stream_sid,
                                "stop": {"accountSid": self.account_sid, "callSid": self.call_sid},
                            }
                        )
                    )
        duration = len(heard) * FRAME
        return CalleeReport(
            heard=np.concatenate(heard) if heard else np.zeros(0, np.int16),
            spoken=np.concatenate(spoken) if spoken else np.zeros(0, np.int16),
            segments=segments,
            latencies=latencies,
            yield_delays=yield_delays,
            hung_up_by="agent" if self._closed_by_agent else "callee",
            duration=duration,
            marks_echoed=counters["marks"],
            clears=counters["clears"],
            late_frames=counters["late"],
            started_at=self.started_at,
        )

    def _start_message(self) -> dict[str, Any]:
        return {
            "event": "start",
            "sequenceNumber": "1",
            "streamSid": self.stream_sid,
            "start": {
                "streamSid": self.stream_sid,
                "accountSid": self.account_sid,
                "callSid": self.call_sid,
                "tracks": ["inbound"],
                "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1},
                "customParameters": dict(self.parameters),
            },
        }

    async def _read(self, ws: Any, playback: _Playback, counters: dict[str, int]) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                event = message.get("event")
                if event == "media":
                    playback.audio.extend(base64.b64decode(message["media"]["payload"]))
                elif event == "mark":
                    playback.marks.append((len(playback.audio), message["mark"]["name"]))
                elif event == "clear":
                    counters["clears"] += 1
                    playback.audio.clear()
                    for _, name in playback.marks:  # Twilio echoes the marks it dropped
                        await ws.send(
                            json.dumps(
                                {
                                    "event": "mark",
                                    "streamSid": self.stream_sid,
                                    "mark": {"name": name},
                                }
                            )
                        )
                        counters["marks"] += 1
                    playback.marks.clear()
        except websockets.ConnectionClosed:
            pass
        # The agent closed the media stream: for Twilio that ends the call.
        self._closed_by_agent = True
        self._hangup.set()

    async def _converse(
        self,
        ws: Any,
        playback: _Playback,
        heard: list[PCM],
        spoken: list[PCM],
        segments: list[Segment],
        latencies: list[float],
        yield_delays: list[float],
        counters: dict[str, int],
    ) -> None:
        persona = self.persona
        vad = EnergyVAD()
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.started_at = time.time()
        tick = 0
        mic: list[bytes] = []  # frames still to say
        saying = ""
        said_from = 0.0
        lines = list(persona.lines)
        agent_turns = 0
        agent_from: float | None = None
        last_loud = 0.0
        listen_since = 0.0  # when the callee last finished talking (latency origin)
        pending_latency = False
        reply_at: float | None = None
        done_at: float | None = None
        interrupt_started: float | None = None
        said_hello = False
        beep_sent = False
        heard_audio = False
        seq = 2

        while not self._hangup.is_set():
            now = tick * FRAME
            # 1. play one frame of the agent's audio (or the line's silence)
            chunk = bytes(playback.audio[:FRAME_SAMPLES]) if playback.audio else b""
            del playback.audio[: len(chunk)]
            if len(chunk) < FRAME_SAMPLES and heard_audio:
                counters["late"] += 1
            heard_audio = heard_audio or bool(chunk)
            for i in range(len(playback.marks)):
                ahead, name = playback.marks[i]
                playback.marks[i] = (ahead - len(chunk), name)
            while playback.marks and playback.marks[0][0] <= 0:
                _, name = playback.marks.pop(0)
                await ws.send(
                    json.dumps(
                        {"event": "mark", "streamSid": self.stream_sid, "mark": {"name": name}}
                    )
                )
                counters["marks"] += 1
            frame = ulaw_decode(chunk.ljust(FRAME_SAMPLES, b"\xff"))
            heard.append(frame)
            change = vad.feed(frame)
            if (vad.speaking or change == "start") and float(
                np.abs(frame.astype(np.int32)).mean()
            ) > 150:
                last_loud = now
            if change == "start":
                agent_from = now - vad.start_frames * FRAME
                if pending_latency:
                    latencies.append(max(0.0, agent_from - listen_since))
                    pending_latency = False
            elif change == "stop" and agent_from is not None:
                segments.append(Segment("agent", agent_from, last_loud + FRAME))
                agent_turns += 1
                agent_from = None
                if interrupt_started is not None:
                    yield_delays.append(max(0.0, last_loud + FRAME - interrupt_started))
                    interrupt_started = None
                reply_at = now + THINKING_PAUSE

            # 2. the persona decides
            if not mic:
                if saying:
                    segments.append(Segment("callee", said_from, now, saying))
                    listen_since = now
                    pending_latency = True
                    saying = ""
                    if not lines and persona.kind in ("person", "interrupts", "opts-out"):
                        done_at = now
                action = self._decide(
                    now,
                    persona,
                    vad.speaking,
                    agent_turns,
                    agent_from,
                    lines,
                    said_hello,
                    reply_at,
                    done_at,
                )
                if action == "hangup":
                    break
                if action == "beep" and not beep_sent:
                    beep_sent = True
                    mic = _frames(tone(1000, 0.5))
                    listen_since = now
                elif action in ("hello", "line", "interrupt"):
                    if action == "hello":
                        said_hello = True
                        text = persona.hello
                    elif action == "interrupt":
                        interrupt_started = now
                        text = persona.interruption
                    else:
                        text = lines.pop(0)
                    reply_at = None
                    mic = await self._say(text)
                    saying, said_from = text, now
                    pending_latency = False

            # 3. send one frame of the callee's voice (or silence)
            out = mic.pop(0) if mic else SILENCE_ULAW
            spoken.append(ulaw_decode(out))
            seq += 1
            await ws.send(
                json.dumps(
                    {
                        "event": "media",
                        "sequenceNumber": str(seq),
                        "streamSid": self.stream_sid,
                        "media": {
                            "track": "inbound",
                            "timestamp": str(int(now * 1000)),
                            "payload": base64.b64encode(out).decode(),
                        },
                    }
                )
            )

            tick += 1
            delay = started + tick * FRAME / self.speed - loop.time()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hangup.wait(), timeout=delay)
        if saying:
            segments.append(Segment("callee", said_from, tick * FRAME, saying))
        if agent_from is not None:
            segments.append(Segment("agent", agent_from, last_loud + FRAME))

    def _decide(
        self,
        now: float,
        p: Persona,
        agent_speaking: bool,
        agent_turns: int,
        agent_from: float | None,
        lines: list[str],
        said_hello: bool,
        reply_at: float | None,
        done_at: float | None,
    ) -> Literal["hello", "line", "interrupt", "beep", "hangup"] | None:
        """What to do now, or None to keep listening."""
        if p.kind == "voicemail":
            if not said_hello and now >= 0.3:
                return "hello"
            if said_hello and not agent_speaking:
                return "beep" if now < VOICEMAIL_LISTENS else "hangup"
            return None
        if p.kind == "silent":
            return "hangup" if now >= SILENT_HANGS_UP_AT else None
        if p.kind == "hangs-up":
            if not said_hello and now >= 0.5:
                return "hello"
            return "hangup" if now >= HANGS_UP_AT else None
        # person / interrupts / opts-out
        if (
            done_at is not None
            and not agent_speaking
            and now - max(done_at, reply_at or 0) > GIVE_UP_AFTER
        ):
            return "hangup"
        if not said_hello and agent_turns == 0 and agent_from is None and now >= PICKUP_PATIENCE:
            return "hello"
        if (
            p.kind == "interrupts"
            and p.interruption
            and agent_turns == 1
            and agent_from is not None
            and now - agent_from >= INTERRUPT_AFTER
            and not self._interrupted
        ):
            self._interrupted = True
            return "interrupt"
        if lines and reply_at is not None and now >= reply_at and not agent_speaking:
            return "line"
        return None


def _frames(pcm: PCM) -> list[bytes]:
    data = ulaw_encode(pcm)
    return [
        data[i : i + FRAME_SAMPLES].ljust(FRAME_SAMPLES, b"\xff")
        for i in range(0, len(data), FRAME_SAMPLES)
    ]


def callee_voice_for(agent_voice: str) -> str:
    """A voice the agent does not use, so the two sides are easy to tell apart (flite kal16 is
    the flite voice Whisper hears best)."""
    return "ryan" if agent_voice == "kal" else "kal"


__all__ = ["PHONE_RATE", "CalleeReport", "Segment", "SimulatedCallee", "callee_voice_for"]
