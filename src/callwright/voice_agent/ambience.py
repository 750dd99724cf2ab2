"""Generated background ambience for the agent's side of the call."""

from __future__ import annotations

import functools

import numpy as np
from pipecat.audio.mixers.base_audio_mixer import BaseAudioMixer
from pipecat.frames.frames import MixerControlFrame

#: Background ambience (generated, never recorded clips): level in dBFS and texture.
AMBIENCE: dict[str, tuple[float, str]] = {
    "null": (-48.0, "static"),
    "office": (-40.0, "office"),
    "cafe": (-36.0, "cafe"),
    "restaurant": (-33.0, "restaurant"),
}


#: Ambience is generated once per texture and rate, this long, and played in a loop: a call
#: then pays a slice and an add per 20 ms, not a noise generator (docs/performance.md).
LOOP_SECS = 20.0


@functools.cache
def ambience_loop(kind: str, rate: int, seed: int = 7) -> np.ndarray:
    """`LOOP_SECS` of the texture at its level, as int32 samples (mixed without overflow)."""
    level_db, texture = AMBIENCE[kind]
    rng = np.random.default_rng(seed)
    n = round(LOOP_SECS * rate)
    white = rng.normal(0, 1, n)
    if texture == "static":
        noise = white
    else:
        # brown-ish noise for room tone (a leaky integrator), babble-like for crowds
        leak = 0.98 if texture == "office" else 0.9
        noise = np.empty(n)
        state = 0.0
        for i in range(n):  # once per texture and rate
            state = leak * state + white[i] * (1 - leak) * 6
            noise[i] = state
        # occasional keyboard clicks or clinks: decaying bursts, `events` per 20 ms at 8 kHz
        events = {"office": 0.004, "cafe": 0.002, "restaurant": 0.003}[texture]
        chunk = 160
        for start in range(0, n - 40, chunk):
            if rng.random() < events:
                at = start + int(rng.integers(0, chunk))
                click = rng.normal(0, 4, 40) * np.exp(-np.arange(40) / 6)
                noise[at : at + 40] += click[: len(noise[at : at + 40])]
    rms = float(np.sqrt(np.mean(noise**2))) or 1.0
    return np.round(noise / rms * (10 ** (level_db / 20)) * 32767).astype(np.int32)


class AmbienceMixer(BaseAudioMixer):
    """Mixes generated ambience under the agent: quiet phone static by default, or office,
    cafe and restaurant textures (filtered noise with occasional keyboard clicks or clinks)."""

    def __init__(self, kind: str, seed: int = 7) -> None:
        self.kind = kind
        self._seed = seed
        self._rate = 8000
        self._at = 0
        self._enabled = kind in AMBIENCE

    async def start(self, sample_rate: int) -> None:
        self._rate = sample_rate

    async def stop(self) -> None:
        return None

    async def process_frame(self, frame: MixerControlFrame) -> None:
        return None

    def _noise(self, n: int) -> np.ndarray:
        loop = ambience_loop(self.kind, self._rate, self._seed)
        at, self._at = self._at, (self._at + n) % len(loop)
        if at + n <= len(loop):
            return loop[at : at + n]
        return np.concatenate((loop[at:], loop[: at + n - len(loop)]))

    async def mix(self, audio: bytes) -> bytes:
        if not self._enabled or not audio:
            return audio
        mixed = np.frombuffer(audio, dtype=np.int16).astype(np.int32) + self._noise(len(audio) // 2)
        out: bytes = np.clip(mixed, -32768, 32767).astype(np.int16).tobytes()
        return out
