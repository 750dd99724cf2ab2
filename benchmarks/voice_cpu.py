"""CPU levers of the voice process, measured alone (docs/performance.md, "Session 18").

Run: .venv/bin/python benchmarks/voice_cpu.py [frames|whisper|all] [rounds]

- frames: the CPU an input audio frame costs crossing a pipeline of 13 processors (as many as a
  call's), with the call's TurnTimer observed through Pipecat's own worker observer (every push
  and every processed frame queued to it), through `TurnTimerObserver` (only the frames the
  timer reads), and with no observer at all. Process CPU per frame, µs.
- whisper: Whisper's CPU per segment, and the word error, on `stt_window.py`'s segments (the
  sandbox callees' lines and a few harder phrases, through the phone path), with the decoder
  attending to `stt.MEMORY_SECS` (Whisper's whole 30 s) against 15 s, alternated per segment. The
  OpenMP wait policy is the process's: run it again with `OMP_WAIT_POLICY=ACTIVE` (the
  libgomp default) to compare spinning threads with sleeping ones.

CPU time, not wall time, is the figure to compare on a shared box.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from loguru import logger
from pipecat.frames.frames import EndFrame, Frame, InputAudioRawFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.workers.runner import WorkerRunner
from stt_window import utterances
from voice_latency import _words, wer

from callwright.speech.audio import PHONE_RATE
from callwright.speech.stt import MEMORY_SECS, Transcriber
from callwright.voice_agent.contract import TurnTiming
from callwright.voice_agent.turn_timer import TurnTimer, TurnTimerObserver

PROCESSORS = 13
FRAMES = 3000


class _Pass(FrameProcessor):
    def __init__(self, last: asyncio.Event | None = None) -> None:
        super().__init__()
        self.seen = 0
        self.last = last

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if self.last is not None and isinstance(frame, InputAudioRawFrame):
            self.seen += 1
            if self.seen == FRAMES:
                self.last.set()
        await self.push_frame(frame, direction)


async def _frame_cost(observer: str) -> float:
    """Process CPU µs per 40 ms input frame through the pipeline."""
    done = asyncio.Event()

    async def on_turn(_timing: TurnTiming) -> None:
        return None

    timer = TurnTimer(0.3, on_turn)
    worker = PipelineWorker(
        Pipeline([*(_Pass() for _ in range(PROCESSORS - 1)), _Pass(done)]),
        params=PipelineParams(audio_in_sample_rate=PHONE_RATE),
        observers=[] if observer == "none" else [timer],
        idle_timeout_secs=None,
        enable_rtvi=False,
        enable_turn_tracking=False,
    )
    if observer == "TurnTimerObserver":
        worker._observer = TurnTimerObserver(timer)
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    running = asyncio.create_task(runner.run())
    await asyncio.sleep(0.3)
    audio = bytes(PHONE_RATE * 2 * 40 // 1000)
    started = time.process_time()
    for i in range(FRAMES):
        await worker.queue_frame(
            InputAudioRawFrame(audio=audio, sample_rate=PHONE_RATE, num_channels=1)
        )
        if i % 25 == 0:
            await asyncio.sleep(0)
    await done.wait()
    cpu = time.process_time() - started
    await worker.queue_frame(EndFrame())
    await running
    return 1e6 * cpu / FRAMES


async def frames(rounds: int) -> None:
    logger.remove()  # as in the voice process, where Pipecat logs warnings only
    ways = ("Pipecat's worker observer", "TurnTimerObserver", "none")
    cost: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(rounds):
        for way in ways:
            cost[way].append(await _frame_cost(way))
    print(f"CPU per input frame through {PROCESSORS} processors, {FRAMES} frames, {rounds} rounds")
    for way in ways:
        print(f"  observer {way:26}: median {statistics.median(cost[way]):6.1f} µs")


def whisper(rounds: int) -> None:
    policy = os.environ.get("OMP_WAIT_POLICY", "(unset)")
    options = (MEMORY_SECS, 15.0)
    with tempfile.TemporaryDirectory() as tmp:
        transcriber = Transcriber(Path(tmp) / "whisper-base")
        transcriber.load()
        clips = utterances()
        cpu: dict[float, list[float]] = {m: [] for m in options}
        errors: dict[float, list[int]] = {m: [0, 0, 0] for m in options}
        for r in range(rounds):
            for k, (text, pcm, persona) in enumerate(clips):
                for memory in options[k % 2 :] + options[: k % 2]:
                    transcriber.memory_secs = memory
                    before = transcriber.fallbacks
                    started = time.process_time()
                    heard = transcriber.transcribe(pcm, PHONE_RATE)
                    cpu[memory].append(time.process_time() - started)
                    if r == 0:
                        errors[memory][2] += transcriber.fallbacks - before
                        if persona:
                            e, n = wer(_words(text), _words(heard))
                            errors[memory][0] += e
                            errors[memory][1] += n
    print(f"Whisper, {len(clips)} segments, {rounds} rounds, OMP_WAIT_POLICY={policy}")
    for memory in options:
        e, n, fallbacks = errors[memory]
        print(
            f"  decoder memory {memory:4.0f} s: CPU per segment median "
            f"{statistics.median(cpu[memory]):.3f} s, mean {statistics.mean(cpu[memory]):.3f} s; "
            f"word error on the personas' lines {100 * e / max(n, 1):.1f} %; "
            f"redone in the 30 s window {fallbacks}"
        )


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} CPUs")
    if what in ("frames", "all"):
        asyncio.run(frames(rounds))
    if what in ("whisper", "all"):
        whisper(max(1, rounds // 3))
    print(f"load after: {os.getloadavg()[0]:.2f}")
