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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import websockets

from callwright.lab.evaluate import said_in
from callwright.sandbox.keys import KeyDetector
from callwright.sandbox.noise import NoiseBed
from callwright.sandbox.numbers import Persona, pressed_in
from callwright.sandbox.persona_llm import MAX_REPLIES, Hear, PersonaLLM, Reply, Speaker
from callwright.sandbox.phone_menu import MAX_REPEATS, NO_CHOICE, MenuWalker
from callwright.speech import tts
from callwright.speech.audio import FRAME_SAMPLES, PCM, PHONE_RATE, tone, ulaw_decode, ulaw_encode
from callwright.speech.vad import EnergyVAD

log = logging.getLogger(__name__)
FRAME = 0.02  # seconds
SILENCE_ULAW = b"\xff" * FRAME_SAMPLES

#: Human-ish timings (seconds of call time).
PICKUP_PATIENCE = 2.5  # the callee says hello if the agent has not spoken by then
THINKING_PAUSE = 0.3  # before answering, once the agent has stopped
#: Seconds of call time a callee with answers waits for the agent's words to be made out
#: before it answers without them (its next line).
HEAR_WAIT_S = 4.0
GIVE_UP_AFTER = 15.0  # hang up when the agent neither talks nor hangs up (a loaded agent
# can take several seconds of call time to say goodbye: a busy 2-core CI box, 3 calls at once)
HANGS_UP_AT = 4.0  # the "hangs-up" persona
SILENT_HANGS_UP_AT = 45.0
VOICEMAIL_LISTENS = 30.0
INTERRUPT_AFTER = 1.0  # seconds into the agent's second turn
MENU_STARTS_AT = 0.5  # the phone menu (IVR) starts talking once answered
MENU_PATIENCE = 15.0  # without a key this long after the menu, the IVR says it again


@dataclass
class Segment:
    #: "person": a transfer target the callee was joined with; "network": a TwiML <Say>.
    speaker: Literal["agent", "callee", "person", "network"]
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
    #: Times the agent began talking while the callee was in the middle of a line (a turn
    #: ended too early, in a pause inside a sentence; benchmarks/early_turns.py).
    talked_over: int = 0
    #: The persona's lines it had not said yet when the stream ended.
    unsaid: tuple[str, ...] = ()
    #: The network ended the stream to run new TwiML (a call update): the call goes on.
    redirected: bool = False
    #: The keys heard in the agent's audio (its DTMF tones), and those the callee pressed.
    keys_heard: list[str] = field(default_factory=list)
    keys_pressed: list[str] = field(default_factory=list)
    #: On the IVR: the person the agent's keys reached (None: it never got through).
    reached: str | None = None


@dataclass
class _Playback:
    """The carrier's outbound buffer: audio waits here until the clock plays it."""

    audio: bytearray = field(default_factory=bytearray)
    marks: list[tuple[int, str]] = field(default_factory=list)  # (bytes still ahead, name)


#: The personas that hold a conversation and are done once their lines are said (the IVR too,
#: once its keys reached a person).
TALKERS = ("person", "interrupts", "opts-out", "wants-a-person", "presses-keys")
#: A frame the callee said and a frame it heard, as 8 kHz mu-law.
Tap = Callable[[bytes, bytes], Awaitable[None]]


@dataclass
class _Conversation:
    """One call as the callee lives it: what it heard and said (the report's material), what it
    still has to say, and where the turn-taking stands (times in seconds of call time)."""

    lines: list[str]
    #: How long it waits before answering, once the agent has stopped (the persona's).
    thinking: float = THINKING_PAUSE
    heard: list[PCM] = field(default_factory=list)
    spoken: list[PCM] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    yield_delays: list[float] = field(default_factory=list)
    counters: dict[str, int] = field(
        default_factory=lambda: {"marks": 0, "clears": 0, "late": 0, "talked_over": 0}
    )
    vad: EnergyVAD = field(default_factory=EnergyVAD)
    mic: list[bytes] = field(default_factory=list)  # frames still to say
    saying: str = ""
    said_from: float = 0.0
    agent_turns: int = 0
    agent_from: float | None = None
    last_loud: float = 0.0
    listen_since: float = 0.0  # when the callee last finished talking (latency origin)
    pending_latency: bool = False
    reply_at: float | None = None
    done_at: float | None = None
    interrupt_started: float | None = None
    said_hello: bool = False
    beep_sent: bool = False
    heard_audio: bool = False
    #: The agent's keys (DTMF tones in its audio), heard and not yet acted on.
    detector: KeyDetector = field(default_factory=KeyDetector)
    new_keys: list[str] = field(default_factory=list)
    keys_at: float = 0.0
    #: Keys the callee presses (sent as Media Streams `dtmf` messages with its next frame).
    presses: list[str] = field(default_factory=list)
    pressed: list[str] = field(default_factory=list)
    #: On the IVR: where the agent's keys have led, and how often the menu was said unanswered.
    walker: MenuWalker | None = None
    menu_repeats: int = 0
    #: A free-text persona's writer (None: the scripted lines), its next line on the way (for
    #: the agent's turns so far: `asked_at`), the agent's words per turn (by the turn's start,
    #: each heard once the turn is over), the lines it wrote, and whether its part is over.
    writer: PersonaLLM | None = None
    writing: asyncio.Task[Reply | None] | None = None
    asked_at: int = 0
    hearing: dict[float, asyncio.Task[str]] = field(default_factory=dict)
    written: int = 0
    written_all: bool = False
    #: Answers by the kind of question not said yet ((words, line)), and how the callee makes
    #: out the agent's words for them (set only together: without ears, lines in order).
    answers: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    ears: Hear | None = None

    @property
    def in_menu(self) -> bool:
        return self.walker is not None and self.walker.desk is None

    def more(self) -> bool:
        """Whether the callee has more to say: its LLM part is not over, or lines are left."""
        if self.writer is not None:
            return not self.written_all
        return bool(self.lines) or bool(self.answers)

    def dialogue(self) -> list[tuple[Speaker, str]]:
        """The call so far, in spoken order: the callee's lines and the agent's words."""
        said = sorted(
            (s for s in self.segments if s.speaker in ("agent", "callee")), key=lambda s: s.start
        )
        return [
            ("agent", self.heard_at(s.start)) if s.speaker == "agent" else ("callee", s.text)
            for s in said
        ]

    def heard_at(self, start: float) -> str:
        """The agent's words in its turn from `start`, as heard ("" before, or not made out)."""
        task = self.hearing.get(start)
        if task is None or not task.done() or task.cancelled() or task.exception():
            return ""
        return task.result()

    def agent_audio(self, segment: Segment) -> PCM:
        """What the callee heard of one of the agent's turns."""
        frames = self.heard[int(segment.start / FRAME) : int(segment.end / FRAME) + 1]
        return np.concatenate(frames) if frames else np.zeros(0, np.int16)

    def listen(self, frame: PCM, now: float) -> None:
        """A frame of the agent's audio heard: when the agent starts and stops talking."""
        self.heard.append(frame)
        if key := self.detector.feed(frame):
            self.new_keys.append(key)
            self.keys_at = now
        change = self.vad.feed(frame)
        if (self.vad.speaking or change == "start") and (
            float(np.abs(frame.astype(np.int32)).mean()) > 150
        ):
            self.last_loud = now
        if change == "start":
            self.agent_from = now - self.vad.start_frames * FRAME
            if self.mic:  # the agent began while the callee was mid-line (in a pause)
                self.counters["talked_over"] += 1
            if self.pending_latency:
                self.latencies.append(max(0.0, self.agent_from - self.listen_since))
                self.pending_latency = False
        elif change == "stop" and self.agent_from is not None:
            self.segments.append(Segment("agent", self.agent_from, self.last_loud + FRAME))
            self.agent_turns += 1
            self.agent_from = None
            if self.interrupt_started is not None:
                # The agent stopped for the callee's interruption: its answer comes next, and
                # the callee waits for it before its next line.
                self.yield_delays.append(max(0.0, self.last_loud + FRAME - self.interrupt_started))
                self.interrupt_started = None
                self.reply_at = None
                return
            self.reply_at = now + self.thinking

    def done_saying(self, now: float, *, ends_after_lines: bool) -> None:
        """The callee's words ran out: the line is a segment and the agent's reply is awaited."""
        if not self.saying:
            return
        self.segments.append(Segment("callee", self.said_from, now, self.saying))
        self.listen_since = now
        self.pending_latency = True
        self.saying = ""
        if not self.more() and ends_after_lines:
            self.done_at = now

    def finish(self, now: float) -> None:
        """The call ended: what either side was saying is a segment too."""
        if self.saying:
            self.segments.append(Segment("callee", self.said_from, now, self.saying))
        if self.agent_from is not None:
            self.segments.append(Segment("agent", self.agent_from, self.last_loud + FRAME))


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
        tap: Tap | None = None,
        writer: PersonaLLM | None = None,
        ears: Hear | None = None,
    ) -> None:
        self.persona = persona
        #: The LLM that writes a free-text persona's lines (None: none is configured).
        self.writer = writer
        #: How it makes out the agent's words for its answers (None: its lines in order).
        self.ears = ears
        #: The noise under its voice (none: clean).
        self.noise = NoiseBed(persona.noise)
        self.call_sid = call_sid
        self.account_sid = account_sid
        self.stream_url = stream_url
        self.parameters = parameters
        #: The upgrade request's headers (the network's X-Twilio-Signature).
        self.headers = headers or {}
        #: Called with each 20 ms frame the callee says and hears (the call's listening forks).
        self.tap = tap
        self._left = False
        self.speed = max(0.1, speed)
        self.voice = tts.find(voice_name) or tts.default_voice()
        self.stream_sid = "MZ" + secrets.token_hex(16)
        self._hangup = asyncio.Event()
        self._closed_by_agent = False
        self._interrupted = False
        self.started_at = 0.0
        #: The stream's `sequenceNumber` (Twilio counts every message after `connected`,
        #: from 1) and `media.chunk` (from 1); the lock keeps the numbers in sending order.
        self._seq = 0
        self._chunk = 0
        self._sending = asyncio.Lock()

    def hang_up_from_network(self) -> None:
        """The agent side ended the call through the REST API."""
        self._closed_by_agent = True
        self._hangup.set()

    def leave(self) -> None:
        """The network moves the call elsewhere (a call update with new TwiML): the stream
        gets `stop` and closes, and the callee stays on the line."""
        self._left = True
        self._hangup.set()

    async def _say(self, text: str) -> list[bytes]:
        """The line's audio; a "|" in it is a pause of the persona's `pauses` seconds."""
        parts = [part.strip() for part in text.split("|")]
        if len(parts) == 1:
            return _frames(await asyncio.to_thread(tts.synthesize, self.voice, text))
        # The voice's own silence at the ends of each part is cut, so the pause is as long
        # as the persona says.
        said = [await asyncio.to_thread(tts.synthesize, self.voice, part) for part in parts]
        gap = np.zeros(round(self.persona.pauses * PHONE_RATE), np.int16)
        pcm = [_trimmed(said[0], start=False)]
        for part in said[1:]:
            pcm += [gap, _trimmed(part, start=True, end=part is not said[-1])]
        return _frames(np.concatenate(pcm))

    async def run(self) -> CalleeReport:
        playback = _Playback()
        talk = _Conversation(lines=list(self.persona.lines), thinking=self.persona.thinking)
        if self.persona.menu is not None:
            talk.walker = MenuWalker(self.persona.menu)
        if self.persona.persona:
            talk.writer = self.writer
            if self.writer is None:
                log.warning("sandbox call %s: no LLM for its persona: its lines", self.call_sid)
        if self.persona.answers and self.ears is not None:
            talk.answers, talk.ears = list(self.persona.answers), self.ears
        async with websockets.connect(
            self.stream_url, max_size=2**20, additional_headers=self.headers
        ) as ws:
            await ws.send(
                json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"})
            )
            await self._send(ws, self._start_message())
            reader = asyncio.create_task(self._read(ws, playback, talk.counters))
            try:
                await self._converse(ws, playback, talk)
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
                # A persona's lines still being written, its turns still being heard: dropped
                # (a wait, so that what one of them raised is not raised here).
                asking = [t for t in (talk.writing, *talk.hearing.values()) if t is not None]
                for task in asking:
                    task.cancel()
                if asking:
                    await asyncio.wait(asking)
                    _ = [t.exception() for t in asking if not t.cancelled()]  # logged already
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self._send(ws, self._stop_message())
        return self._report(talk)

    def _report(self, talk: _Conversation) -> CalleeReport:
        return CalleeReport(
            heard=np.concatenate(talk.heard) if talk.heard else np.zeros(0, np.int16),
            spoken=np.concatenate(talk.spoken) if talk.spoken else np.zeros(0, np.int16),
            segments=talk.segments,
            latencies=talk.latencies,
            yield_delays=talk.yield_delays,
            hung_up_by="agent" if self._closed_by_agent else "callee",
            duration=len(talk.heard) * FRAME,
            marks_echoed=talk.counters["marks"],
            clears=talk.counters["clears"],
            late_frames=talk.counters["late"],
            started_at=self.started_at,
            talked_over=talk.counters["talked_over"],
            unsaid=tuple(talk.lines),
            redirected=self._left,
            keys_heard=list(talk.detector.heard),
            keys_pressed=list(talk.pressed),
            reached=talk.walker.desk.name if talk.walker and talk.walker.desk else None,
        )

    def _start_message(self) -> dict[str, Any]:
        return {
            "event": "start",
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

    def _stop_message(self) -> dict[str, Any]:
        return {
            "event": "stop",
            "streamSid": self.stream_sid,
            "stop": {"accountSid": self.account_sid, "callSid": self.call_sid},
        }

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        """A Media Streams message, numbered as Twilio numbers them."""
        async with self._sending:
            self._seq += 1
            numbered = {"event": message["event"], "sequenceNumber": str(self._seq)}
            await ws.send(json.dumps(numbered | message))

    async def _send_mark(self, ws: Any, name: str, counters: dict[str, int]) -> None:
        await self._send(
            ws, {"event": "mark", "streamSid": self.stream_sid, "mark": {"name": name}}
        )
        counters["marks"] += 1

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
                        await self._send_mark(ws, name, counters)
                    playback.marks.clear()
        except websockets.ConnectionClosed:
            pass
        # The agent closed the media stream: for Twilio that ends the stream's verb (and the
        # call, when no TwiML follows it).
        self._closed_by_agent = True
        self._hangup.set()

    async def _converse(self, ws: Any, playback: _Playback, talk: _Conversation) -> None:
        """The call's clock, a 20 ms frame a tick: the callee hears a frame of the agent, decides
        (when it is not saying something already), and sends a frame of its own voice."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.started_at = time.time()
        tick = 0
        while not self._hangup.is_set():
            now = tick * FRAME
            try:
                heard = await self._hear(ws, playback, talk, now)
                if talk.in_menu and talk.new_keys:
                    talk.mic.clear()  # a phone menu stops talking when a key is pressed
                if not talk.mic and not await self._turn(talk, now):
                    break
                said = await self._speak(ws, talk, now)
            except websockets.ConnectionClosedOK:
                # The app closed the stream cleanly while a frame was on its way: as the
                # reader's end of the socket, the stream's verb is over (an abnormal close
                # still raises: the media host is gone).
                self._closed_by_agent = True
                break
            if self.tap is not None:
                await self.tap(said, heard)
            tick += 1
            delay = started + tick * FRAME / self.speed - loop.time()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hangup.wait(), timeout=delay)
        talk.finish(tick * FRAME)

    async def _hear(self, ws: Any, playback: _Playback, talk: _Conversation, now: float) -> bytes:
        """Play one frame of the agent's audio (or the line's silence), echo the marks it
        passed, and listen to it; the frame heard."""
        chunk = bytes(playback.audio[:FRAME_SAMPLES]) if playback.audio else b""
        del playback.audio[: len(chunk)]
        if len(chunk) < FRAME_SAMPLES and talk.heard_audio:
            talk.counters["late"] += 1
        talk.heard_audio = talk.heard_audio or bool(chunk)
        for i in range(len(playback.marks)):
            ahead, name = playback.marks[i]
            playback.marks[i] = (ahead - len(chunk), name)
        while playback.marks and playback.marks[0][0] <= 0:
            _, name = playback.marks.pop(0)
            await self._send_mark(ws, name, talk.counters)
        frame = chunk.ljust(FRAME_SAMPLES, b"\xff")
        talk.listen(ulaw_decode(frame), now)
        return frame

    async def _turn(self, talk: _Conversation, now: float) -> bool:
        """The persona, done saying its last words, decides; False when it hangs up."""
        talking = self.persona.kind in TALKERS or (talk.walker is not None and not talk.in_menu)
        talk.done_saying(now, ends_after_lines=talking)
        if talk.writer is not None:
            self._ask_ahead(talk)
        elif talk.ears is not None:
            _hear_turns(talk, talk.ears)
        action = (
            self._menu_turn(now, talk) if talk.in_menu else self._decide(now, self.persona, talk)
        )
        if action == "hangup":
            return False
        if action == "beep" and not talk.beep_sent:
            talk.beep_sent = True
            talk.mic = _frames(tone(1000, 0.5))
            talk.listen_since = now
        elif action in ("hello", "line", "interrupt"):
            if action == "hello":
                talk.said_hello = True
                text = self.persona.hello
            elif action == "interrupt":
                talk.interrupt_started = now
                text = self.persona.interruption
            elif (line := self._next_line(talk, now)) is not None:
                text = line
            else:
                return True  # its next line is still being written
            talk.reply_at = None
            if key := pressed_in(text):
                talk.presses.append(key)
                talk.mic = []
            else:
                talk.mic = await self._say(text)
            talk.saying, talk.said_from = " ".join(text.replace("|", " ").split()), now
            talk.pending_latency = False
        return True

    async def _speak(self, ws: Any, talk: _Conversation, now: float) -> bytes:
        """Send the keys the callee presses (Twilio's `dtmf` messages), then one frame of its
        voice (or silence); the frame sent."""
        for key in talk.presses:
            dtmf = {"track": "inbound_track", "digit": key}
            await self._send(ws, {"event": "dtmf", "streamSid": self.stream_sid, "dtmf": dtmf})
            talk.pressed.append(key)
        talk.presses.clear()
        out = talk.mic.pop(0) if talk.mic else SILENCE_ULAW
        if self.noise.kind != "none":
            out = ulaw_encode(self.noise.under(ulaw_decode(out)))
        talk.spoken.append(ulaw_decode(out))
        self._chunk += 1
        media = {
            "track": "inbound",
            "chunk": str(self._chunk),
            "timestamp": str(int(now * 1000)),
            "payload": base64.b64encode(out).decode(),
        }
        await self._send(ws, {"event": "media", "streamSid": self.stream_sid, "media": media})
        return out

    def _menu_turn(self, now: float, talk: _Conversation) -> Literal["line", "hangup"] | None:
        """The IVR: its menu once answered; the agent's keys (once its tones are over) lead on,
        to another menu, a closed department or a person (a talking callee from then on);
        without a key for a while, the menu again, and a hang-up after a few times."""
        walker = talk.walker
        assert walker is not None
        if not talk.said_hello:
            if now < MENU_STARTS_AT:
                return None
            talk.said_hello = True
            talk.lines = [walker.top.prompt]
            return "line"
        if talk.vad.speaking:
            return None
        # Keys are acted on once their tones are over (the energy VAD heard them stop: the
        # detector hears a key before the VAD starts), so a person reached hears the agent next.
        if talk.new_keys and (talk.last_loud > talk.keys_at or now - talk.keys_at > 1.0):
            keys, talk.new_keys = talk.new_keys, []
            said = walker.press(keys)
            talk.menu_repeats = 0
            talk.lines = list(walker.desk.lines) if walker.desk else [said]
            talk.done_at = None
            return "line"
        if now - max(talk.listen_since, talk.last_loud) > MENU_PATIENCE:
            talk.menu_repeats += 1
            if talk.menu_repeats > MAX_REPEATS:
                return "hangup"
            talk.lines = [f"{NO_CHOICE} {walker.at.prompt}"]
            return "line"
        return None

    def _decide(
        self, now: float, p: Persona, talk: _Conversation
    ) -> Literal["hello", "line", "interrupt", "beep", "hangup"] | None:
        """What to do now, or None to keep listening."""
        agent_speaking = talk.vad.speaking
        if p.kind == "voicemail":
            if not talk.said_hello and now >= 0.3:
                return "hello"
            if talk.said_hello and not agent_speaking:
                return "beep" if now < VOICEMAIL_LISTENS else "hangup"
            return None
        if p.kind == "silent":
            return "hangup" if now >= SILENT_HANGS_UP_AT else None
        if p.kind == "hangs-up":
            if not talk.said_hello and now >= 0.5:
                return "hello"
            return "hangup" if now >= HANGS_UP_AT else None
        # person / interrupts / opts-out
        if (
            talk.done_at is not None
            and not agent_speaking
            and now - max(talk.done_at, talk.reply_at or 0) > GIVE_UP_AFTER
        ):
            return "hangup"
        if (
            not talk.said_hello
            and talk.agent_turns == 0
            and talk.agent_from is None
            and now >= PICKUP_PATIENCE
        ):
            return "hello"
        if (
            p.kind == "interrupts"
            and p.interruption
            and talk.agent_turns == 1
            and talk.agent_from is not None
            and now - talk.agent_from >= INTERRUPT_AFTER
            and not self._interrupted
        ):
            self._interrupted = True
            return "interrupt"
        if (
            talk.more()
            and talk.reply_at is not None
            and now >= talk.reply_at
            and not agent_speaking
        ):
            return "line"
        return None

    # --- a free-text persona, its lines written by the LLM (sandbox.persona_llm) -------------

    def _ask_ahead(self, talk: _Conversation) -> None:
        """Each of the agent's turns is heard (transcribed) once it is over; then the callee's
        next line is asked for at once (the LLM writes while the callee thinks); a turn of the
        agent's after the question asks again."""
        writer = talk.writer
        assert writer is not None
        _hear_turns(talk, writer.hear)
        if talk.written_all or talk.vad.speaking or talk.agent_from is not None:
            return
        if talk.agent_turns <= talk.asked_at:
            return
        if talk.writing is not None:
            talk.writing.cancel()
        talk.asked_at = talk.agent_turns
        talk.writing = asyncio.create_task(self._write(talk))

    async def _write(self, talk: _Conversation) -> Reply | None:
        """The callee's next line from the LLM, having heard the agent's new turns (None: the
        LLM failed, logged)."""
        writer = talk.writer
        assert writer is not None
        try:
            if talk.hearing:  # a wait, not a gather: asking again must not cancel the hearing
                await asyncio.wait(list(talk.hearing.values()))
            return await writer.reply(self.persona.persona, talk.dialogue())
        except Exception as exc:
            log.warning("sandbox call %s: the LLM wrote no line: %s", self.call_sid, exc)
            return None

    def _next_line(self, talk: _Conversation, now: float) -> str | None:
        """The callee's next line: its next scripted one, or the LLM's once written (None: not
        yet). When the LLM failed, a scripted line; none left, the callee is done."""
        if talk.writer is None:
            return _answer_or_line(talk, now) if talk.ears is not None else talk.lines.pop(0)
        if talk.writing is None or not talk.writing.done():
            return None
        reply, talk.writing = talk.writing.result(), None
        if reply is None:
            if talk.lines:
                return talk.lines.pop(0)
            talk.written_all, talk.done_at = True, now
            return None
        talk.written += 1
        talk.written_all = reply.done or talk.written >= MAX_REPLIES
        return reply.text


def _hear_turns(talk: _Conversation, hear: Hear) -> None:
    """Each of the agent's turns is made out once it is over (a task per turn, by its start)."""
    for segment in talk.segments:
        if segment.speaker == "agent" and segment.start not in talk.hearing:
            audio = talk.agent_audio(segment)
            talk.hearing[segment.start] = asyncio.create_task(hear(audio))


def _answer_or_line(talk: _Conversation, now: float) -> str | None:
    """The answer the agent's words since the callee last spoke ask for, else the next line
    (None: those words are still being made out, for at most HEAR_WAIT_S; or nothing is left
    to say, and the callee is done)."""
    since = max((s.end for s in talk.segments if s.speaker == "callee"), default=-1.0)
    turns = [s for s in talk.segments if s.speaker == "agent" and s.start >= since]
    waiting = [t for t in turns if t.start in talk.hearing and not talk.hearing[t.start].done()]
    if waiting and now - turns[-1].end < HEAR_WAIT_S:
        return None
    heard = " ".join(talk.heard_at(t.start) for t in turns)
    index = answer_for([when for when, _ in talk.answers], heard)
    if index is not None:
        return talk.answers.pop(index)[1]
    if talk.lines:
        return talk.lines.pop(0)
    talk.answers, talk.done_at = [], now
    return None


def answer_for(answers: Sequence[Sequence[str]], heard: str) -> int | None:
    """The first answer one of whose words the agent's turn `heard` holds, as whole words,
    case and punctuation aside, as the lab's judge reads a phrase (None: none)."""
    for index, when in enumerate(answers):
        if any(said_in(words, heard) for words in when):
            return index
    return None


def _frames(pcm: PCM) -> list[bytes]:
    data = ulaw_encode(pcm)
    return [
        data[i : i + FRAME_SAMPLES].ljust(FRAME_SAMPLES, b"\xff")
        for i in range(0, len(data), FRAME_SAMPLES)
    ]


def _trimmed(pcm: PCM, *, start: bool = True, end: bool = True) -> PCM:
    """`pcm` without the silence at its start and end (either can be kept)."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > 200)
    if not len(loud):
        return pcm
    return pcm[loud[0] if start else 0 : loud[-1] + 1 if end else len(pcm)]


def callee_voice_for(agent_voice: str) -> str:
    """A voice the agent does not use, so the two sides are easy to tell apart (flite kal16 is
    the flite voice Whisper hears best)."""
    return "ryan" if agent_voice == "kal" else "kal"


__all__ = ["PHONE_RATE", "CalleeReport", "Segment", "SimulatedCallee", "callee_voice_for"]
