"""Background noise under a simulated callee's voice (the lab's `Callee.noise`): a quiet bed,
generated in code (shaped noise, never a recording), mixed into every frame the callee sends,
its words and its silences alike.

Each kind is `LOOP_SECS` of noise made once (per process) and played in a loop. The levels keep
the bed under the energy VAD's floor for speech (`speech.vad.EnergyVAD.min_level`, 250 RMS):
the agent hears it, and it is not taken for the callee talking."""

from __future__ import annotations

import functools

import numpy as np

from callwright.speech.audio import PCM, PHONE_RATE

#: Each kind: its level (dBFS, RMS) and how its spectrum falls with frequency (the power's
#: exponent: 1 pink, 2 brown), and how fast its loudness swells (Hz; 0: steady).
NOISES: dict[str, tuple[float, float, float]] = {
    "office": (-50.0, 1.0, 0.0),  # room tone and air conditioning: pink
    "street": (-45.0, 2.0, 0.15),  # traffic: brown rumble, passing swells
    "cafe": (-47.0, 1.0, 4.0),  # chatter: pink, at the pace of syllables
}
LOOP_SECS = 10.0
#: How much the loudness swells (a fraction of the level, either way).
SWELL = 0.15


@functools.cache
def noise_loop(kind: str, rate: int = PHONE_RATE, seed: int = 11) -> np.ndarray:
    """`LOOP_SECS` of the kind's noise at its level, as int32 samples (mixed without overflow)."""
    level_db, slope, swell_hz = NOISES[kind]
    rng = np.random.default_rng(seed)
    n = round(LOOP_SECS * rate)
    spectrum = np.fft.rfft(rng.normal(0.0, 1.0, n))
    freqs = np.fft.rfftfreq(n, 1 / rate)
    shape = np.zeros_like(freqs)
    audible = freqs >= 40.0  # no DC or sub-bass drift
    shape[audible] = freqs[audible] ** (-slope / 2)
    noise = np.fft.irfft(spectrum * shape, n)
    if swell_hz:
        t = np.arange(n) / rate
        # A whole number of swells in the loop, so the loop joins without a step.
        cycles = max(1, round(swell_hz * LOOP_SECS))
        noise *= 1 + SWELL * np.sin(2 * np.pi * cycles * t / LOOP_SECS)
    rms = float(np.sqrt(np.mean(noise**2))) or 1.0
    return np.round(noise / rms * (10 ** (level_db / 20)) * 32767).astype(np.int32)


class NoiseBed:
    """The noise a callee's audio carries, a frame at a time, looping."""

    def __init__(self, kind: str, rate: int = PHONE_RATE) -> None:
        self.kind = kind
        self._loop = noise_loop(kind, rate) if kind in NOISES else None
        self._at = 0

    def under(self, pcm: PCM) -> PCM:
        """`pcm` with the next stretch of noise mixed in ("none": `pcm` as it is)."""
        if self._loop is None or not len(pcm):
            return pcm
        n, loop = len(pcm), self._loop
        idx = (self._at + np.arange(n)) % len(loop)
        self._at = (self._at + n) % len(loop)
        mixed = pcm.astype(np.int32) + loop[idx]
        out: PCM = np.clip(mixed, -32768, 32767).astype(np.int16)
        return out
