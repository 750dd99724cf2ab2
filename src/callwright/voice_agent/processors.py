"""Our Pipecat processors: the offline brain, the call closer, the Twilio serializer with marks,
the generated background ambience, and the turn timer."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pipecat.audio.mixers.base_audio_mixer import BaseAudioMixer
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    DataFrame,
    Frame,
    InputTransportMessageFrame,
    InterruptionFrame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    MixerControlFrame,
    OutputTransportMessageFrame,
    TranscriptionFrame,
    TTSAudioRawFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.observers.base_observer import BaseObserver, FramePushed
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor, FrameProcessorSetup
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.fastapi import (
    FastAPIWebsocketOutputTransport,
    FastAPIWebsocketParams,
    FastAPIWebsocketTransport,
)

from callwright.voice_agent.contract import TurnTiming
from callwright.voice_agent.policy import OfflinePolicy, Reply


@dataclass
class FinalReplyFrame(DataFrame):
    """Follows the last reply of the call: hang up once it has been heard."""


class MarkTwilioSerializer(TwilioFrameSerializer):
    """Twilio's serializer plus `mark` echoes (Pipecat's drops them): a mark comes back once the
    audio sent before it has played, which is how we know a goodbye was heard."""

    async def deserialize(self, data: str | bytes) -> Frame | None:
        # Most messages are media frames (50 a second): parse JSON here only for marks.
        text = data.decode() if isinstance(data, bytes) else data
        if '"mark"' not in text:
            return await super().deserialize(data)
        try:
            message = json.loads(text)
        except ValueError:
            return None
        if message.get("event") == "mark":
            return InputTransportMessageFrame(message=message)
        return await super().deserialize(data)


class _PacedOutput(FastAPIWebsocketOutputTransport):
    """Pipecat sends audio at twice real time (the carrier buffers and plays it at 1x). When the
    sandbox runs its call clock faster, the sending pace must speed up with it."""

    speed: float = 1.0

    async def setup(self, setup: FrameProcessorSetup) -> None:  # type: ignore[override]
        await super().setup(setup)
        self._send_interval = self._send_interval / self.speed  # type: ignore[assignment]  # Pipecat annotates it int, stores seconds


class CarrierTransport(FastAPIWebsocketTransport):
    """The websocket transport, with the output paced for the carrier's clock speed."""

    def __init__(
        self, websocket: Any, params: FastAPIWebsocketParams, *, speed: float = 1.0
    ) -> None:
        super().__init__(websocket, params)
        output = _PacedOutput(self, self._client, self._params, name=self._output_name)
        output.speed = max(1.0, speed)
        self._output = output


class OfflineBrain(FrameProcessor):
    """Answers each finished user turn with the offline policy (see policy.py). A voicemail
    message waits until the greeting and its beep are over: one quiet second after the last
    sound on the line."""

    VOICEMAIL_QUIET_SECONDS = 1.0

    def __init__(
        self, policy: OfflinePolicy, *, voicemail_message: bool = True, speed: float = 1.0
    ) -> None:
        super().__init__()
        self.policy = policy
        self.voicemail_message = voicemail_message
        self._speed = max(1.0, speed)
        self._voicemail: Reply | None = None
        self._voicemail_task: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame) and direction == FrameDirection.DOWNSTREAM:
            if self.policy.ended and self._voicemail is None:
                return
            if self._voicemail is None:
                reply = self.policy.respond(_last_user_text(frame))
                if reply.intent is not None and reply.intent.value == "voicemail":
                    self._voicemail = (
                        reply
                        if self.voicemail_message
                        else Reply("", end_call=True, intent=reply.intent)
                    )
                    await self._after_quiet()
                    return
                await self.say(reply)
            return
        if self._voicemail is not None:
            if isinstance(frame, VADUserStartedSpeakingFrame) and self._voicemail_task is not None:
                await self.cancel_task(self._voicemail_task)
                self._voicemail_task = None
            elif isinstance(frame, VADUserStoppedSpeakingFrame):
                await self._after_quiet()
        await self.push_frame(frame, direction)

    async def _after_quiet(self) -> None:
        if self._voicemail_task is not None:
            await self.cancel_task(self._voicemail_task)

        async def speak_when_quiet() -> None:
            await asyncio.sleep(self.VOICEMAIL_QUIET_SECONDS / self._speed)
            reply, self._voicemail = self._voicemail, None
            self._voicemail_task = None
            if reply is not None:
                await self.say(reply)

        self._voicemail_task = self.create_task(speak_when_quiet())

    async def cleanup(self) -> None:
        if self._voicemail_task is not None:
            await self.cancel_task(self._voicemail_task)
            self._voicemail_task = None
        await super().cleanup()

    async def say(self, reply: Reply) -> None:
        if reply.text:
            await self.push_frame(LLMFullResponseStartFrame())
            await self.push_frame(LLMTextFrame(reply.text))
            await self.push_frame(LLMFullResponseEndFrame())
        if reply.end_call:
            await self.push_frame(FinalReplyFrame())


def _last_user_text(frame: LLMContextFrame) -> str:
    for message in reversed(frame.context.get_messages()):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


class CallCloser(FrameProcessor):
    """Sits just before the output transport. After the final reply it waits until the output
    has sent every byte, puts a Twilio `mark` behind it and hangs up when the carrier echoes the
    mark (the goodbye has played; it is never clipped). New audio after a mark needs a new mark."""

    def __init__(
        self,
        hang_up: Callable[[], Awaitable[None]],
        *,
        stream_sid: str,
        on_reopened: Callable[[], None] | None = None,
        fallback_seconds: float = 15.0,
    ) -> None:
        super().__init__()
        self._hang_up = hang_up
        self._on_reopened = on_reopened or (lambda: None)
        self.stream_sid = stream_sid
        self._fallback = fallback_seconds
        self.closing = False
        self._mark: str | None = None
        self._marks = 0
        self._done = False
        self._fallback_task: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, FinalReplyFrame):
            self.closing = True
            self._arm_fallback()
            await self._send_mark()  # if nothing else is queued, this one ends the call
            return
        if isinstance(frame, InterruptionFrame) and self.closing and not self._done:
            # The callee talked over the goodbye: the call goes on, and the brain answers again.
            self.closing = False
            self._mark = None
            if self._fallback_task is not None:
                await self.cancel_task(self._fallback_task)
                self._fallback_task = None
            self._on_reopened()
        if isinstance(frame, TTSAudioRawFrame) and self._mark is not None:
            self._mark = None  # more audio after the mark: wait for the next one
        if isinstance(frame, BotStoppedSpeakingFrame) and self.closing and self._mark is None:
            await self._send_mark()
        if isinstance(frame, InputTransportMessageFrame) and frame.message.get("event") == "mark":
            name = frame.message.get("mark", {}).get("name")
            if self.closing and name == self._mark:
                await self._finish()
            return
        await self.push_frame(frame, direction)

    async def _send_mark(self) -> None:
        self._marks += 1
        self._mark = f"goodbye-{self._marks}"
        await self.push_frame(
            OutputTransportMessageFrame(
                message={
                    "event": "mark",
                    "streamSid": self.stream_sid,
                    "mark": {"name": self._mark},
                }
            )
        )

    def _arm_fallback(self) -> None:
        async def fallback() -> None:
            await asyncio.sleep(self._fallback)
            await self._finish()

        if self._fallback_task is None:
            self._fallback_task = self.create_task(fallback())

    async def cleanup(self) -> None:
        if self._fallback_task is not None:
            await self.cancel_task(self._fallback_task)
            self._fallback_task = None
        await super().cleanup()

    async def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        await self._hang_up()


#: Background ambience (generated, never recorded clips): level in dBFS and texture.
AMBIENCE: dict[str, tuple[float, str]] = {
    "null": (-48.0, "static"),
    "office": (-40.0, "office"),
    "cafe": (-36.0, "cafe"),
    "restaurant": (-33.0, "restaurant"),
}


class AmbienceMixer(BaseAudioMixer):
    """Mixes generated ambience under the agent: quiet phone static by default, or office,
    cafe and restaurant textures (filtered noise with occasional keyboard clicks or clinks)."""

    def __init__(self, kind: str, seed: int = 7) -> None:
        self.kind = kind
        self._rng = np.random.default_rng(seed)
        self._rate = 8000
        self._state = 0.0
        self._enabled = kind in AMBIENCE

    async def start(self, sample_rate: int) -> None:
        self._rate = sample_rate

    async def stop(self) -> None:
        return None

    async def process_frame(self, frame: MixerControlFrame) -> None:
        return None

    def _noise(self, n: int) -> np.ndarray:
        level_db, texture = AMBIENCE[self.kind]
        white = self._rng.normal(0, 1, n)
        if texture == "static":
            noise = white
        else:
            # brown-ish noise for room tone (a leaky integrator), babble-like for crowds
            out = np.empty(n)
            state = self._state
            leak = 0.98 if texture == "office" else 0.9
            for i in range(n):
                state = leak * state + white[i] * (1 - leak) * 6
                out[i] = state
            self._state = state
            noise = out
            events = {"office": 0.004, "cafe": 0.002, "restaurant": 0.003}[texture]
            if self._rng.random() < events * n / 160:
                start = int(self._rng.integers(0, max(1, n - 40)))
                click = self._rng.normal(0, 4, min(40, n - start)) * np.exp(
                    -np.arange(min(40, n - start)) / 6
                )
                noise[start : start + len(click)] += click
        rms = float(np.sqrt(np.mean(noise**2))) or 1.0
        return noise / rms * (10 ** (level_db / 20)) * 32767

    async def mix(self, audio: bytes) -> bytes:
        if not self._enabled or not audio:
            return audio
        pcm = np.frombuffer(audio, dtype=np.int16).astype(np.float64)
        mixed = pcm + self._noise(len(pcm))
        out: bytes = np.clip(mixed, -32768, 32767).astype(np.int16).tobytes()
        return out


def _ms(start: float | None, end: float | None) -> int | None:
    return int((end - start) * 1000) if start is not None and end is not None else None


@dataclass
class _TurnClock:
    stopped_at: float | None = None
    transcript_at: float | None = None
    llm_at: float | None = None
    audio_at: float | None = None
    marks: dict[str, float] = field(default_factory=dict)


class TurnTimer(BaseObserver):
    """Per reply: end-of-speech detection (the VAD's silence window), STT, LLM first text, TTS
    first audio and the total from the callee's last word to the agent's first audio sent."""

    def __init__(self, stop_secs: float, on_turn: Callable[[TurnTiming], Awaitable[None]]) -> None:
        super().__init__()
        self._stop_secs = stop_secs
        self._on_turn = on_turn
        self._clock = _TurnClock()
        self._turns = 0
        self._seen: set[int] = set()

    async def on_push_frame(self, data: FramePushed) -> None:
        frame = data.frame
        if frame.id in self._seen:
            return
        now = time.perf_counter()
        c = self._clock
        if isinstance(frame, VADUserStoppedSpeakingFrame):
            self._seen.add(frame.id)
            self._clock = _TurnClock(stopped_at=now)
        elif isinstance(frame, TranscriptionFrame) and c.stopped_at and c.transcript_at is None:
            self._seen.add(frame.id)
            c.transcript_at = now
        elif (
            isinstance(frame, (LLMTextFrame, LLMFullResponseStartFrame))
            and c.transcript_at
            and c.llm_at is None
        ):
            self._seen.add(frame.id)
            c.llm_at = now
        elif isinstance(frame, BotStartedSpeakingFrame) and c.llm_at and c.audio_at is None:
            self._seen.add(frame.id)
            c.audio_at = now
            self._turns += 1
            eos = self._stop_secs
            spoken_end = c.stopped_at - eos if c.stopped_at else None
            timing = TurnTiming(
                turn=self._turns,
                end_of_speech_ms=int(eos * 1000),
                stt_ms=_ms(c.stopped_at, c.transcript_at),
                llm_ms=_ms(c.transcript_at, c.llm_at),
                tts_ms=_ms(c.llm_at, c.audio_at),
                total_ms=_ms(spoken_end, c.audio_at),
            )
            await self._on_turn(timing)
