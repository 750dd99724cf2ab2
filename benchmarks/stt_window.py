"""Whisper's cost per segment, by option: encoder window, threads, beam, the beam retry, memory.

Run: .venv/bin/python benchmarks/stt_window.py [rounds]

Transcribes a fixed set of utterances as the agent hears them on a sandbox call: every callee
line of the sandbox personas (src/callwright/sandbox/numbers.py) and a few harder phrases,
spoken by the two callee voices, through the phone path (8 kHz, mu-law), with the silence a
VAD segment carries (the pre-roll before the VAD's start, the quiet that triggers the
speculative guess and Pipecat's trailing silence). Each utterance is transcribed with every
option in turn (a different one first each time) before the next utterance, so background load falls on the options
alike. Prints per option the median and p90 wall time, the median CPU time (the process's, so
less sensitive to other work on the machine), the word error rate and how many fitted-window
results fell back to the 30 s window; and the 1-minute load before and after.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from voice_latency import _words, pct, wer

from callwright.sandbox.numbers import SCENARIOS, SPECIAL
from callwright.speech import tts
from callwright.speech.audio import PCM, PHONE_RATE, ulaw_decode, ulaw_encode
from callwright.speech.stt import MEMORY_SECS, RETRY_BEAM_SIZE, Transcriber

#: Callee voices (callee.callee_voice_for).
VOICES = ("kal", "ryan")
#: What a VAD segment carries around the words: about 1 s of pre-roll minus the VAD's start
#: window before, and the speculative guess's 0.12 s of quiet plus Pipecat's 0.5 s of trailing
#: silence after.
LEAD_SECS = 0.7
TAIL_SECS = 0.62
EXTRA = (
    "My number is five five five, one two three, four five six seven.",
    "Can we do Thursday at ten thirty instead?",
    "Please send it to jane dot doe at example dot com.",
    "Yes.",
    "No, that's fine.",
    "I already spoke to Dr. Patel about it last week, and she said the cleaning could wait "
    "until after the holidays, so I would rather not book anything before January.",
)


@dataclass(frozen=True)
class Option:
    name: str
    threads: int
    window_pad: float | None
    min_window: float = 0.0
    beam_size: int = 1
    #: The beam of the second decode of a fitted window whose greedy result looks wrong (1: none,
    #: straight to the 30 s window, as before session 24).
    retry_beam: int = RETRY_BEAM_SIZE
    #: Seconds of encoder output the decoder attends to.
    memory: float = MEMORY_SECS


OPTIONS = (
    Option("30 s window, 2 threads", 2, None),
    Option("fitted +2 s, min 5 s, 2 threads", 2, 2.0, 5.0),
    Option("fitted +2 s, min 8 s, 2 threads", 2, 2.0, 8.0),
    Option("... no beam retry", 2, 2.0, 8.0, retry_beam=1),
    Option("... memory 20 s", 2, 2.0, 8.0, memory=20.0),
    Option("fitted +2 s, min 8 s, 1 thread", 1, 2.0, 8.0),
    Option("fitted +2 s, min 8 s, beam 5", 2, 2.0, 8.0, 5),
)


def utterances() -> list[tuple[str, PCM, bool]]:
    """(the words, the segment's audio at 8 kHz, whether the line is a sandbox persona's)."""
    lines = {line for p in (*SCENARIOS, *SPECIAL.values()) for line in p.lines}
    lines |= {p.interruption for p in SPECIAL.values() if p.interruption}
    lines |= {p.hello for p in (*SCENARIOS, *SPECIAL.values())}
    lead = np.zeros(round(LEAD_SECS * PHONE_RATE), np.int16)
    tail = np.zeros(round(TAIL_SECS * PHONE_RATE), np.int16)
    out = []
    for text in sorted(lines) + list(EXTRA):
        persona = text in lines
        for name in VOICES:
            voice = tts.find(name) or tts.default_voice()
            pcm = tts.synthesize(voice, text, PHONE_RATE)
            heard = ulaw_decode(ulaw_encode(pcm))  # the carrier's mu-law leg
            out.append((text, np.concatenate([lead, heard, tail]), persona))
    return out


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(rounds: int) -> None:
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        models = {
            n: Transcriber(Path(tmp) / "whisper-base", threads=n)
            for n in {o.threads for o in OPTIONS}
        }
        for t in models.values():
            t.load()
        clips = utterances()
        seconds = [len(pcm) / PHONE_RATE for _, pcm, _ in clips]
        print(
            f"{len(clips)} segments, {min(seconds):.1f} to {max(seconds):.1f} s "
            f"(median {statistics.median(seconds):.1f} s), {rounds} round(s)"
        )
        wall: dict[Option, list[float]] = {o: [] for o in OPTIONS}
        cpu: dict[Option, list[float]] = {o: [] for o in OPTIONS}
        # [persona edits, persona words, extra edits, extra words]
        errors: dict[Option, list[int]] = {o: [0, 0, 0, 0] for o in OPTIONS}
        fallbacks: dict[Option, int] = dict.fromkeys(OPTIONS, 0)
        misheard: dict[Option, list[str]] = {o: [] for o in OPTIONS}
        turn = 0
        for r in range(rounds):
            for text, pcm, persona in clips:
                # A different option goes first each time, so none always follows the slow one.
                turn += 1
                k = turn % len(OPTIONS)
                for option in OPTIONS[k:] + OPTIONS[:k]:
                    transcriber = models[option.threads]
                    transcriber.window_pad = option.window_pad
                    transcriber.min_window = option.min_window
                    transcriber.beam_size = option.beam_size
                    transcriber.retry_beam_size = option.retry_beam
                    transcriber.memory_secs = option.memory
                    before = transcriber.fallbacks
                    c0, t0 = _cpu(), time.perf_counter()
                    heard = transcriber.transcribe(pcm, PHONE_RATE)
                    wall[option].append(time.perf_counter() - t0)
                    cpu[option].append(_cpu() - c0)
                    if r == 0:
                        fallbacks[option] += transcriber.fallbacks - before
                        e, n = wer(_words(text), _words(heard))
                        errors[option][0 if persona else 2] += e
                        errors[option][1 if persona else 3] += n
                        if e:
                            misheard[option].append(f"{text!r} -> {heard!r}")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print()
    print("WER: the personas' lines / the extra phrases (digits spelled out count as errors)")
    print(f"{'option':34} {'median':>7} {'p90':>7} {'CPU med':>8} {'WER':>14} fallbacks")
    for o in OPTIONS:
        pe, pn, xe, xn = errors[o]
        print(
            f"{o.name:34} {statistics.median(wall[o]):6.3f}s {pct(wall[o], 0.9):6.3f}s "
            f"{statistics.median(cpu[o]):7.3f}s {100 * pe / pn:5.1f}% / {100 * xe / xn:5.1f}% "
            f"{fallbacks[o]:>3}"
        )
    for o in OPTIONS:
        for line in misheard[o]:
            print(f"  {o.name}: {line}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
