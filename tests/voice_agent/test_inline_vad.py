"""The inline Silero VAD rests on a silent line and hears the same turns as Pipecat's own."""

from __future__ import annotations

import asyncio

import numpy as np
from pipecat.audio.vad.silero import SileroVADAnalyzer
from pipecat.audio.vad.vad_analyzer import VADParams, VADState

from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE
from callwright.voice_agent.services import InlineSileroVAD

CHUNK = PHONE_RATE * 40 // 1000  # the pipeline's 40 ms input frames


def _line() -> np.ndarray:
    """Silence, a sentence, a pause that ends the turn, another sentence, silence; with a
    little line noise under the second half, as a phone line has."""
    voice = tts.find("kal") or tts.default_voice()
    silence = np.zeros(PHONE_RATE, dtype=np.int16)
    first = tts.synthesize(voice, "Hello, yes, this is me.")
    second = tts.synthesize(voice, "No thanks, I am not interested.")
    quiet_half = np.concatenate([silence, second, silence])
    hiss = np.random.default_rng(7).normal(0, 8, len(quiet_half)).astype(np.int16)
    return np.concatenate([silence, first, silence, quiet_half + hiss])


def _turns(vad: SileroVADAnalyzer, pcm: np.ndarray) -> list[tuple[str, int]]:
    """(state, chunk index) at each change between speaking and quiet."""
    vad.set_sample_rate(PHONE_RATE)
    changes: list[tuple[str, int]] = []
    last = VADState.QUIET
    for i in range(0, len(pcm) - CHUNK + 1, CHUNK):
        state = asyncio.run(vad.analyze_audio(pcm[i : i + CHUNK].tobytes()))
        if state in (VADState.SPEAKING, VADState.QUIET) and state != last:
            changes.append((state.name, i // CHUNK))
            last = state
    return changes


def test_the_inline_vad_skips_silence_and_hears_the_same_turns() -> None:
    pcm = _line()
    params = VADParams(stop_secs=0.3)
    inline = InlineSileroVAD(sample_rate=PHONE_RATE, params=params)
    theirs = _turns(SileroVADAnalyzer(sample_rate=PHONE_RATE, params=params), pcm)
    ours = _turns(inline, pcm)
    # Two sentences, each one turn: speaking then quiet, twice.
    assert [state for state, _ in ours] == ["SPEAKING", "QUIET", "SPEAKING", "QUIET"]
    assert [state for state, _ in theirs] == [state for state, _ in ours]
    # At the same moments, within a frame (the model starts fresh after its rest).
    assert all(abs(a - b) <= 1 for (_, a), (_, b) in zip(ours, theirs, strict=True))
    # Most of the quiet was not given to the model; the sentences were.
    assert inline.windows_skipped > inline.windows_scored / 2
    assert inline.windows_scored > 0
