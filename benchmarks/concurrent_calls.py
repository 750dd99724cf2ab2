"""How many calls one voice process holds: a ramp of simultaneous sandbox calls.

Run: .venv/bin/python benchmarks/concurrent_calls.py [steps] [waves]

`steps` is the ramp, comma-separated (default 1,2,4,6,8); each step places that many calls at
once, `waves` times (default 1), at real time, to the sandbox's talking callees, and waits for
them to end. Three processes, as in production with a real carrier:
- this one: the API role (places the calls, takes the carrier's status callbacks, runs the
  jobs) and the sandbox network with its simulated callees, which measure what they hear;
- `callwright voice`: the media websockets and the calls' pipelines (STT, brain, TTS), and
  nothing else: its CPU time, read from /proc, is the agent's cost alone.
The database is a SQLite file both processes share (or CALLWRIGHT_DATABASE_URL); jobs and
realtime events go through Redis (CALLWRIGHT_BENCH_REDIS_URL, default redis://127.0.0.1:6379/11,
flushed before and after).

Per step it prints the agent's latency as the callee heard it (last word to the agent's first
audio) p50/p90, the word error of what the agent transcribed against what the callees said,
the voice process's CPU seconds per agent call-minute, and late audio: the 20 ms frames the
carrier had to play without a frame of the agent's audio in hand (the agent's output streams
without a break, so each is a gap the callee hears), per thousand frames; from the voice
process's log, Whisper runs per call, speculative guesses used and dropped, and sentences
spoken with how many came from the speech cache; then the agent's own stages per reply (STT
after the VAD stop, the brain, TTS to first audio), to tell where a slow reply's time went;
and this process's CPU per call-minute (the API and the simulated callees share the cores).
Target on the 2-core machine: 4 calls at once with the heard latency p90 at or under 1.5 s.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis.asyncio as aioredis
from alembic import command
from api_load import cpu_seconds
from voice_latency import pct

from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.sandbox.network import SandboxCall
from callwright.speech.scoring import edits, words

ROOT = Path(__file__).resolve().parents[1]
PROMPTS = [
    "You are Sarah from Bright Dental. You are calling to remind the customer about their cleaning appointment tomorrow at 3 pm. Ask if the time still works for them.",
    "Your name is Mike and you work for Acme Solar. Call homeowners to offer a free solar assessment. The assessment takes about twenty minutes. Would they like to book one this week?",
]
# Talking callees: the digits pick the scenario (docs/sandbox.md).
NUMBERS = ["+15551230000", "+15551230004", "+15551230003", "+15551230001", "+15551230002"]


@dataclass
class Step:
    calls: int
    heard: list[float] = field(default_factory=list)
    edits: int = 0
    words: int = 0
    call_seconds: float = 0.0
    cpu: float = 0.0
    #: This process's CPU seconds (the API role and the sandbox's callees): the two cores
    #: the agents' share with.
    callee_cpu: float = 0.0
    frames: int = 0
    late: int = 0
    ended: dict[str, int] = field(default_factory=dict)
    #: Whisper runs, guesses used and dropped, sentences spoken and of those from the speech
    #: cache, from the voice process's log.
    log_counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    #: The agent's own per-reply stages (ms): STT after the VAD stop, LLM, TTS first audio.
    stages: dict[str, list[float]] = field(
        default_factory=lambda: {"stt": [], "llm": [], "tts": []}
    )

    def line(self) -> str:
        minutes = self.call_seconds / 60
        p50, p90 = (pct(self.heard, 0.5), pct(self.heard, 0.9)) if self.heard else (0.0, 0.0)
        return (
            f"{self.calls:>5} | {p50:6.2f} | {p90:6.2f} | "
            f"{len(self.heard):>7} | {100 * self.edits / max(self.words, 1):6.1f} | "
            f"{self.cpu / max(minutes, 1e-9):11.1f} | {1000 * self.late / max(self.frames, 1):8.1f} | "
            f"{self.log_counts[0] / max(self.calls, 1):7.1f} | {self.log_counts[1]:>4} / {self.log_counts[2]:<4} | "
            f"{self.log_counts[4]:>3} / {self.log_counts[3]:<3} | "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.ended.items()))
        )

    def stages_line(self) -> str:
        """The agent's stages, p50 / p90 / max in ms: where a slow reply's time went."""
        parts = [
            f"{name} {pct(v, 0.5):.0f} / {pct(v, 0.9):.0f} / {max(v):.0f}"
            for name, v in self.stages.items()
            if v
        ]
        minutes = max(self.call_seconds / 60, 1e-9)
        return (
            "      agent stages ms (p50 / p90 / max): "
            + ", ".join(parts)
            + f"\n      this process (API, sandbox callees): {self.callee_cpu / minutes:.1f}"
            " CPU s per call-minute"
        )


async def wave(app: Any, n: int, offset: int, done: dict[str, SandboxCall], step: Step) -> None:
    ids = []
    for i in range(n):
        async for session in app.state.db.session():
            row = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="cli",
                    to_number=NUMBERS[(offset + i) % len(NUMBERS)],
                    prompt=PROMPTS[(offset + i) % len(PROMPTS)],
                    voice="joe",
                    max_duration=3,
                ),
            )
            ids.append(row.id)
    finished = await asyncio.gather(
        *(app.state.calls.flows.wait_finalized(i, within=400, poll=0.5) for i in ids)
    )
    for call in finished:
        step.ended[call.status] = step.ended.get(call.status, 0) + 1
        sandbox = done.get(call.carrier_call_id or "")
        if sandbox is None or sandbox.report is None:
            continue
        report = sandbox.report
        step.heard += report.latencies
        step.call_seconds += report.duration
        step.frames += round(report.duration / 0.02)
        step.late += report.late_frames
        async for session in app.state.db.session():
            lines = await calls.transcript(session, call.id)
            for turn in await calls.latencies(session, call.id):
                for name, ms in (("stt", turn.stt_ms), ("llm", turn.llm_ms), ("tts", turn.tts_ms)):
                    if ms is not None:
                        step.stages[name].append(ms)
        script = [s.text for s in report.segments if s.speaker == "callee" and s.text]
        transcribed = [e.text for e in lines if e.speaker == "user"]
        step.edits += edits(words(" ".join(script)), words(" ".join(transcribed)))
        step.words += len(words(" ".join(script)))


CALL_LOG_LINE = re.compile(
    r"speech-to-text: (\d+) transcriptions, guesses (\d+) used, (\d+) dropped"
    r"(?:; text-to-speech: (\d+) sentences, (\d+) from the cache)?"
)


BATCHES = re.compile(r"transcription runs by batch size (\{[^}]*\})")


def batches_so_far(log: Path) -> str:
    """The voice process's transcription runs by batch size, as its last call logged them."""
    found = BATCHES.findall(log.read_text(errors="replace"))
    return found[-1] if found else "{}"


def log_size(log: Path) -> int:
    return log.stat().st_size


def call_log_counts(log: Path, since: int) -> list[int]:
    """Whisper runs, guesses used, guesses dropped, sentences spoken, sentences from the speech
    cache: the calls' lines after byte `since`."""
    with log.open("rb") as file:
        file.seek(since)
        text = file.read().decode(errors="replace")
    totals = [0, 0, 0, 0, 0]
    for match in CALL_LOG_LINE.finditer(text):
        totals = [t + int(v or 0) for t, v in zip(totals, match.groups(), strict=True)]
    return totals


async def main(steps: list[int], waves: int, settings: Settings, voice_pid: int, log: Path) -> None:
    app = create_app(settings)
    done: dict[str, SandboxCall] = {}

    async def remember(call: SandboxCall) -> None:
        done[call.sid] = call

    app.state.sandbox.listeners.append(remember)
    print(f"ramp {steps}, {waves} wave(s) per step, voice process {voice_pid}")
    knobs = (
        "CALLWRIGHT_SPEECH_CACHE_MB",
        "CALLWRIGHT_STT_BATCH",
        "CALLWRIGHT_STT_THREADS",
        "CALLWRIGHT_TURN_END",
    )
    print("settings: " + ", ".join(f"{k}={os.environ.get(k, '(default)')}" for k in knobs))
    print(
        "calls | p50 s  | p90 s  | replies | WER %  | CPU s/min   | late/1000 | "
        "STT/call | guesses used / dropped | TTS cached / said | ended"
    )
    results = []
    async with serving(app.state.realtime.wrap(app), settings.port):
        for n in steps:
            step = Step(n)
            for w in range(waves):
                before, logged = cpu_seconds(voice_pid), log_size(log)
                own = cpu_seconds(os.getpid())
                await wave(app, n, w * n, done, step)
                step.cpu += cpu_seconds(voice_pid) - before
                step.callee_cpu += cpu_seconds(os.getpid()) - own
                await asyncio.sleep(0.5)  # the calls' last log lines
                counts = call_log_counts(log, logged)
                step.log_counts = [a + b for a, b in zip(step.log_counts, counts, strict=True)]
            print(step.line(), flush=True)
            print(step.stages_line(), flush=True)
            print(f"      Whisper runs by batch size, process so far: {batches_so_far(log)}")
            results.append(step)
    met = [s.calls for s in results if s.heard and pct(s.heard, 0.9) <= 1.5]
    print(f"most calls at once with the heard p90 <= 1.5 s: {max(met) if met else 0}")


def _voice_env(settings: Settings) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "CALLWRIGHT_ENV": "test",
        "CALLWRIGHT_DATA_DIR": str(settings.data_dir),
        "CALLWRIGHT_DATABASE_URL": settings.database_url,
        "CALLWRIGHT_SECRET_KEY": settings.secret_key,
        "CALLWRIGHT_APP_URL": settings.app_url,
        "CALLWRIGHT_MEDIA_URL": settings.media_url,
        "CALLWRIGHT_JOB_BROKER_URL": settings.job_broker_url,
        "CALLWRIGHT_REDIS_URL": settings.redis_url,
        "CALLWRIGHT_SANDBOX_SPEED": "1",
        "CALLWRIGHT_WARM_UP_VOICE": "true",
    }


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the voice process stopped:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    sys.exit("the voice process did not warm up within 3 minutes")


async def _flush(url: str) -> None:
    client = aioredis.from_url(url)
    await client.flushdb()
    await client.aclose()


def run(steps: list[int], waves: int) -> None:
    redis_url = os.environ.get("CALLWRIGHT_BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
    asyncio.run(_flush(redis_url))
    with tempfile.TemporaryDirectory() as tmp:
        api_port, voice_port = free_port(), free_port()
        settings = Settings(
            env="test",
            data_dir=Path(tmp),
            database_url=os.environ.get(
                "CALLWRIGHT_DATABASE_URL", f"sqlite+aiosqlite:///{tmp}/bench.db"
            ),
            app_url=f"http://127.0.0.1:{api_port}",
            media_url=f"http://127.0.0.1:{voice_port}",
            port=api_port,
            secret_key="benchmark-secret-key-0123456789abcdef",
            sandbox_speed=1.0,
            host_calls=False,
            job_broker_url=redis_url,
            redis_url=redis_url,
            warm_up_voice=False,
            frontend_dist=Path(tmp) / "none",
        )
        command.upgrade(_alembic_config(settings), "head")
        log = Path(tmp) / "voice.log"
        with log.open("wb") as out:
            voice = subprocess.Popen(  # noqa: S603 - our own CLI
                [
                    sys.executable,
                    "-c",
                    "from callwright.cli import app; app()",
                    "voice",
                    "--port",
                    str(voice_port),
                ],
                env=_voice_env(settings),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            _wait_healthy(settings.media_url, voice, log)
            started = time.perf_counter()
            asyncio.run(main(steps, waves, settings, voice.pid, log))
            print(f"wall time {time.perf_counter() - started:.0f} s")
        finally:
            voice.send_signal(signal.SIGTERM)
            try:
                voice.wait(timeout=20)
            except subprocess.TimeoutExpired:
                voice.kill()
            asyncio.run(_flush(redis_url))


if __name__ == "__main__":
    ramp = [int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "1,2,4,6,8").split(",")]
    run(ramp, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
