"""Generated background ambience for the agent's side of the call."""

from __future__ import annotations

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


class AmbienceMixer(BaseAudioMixer):
    """Mixes generated ambience under the agent: quiet phone static by default, or office,
    cafe and restaurant textures (filtered noise with occasional keyboard clicks or clinks)."""

    def __init__(self, kind: str, seed: int = 7) -> None:
        self.kind = kind
        self._rng = np.random.default_rng(seed)
        self._rate = 8000
        self._state = 0.0
        self._enabled = kind in AMBIENCE

    async def start(self, sample_rate: int) -> None:
        self._rate = sample_rate

    async def stop(self) -> None:
        return None

    async def process_frame(self, frame: MixerControlFrame) -> None:
        return None

    def _noise(self, n: int) -> np.ndarray:
        level_db, texture = AMBIENCE[self.kind]
        white = self._rng.normal(0, 1, n)
        if texture == "static":
            noise = white
        else:
            # brown-ish noise for room tone (a leaky integrator), babble-like for crowds
            out = np.empty(n)
            state = self._state
            leak = 0.98 if texture == "office" else 0.9
            for i in range(n):
                state = leak * state + white[i] * (1 - leak) * 6
                out[i] = state
            self._state = state
            noise = out
            events = {"office": 0.004, "cafe": 0.002, "restaurant": 0.003}[texture]
            if self._rng.random() < events * n / 160:
                start = int(self._rng.integers(0, max(1, n - 40)))
                click = self._rng.normal(0, 4, min(40, n - start)) * np.exp(
                    -np.arange(min(40, n - start)) / 6
                )
                noise[start : start + len(click)] += click
        rms = float(np.sqrt(np.mean(noise**2))) or 1.0
        return noise / rms * (10 ** (level_db / 20)) * 32767

    async def mix(self, audio: bytes) -> bytes:
        if not self._enabled or not audio:
            return audio
        pcm = np.frombuffer(audio, dtype=np.int16).astype(np.float64)
        mixed = pcm + self._noise(len(pcm))
        out: bytes = np.clip(mixed, -32768, 32767).astype(np.int16).tobytes()
        return out
