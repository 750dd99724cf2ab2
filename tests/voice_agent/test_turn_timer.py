"""TurnTimer (an observer) under Pipecat's run_test: one timing per reply, measured from the
VAD stop through the transcript, the brain's first text and the agent's first audio."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    EndFrame,
    Frame,
    InputAudioRawFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TranscriptionFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.observers.base_observer import FramePushed
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.tests.utils import SleepFrame, run_test
from pipecat.workers.runner import WorkerRunner

from callwright.voice_agent.contract import TurnTiming
from callwright.voice_agent.turn_timer import TurnTimer, TurnTimerObserver

STOP_SECS = 0.3
STT, LLM, TTS = 0.1, 0.05, 0.08
# The observer stamps a frame when a processor pushes it, a little after the test's source sent
# it; on a loaded machine that lag moves a stage's boundary (one stage loses what the next
# gains: 54 + 76 ms for 50 + 80 ms in one CI run). Each stage is checked to within it.
LAG_MS = 15


class PassThrough(FrameProcessor):
    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)


def _reply(text: str) -> list[Frame]:
    return [
        VADUserStoppedSpeakingFrame(),
        SleepFrame(sleep=STT),
        TranscriptionFrame(text, "callee", "2024-01-01T00:00:00Z"),
        SleepFrame(sleep=LLM),
        LLMFullResponseStartFrame(),
        LLMTextFrame("Great."),
        SleepFrame(sleep=TTS),
        BotStartedSpeakingFrame(),
        SleepFrame(sleep=0.02),
    ]


async def _timings(frames: list[Frame]) -> list[TurnTiming]:
    timings: list[TurnTiming] = []

    async def on_turn(timing: TurnTiming) -> None:
        timings.append(timing)

    # Two processors: every frame is pushed (and observed) several times, counted once.
    await run_test(
        PassThrough(),
        frames_to_send=frames,
        observers=[TurnTimer(STOP_SECS, on_turn)],
    )
    return timings


async def test_one_timing_per_reply_with_each_stage() -> None:
    (timing,) = await _timings(_reply("yes"))
    assert timing.turn == 1
    assert timing.end_of_speech_ms == 300
    assert timing.stt_ms is not None
    assert timing.stt_ms >= STT * 1000 - LAG_MS
    assert timing.llm_ms is not None
    assert timing.llm_ms >= LLM * 1000 - LAG_MS
    assert timing.tts_ms is not None
    assert timing.tts_ms >= TTS * 1000 - LAG_MS
    # The stages follow each other: together they span the three sleeps, less a lag at most.
    assert timing.stt_ms + timing.llm_ms + timing.tts_ms >= (STT + LLM + TTS) * 1000 - LAG_MS
    # From the callee's last word (the VAD stop less its silence window) to the first audio.
    assert timing.total_ms is not None
    stages = timing.end_of_speech_ms + timing.stt_ms + timing.llm_ms + timing.tts_ms
    assert 0 <= timing.total_ms - stages <= 3


async def test_turns_are_numbered_and_a_greeting_is_not_a_reply() -> None:
    greeting = [LLMFullResponseStartFrame(), SleepFrame(sleep=0.02), BotStartedSpeakingFrame()]
    timings = await _timings([*greeting, SleepFrame(sleep=0.02), *_reply("yes"), *_reply("no")])
    assert [t.turn for t in timings] == [1, 2]


async def test_speech_without_a_transcript_or_reply_is_not_timed() -> None:
    frames: list[Frame] = [
        VADUserStoppedSpeakingFrame(),  # a cough: no transcript follows
        SleepFrame(sleep=0.05),
        BotStartedSpeakingFrame(),
        SleepFrame(sleep=0.02),
        VADUserStoppedSpeakingFrame(),
        SleepFrame(sleep=0.02),
        TranscriptionFrame("hello", "callee", "2024-01-01T00:00:00Z"),
        SleepFrame(sleep=0.02),
        BotStartedSpeakingFrame(),  # audio with no new brain text is not this turn's reply
        SleepFrame(sleep=0.02),
    ]
    assert await _timings(frames) == []


class CountingTimer(TurnTimer):
    """A TurnTimer that also counts the pushes it is given, by frame type."""

    def __init__(self, on_turn: Callable[[TurnTiming], Awaitable[None]]) -> None:
        super().__init__(STOP_SECS, on_turn)
        self.given: dict[str, int] = {}

    async def on_push_frame(self, data: FramePushed) -> None:
        name = type(data.frame).__name__
        self.given[name] = self.given.get(name, 0) + 1
        await super().on_push_frame(data)


async def test_the_worker_observer_hands_the_timer_only_the_frames_it_reads() -> None:
    """As the call session wires it: the callee's audio crosses the pipeline without being
    queued to the timer, and the reply is still timed."""
    timings: list[TurnTiming] = []

    async def on_turn(timing: TurnTiming) -> None:
        timings.append(timing)

    timer = CountingTimer(on_turn)
    worker = PipelineWorker(
        Pipeline([PassThrough(), PassThrough()]),
        params=PipelineParams(audio_in_sample_rate=8000),
        observers=[timer],
        idle_timeout_secs=None,
        enable_rtvi=False,
        enable_turn_tracking=False,
    )
    worker._observer = TurnTimerObserver(timer)
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    running = asyncio.create_task(runner.run())
    audio = InputAudioRawFrame(audio=bytes(640), sample_rate=8000, num_channels=1)
    await worker.queue_frames([audio, VADUserStoppedSpeakingFrame()])
    await asyncio.sleep(STT)
    await worker.queue_frame(TranscriptionFrame("yes", "callee", "2024-01-01T00:00:00Z"))
    await asyncio.sleep(LLM)
    await worker.queue_frames([LLMFullResponseStartFrame(), LLMTextFrame("Great.")])
    await asyncio.sleep(TTS)
    await worker.queue_frame(BotStartedSpeakingFrame())
    for _ in range(500):  # the timer's queue is worked on its own task
        if timings:
            break
        await asyncio.sleep(0.01)
    await worker.queue_frame(EndFrame())
    await asyncio.wait_for(running, 10)
    assert [t.turn for t in timings] == [1]
    assert timings[0].stt_ms is not None
    assert "InputAudioRawFrame" not in timer.given
    assert set(timer.given) <= {
        "VADUserStoppedSpeakingFrame",
        "TranscriptionFrame",
        "LLMFullResponseStartFrame",
        "LLMTextFrame",
        "BotStartedSpeakingFrame",
    }
