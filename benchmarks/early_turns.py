"""Turns ended too early: the agent answering in a callee's pause inside a sentence.

Run: .venv/bin/python benchmarks/early_turns.py [calls per strategy] [strategies] [-v]

Places sandbox calls at real time to `+15005550040`, a callee who stops for 1 s inside each of
its four lines ("Yes, I would like that, and my number is ... five five five, one two three
four."), alternating the turn-end strategies (CALLWRIGHT_TURN_END: `fixed` is the 0.4 s pause
after every VAD stop used before issue 31, `smart` the smart-turn model and the words,
voice_agent/turn_end.py). Per strategy it prints the pauses the callee made, how many the agent
talked into (the callee's `talked_over`: its first audio heard while the callee still had words
of the line to say), the heard latency of the replies after whole lines, and the word error of
what the agent transcribed. Default: 2 calls each, about 1 minute a call. -v prints each verdict of the smart strategy
(the pause it chose, the words' and the model's say, the transcript so far).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
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
from callwright.sandbox.numbers import SPECIAL
from callwright.speech import tts
from callwright.speech.scoring import edits
from callwright.voice_agent import turn_end

NUMBER = "+15005550040"
#: The offline brain asks the question, hears "interesting, tell me more", explains, and books:
#: the callee says all four of its lines.
PROMPT = (
    "Your name is Mike and you work for Acme Solar. Call homeowners to offer a free solar "
    "assessment. The assessment takes about twenty minutes. Would they like to book one this week?"
)


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def one_call(app: Any, done: dict[str, SandboxCall]) -> dict[str, Any]:
    """Place one call to the pausing callee; what its report and transcript say."""
    async for session in app.state.db.session():
        row = await app.state.calls.service.place(
            session,
            CallOrder(kind="cli", to_number=NUMBER, prompt=PROMPT, voice="joe", max_duration=3),
        )
        call_id = row.id
    call = await app.state.calls.flows.wait_finalized(call_id)
    async for session in app.state.db.session():
        lines = await calls.transcript(session, call_id)
    sandbox = done.get(call.carrier_call_id or "")
    if sandbox is None or sandbox.report is None:
        return {"status": call.status, "report": None}
    report = sandbox.report
    said = [s.text for s in report.segments if s.speaker == "callee" and s.text]
    pauses = sum(line.count("|") for line in SPECIAL[NUMBER].lines if _said(line, said))
    heard = " ".join(e.text for e in lines if e.speaker == "user")
    return {
        "status": call.status,
        "report": report,
        "pauses": pauses,
        "errors": edits(_words(" ".join(said)), _words(heard)),
        "words": len(_words(" ".join(said))),
    }


def _said(line: str, said: list[str]) -> bool:
    return " ".join(line.replace("|", " ").split()) in said


async def measure(app: Any, n_calls: int, modes: list[str], done: dict[str, SandboxCall]) -> None:
    await asyncio.to_thread(app.state.voice_engines.transcriber.load)
    await asyncio.to_thread(tts.warm_up, tts.default_voice())
    await asyncio.to_thread(turn_end.smart_turn(8000).load)
    results: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
    for i in range(n_calls):
        for mode in modes:
            os.environ["CALLWRIGHT_TURN_END"] = mode
            assert turn_end.mode() == mode
            result = await one_call(app, done)
            results[mode].append(result)
            report = result["report"]
            if report is None:
                print(f"{mode} call {i + 1}: no report ({result['status']})")
                continue
            print(
                f"{mode:5} call {i + 1}/{n_calls}: {result['status']}, {report.duration:.0f} s, "
                f"pauses {result['pauses']}, talked over {report.talked_over}, "
                f"heard {[round(x, 2) for x in report.latencies]}, "
                f"WER {result['errors']}/{result['words']}"
            )
    print()
    for mode, rows in results.items():
        _summary(mode, [r for r in rows if r["report"] is not None])


def _summary(mode: str, rows: list[dict[str, Any]]) -> None:
    pauses = sum(r["pauses"] for r in rows)
    early = sum(r["report"].talked_over for r in rows)
    heard = [x for r in rows for x in r["report"].latencies]
    errors = sum(r["errors"] for r in rows)
    words = sum(r["words"] for r in rows)
    median = statistics.median(heard) if heard else float("nan")
    print(
        f"{mode:5}: turns ended early {early} of {pauses} mid-sentence pauses ({len(rows)} calls); "
        f"heard latency p50 {median:.2f} s p90 {pct(heard, 0.9):.2f} s (n={len(heard)}); "
        f"word error {100 * errors / max(words, 1):.1f} % ({errors}/{words})"
    )


async def main(n_calls: int, modes: list[str], settings: Settings) -> None:
    app = create_app(settings)
    done: dict[str, SandboxCall] = {}

    async def remember(call: SandboxCall) -> None:
        done[call.sid] = call

    async def quiet(room: str, event: LiveEvent) -> None:
        return None

    app.state.sandbox.listeners.append(remember)
    app.state.calls.events.publish = quiet
    async with serving(app, settings.port):
        await measure(app, n_calls, modes, done)


if __name__ == "__main__":
    if "-v" in sys.argv:  # each verdict of the smart strategy
        sys.argv.remove("-v")
        logging.basicConfig(format="  %(message)s")
        logging.getLogger(turn_end.__name__).setLevel(logging.DEBUG)
    calls_n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    modes_arg = (sys.argv[2] if len(sys.argv) > 2 else "fixed,smart").split(",")
    run_fresh(lambda cfg: main(calls_n, modes_arg, cfg))
