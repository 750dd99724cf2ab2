"""Whisper across calls: n segments one at a time against n segments in one batch.

Run: .venv/bin/python benchmarks/stt_batch.py [rounds] [threads,...]

The sandbox callees' lines (flite kal, through the phone path: 8 kHz mu-law, with the silence a
VAD segment carries) are transcribed by the product's `Transcriber` (Whisper base int8, fitted
windows, greedy), n at a time for n = 1, 2, 4, 8: once one after the other (`transcribe`, what
a process did before the transcription queue) and once as one batch (`transcribe_batch`, what
speech/stt_queue.py does when n segments wait together), alternated in each round so that
other work on the box falls on both alike. Prints, per thread count and n, the median wall time
and process CPU time per segment, and whether both ways heard the same words. CPU time is the
figure to trust on a shared box; wall time is what a waiting call feels. About a minute a round.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from callwright.sandbox.numbers import SCENARIOS
from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE, ulaw_decode, ulaw_encode
from callwright.speech.stt import Transcriber

SIZES = (1, 2, 4, 8)


def segments() -> list[np.ndarray]:
    voice = tts.find("kal") or tts.default_voice()
    lines = list(dict.fromkeys(line for p in SCENARIOS for line in p.lines))[:8]
    before, after = np.zeros(5600, np.int16), np.zeros(5000, np.int16)
    return [
        np.concatenate([before, ulaw_decode(ulaw_encode(tts.synthesize(voice, line))), after])
        for line in lines
    ]


def clocked(run: object) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()  # type: ignore[operator]
    return time.perf_counter() - wall, time.process_time() - cpu, out


def measure(transcriber: Transcriber, pcms: list[np.ndarray], rounds: int) -> None:
    figures: dict[tuple[str, int], list[tuple[float, float]]] = {}
    same = dict.fromkeys(SIZES, True)
    for _ in range(rounds):
        for n in SIZES:
            batch = pcms[:n]
            w1, c1, one = clocked(
                lambda b=batch: [transcriber.transcribe(p, PHONE_RATE) for p in b]
            )
            w2, c2, many = clocked(lambda b=batch: transcriber.transcribe_batch(b, PHONE_RATE))
            figures.setdefault(("one at a time", n), []).append((w1 / n, c1 / n))
            figures.setdefault(("batch", n), []).append((w2 / n, c2 / n))
            same[n] = same[n] and one == many
    for n in SIZES:
        alone = figures[("one at a time", n)]
        together = figures[("batch", n)]
        print(
            f"  n={n}: per segment, one at a time wall {statistics.median(w for w, _ in alone):.3f} s"
            f" CPU {statistics.median(c for _, c in alone):.3f} s | batch wall "
            f"{statistics.median(w for w, _ in together):.3f} s CPU "
            f"{statistics.median(c for _, c in together):.3f} s | same words: {same[n]}"
        )


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    threads = [int(t) for t in (sys.argv[2] if len(sys.argv) > 2 else "2,1").split(",")]
    pcms = segments()
    print(f"{len(pcms)} segments, {rounds} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        for n in threads:
            transcriber = Transcriber(Path(tmp) / "whisper-base", threads=n)
            transcriber.load()
            transcriber.transcribe(pcms[0], PHONE_RATE)  # warm
            print(f"Whisper threads {n}:")
            measure(transcriber, pcms, rounds)
