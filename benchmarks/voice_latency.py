"""Voice-to-voice latency of sandbox calls, as the callee hears it.

Run: .venv/bin/python benchmarks/voice_latency.py [calls] [speed]

Places N sandbox calls (at real time by default) to talking callees and prints:
- p50 / p90 latency from the callee's last word to the agent's first audio, measured on what the
  callee heard (the carrier's real-time playback);
- the agent's stages per reply: end-of-speech detection (the VAD's silence window), STT, brain
  (LLM or offline policy) first text, TTS first audio;
- CPU seconds used per minute of call;
- the word error rate of the callee transcript (what STT heard) against the callee's script.
Targets on the 2-core machine with the offline engines: p50 <= 1.0 s, p90 <= 1.5 s, WER <= 10 %.
"""

from __future__ import annotations

import asyncio
import re
import resource
import statistics
import sys
from typing import Any

from fresh_app import run_fresh

from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.serving import serving
from callwright.main import create_app
from callwright.realtime.events import LiveEvent
from callwright.sandbox.network import SandboxCall
from callwright.speech import tts
from callwright.speech.scoring import edits
from callwright.voice_agent import turn_end

PROMPTS = [
    "You are Sarah from Bright Dental. You are calling to remind the customer about their cleaning appointment tomorrow at 3 pm. Ask if the time still works for them.",
    "Your name is Mike and you work for Acme Solar. Call homeowners to offer a free solar assessment. The assessment takes about twenty minutes. Would they like to book one this week?",
]
# Talking callees: the digits pick the scenario (docs/sandbox.md).
NUMBERS = ["+15551230000", "+15551230004", "+15551230003", "+15551230001", "+15551230002"]


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split()


def wer(reference: list[str], hypothesis: list[str]) -> tuple[int, int]:
    """(edits, reference length): word-level Levenshtein distance."""
    return edits(reference, hypothesis), len(reference)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def main(n_calls: int, speed: float, settings: Settings) -> None:
    app = create_app(settings)
    done: dict[str, SandboxCall] = {}

    async def remember(call: SandboxCall) -> None:
        done[call.sid] = call

    async def quiet(room: str, event: LiveEvent) -> None:
        return None

    app.state.sandbox.listeners.append(remember)
    app.state.calls.events.publish = quiet
    async with serving(app, settings.port):
        await _measure(app, n_calls, speed, settings, done)


async def _measure(
    app: Any, n_calls: int, speed: float, settings: Settings, done: dict[str, SandboxCall]
) -> None:
    await asyncio.to_thread(app.state.voice_engines.transcriber.load)
    await asyncio.to_thread(tts.warm_up, tts.default_voice())
    await asyncio.to_thread(turn_end.smart_turn(8000).load)

    heard: list[float] = []
    stages: dict[str, list[float]] = {
        "end_of_speech": [],
        "stt": [],
        "brain": [],
        "tts": [],
        "agent_total": [],
    }
    edits = words = talked_over = 0
    call_seconds = 0.0
    cpu_start = _cpu()
    for i in range(n_calls):
        async for session in app.state.db.session():
            row = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="cli",  # placed as `callwright call` places them
                    to_number=NUMBERS[i % len(NUMBERS)],
                    prompt=PROMPTS[i % len(PROMPTS)],
                    voice="joe",
                    max_duration=3,
                ),
            )
            call_id = row.id
        call = await app.state.calls.flows.wait_finalized(call_id)
        async for session in app.state.db.session():
            lines = await calls.transcript(session, call_id)
            timings = await calls.latencies(session, call_id)
        sandbox = done.get(call.carrier_call_id or "")
        if sandbox is None or sandbox.report is None:
            print(f"call {i + 1}: no report ({call.status})")
            continue
        report = sandbox.report
        call_seconds += report.duration
        heard += report.latencies
        talked_over += report.talked_over
        for t in timings:
            for key, value in (
                ("end_of_speech", t.end_of_speech_ms),
                ("stt", t.stt_ms),
                ("brain", t.llm_ms),
                ("tts", t.tts_ms),
                ("agent_total", t.total_ms),
            ):
                if value is not None:
                    stages[key].append(value / 1000)
        script = [s.text for s in report.segments if s.speaker == "callee" and s.text]
        transcribed = [e.text for e in lines if e.speaker == "user"]
        e, n = wer(_words(" ".join(script)), _words(" ".join(transcribed)))
        edits += e
        words += n
        print(
            f"call {i + 1}/{n_calls} to {sandbox.to}: {call.status}, {report.duration:.0f} s, "
            f"{len(report.latencies)} replies, heard latency {[round(x, 2) for x in report.latencies]}, "
            f"WER {e}/{n}"
        )
    cpu = _cpu() - cpu_start

    print()
    print(
        f"voice-to-voice latency as heard (n={len(heard)}): p50 {pct(heard, 0.5):.2f} s   p90 {pct(heard, 0.9):.2f} s"
    )
    for key, values in stages.items():
        if values:
            print(
                f"  {key:14} median {statistics.median(values):.2f} s   p90 {pct(values, 0.9):.2f} s"
            )
    minutes = call_seconds / 60 * speed
    print(
        f"CPU: {cpu:.1f} s for {call_seconds / 60:.1f} call minutes = {cpu / max(minutes, 1e-9):.1f} CPU s per call minute (whole process: agent and simulated callee)"
    )
    print(
        f"callee transcript word error rate: {100 * edits / max(words, 1):.1f} % ({edits}/{words} words)"
    )
    print(
        f"segments Whisper did again in its 30 s window: {app.state.voice_engines.transcriber.fallbacks}"
    )
    print(f"turns ended early (the agent began while the callee was mid-line): {talked_over}")


if __name__ == "__main__":
    calls_n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    speed_arg = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    run_fresh(lambda cfg: main(calls_n, speed_arg, cfg), sandbox_speed=speed_arg)
