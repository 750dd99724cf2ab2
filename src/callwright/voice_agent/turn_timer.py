"""The per-reply latency observer."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TranscriptionFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.observers.base_observer import BaseObserver, FrameProcessed, FramePushed
from pipecat.pipeline.worker_observer import WorkerObserver

from callwright.voice_agent.contract import TurnTiming


def _ms(start: float | None, end: float | None) -> int | None:
    return int((end - start) * 1000) if start is not None and end is not None else None


@dataclass
class _TurnClock:
    stopped_at: float | None = None
    transcript_at: float | None = None
    llm_at: float | None = None
    audio_at: float | None = None
    marks: dict[str, float] = field(default_factory=dict)


#: The frames TurnTimer reads; it ignores every other.
WATCHED = (
    VADUserStoppedSpeakingFrame,
    TranscriptionFrame,
    LLMTextFrame,
    LLMFullResponseStartFrame,
    BotStartedSpeakingFrame,
)


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


class TurnTimerObserver(WorkerObserver):
    """The pipeline worker's observer, for a TurnTimer alone: only the frames it reads are
    queued to it. Pipecat's own queues every frame pushed and every frame processed, by every
    processor, to each observer (a queue put and a task wake-up each, most of them audio
    frames): with the timer as the only observer that was about a third of the CPU a frame
    costs crossing the pipeline (docs/performance.md, "Session 18")."""

    def __init__(self, timer: TurnTimer) -> None:
        super().__init__(observers=[timer])

    async def on_push_frame(self, data: FramePushed) -> None:
        if isinstance(data.frame, WATCHED):
            await super().on_push_frame(data)

    async def on_process_frame(self, data: FrameProcessed) -> None:
        return  # the timer reads pushes only
