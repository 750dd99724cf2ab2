"""An energy voice-activity detector with an adaptive noise floor: cheap and deterministic,
enough for the sandbox callee to tell when the agent talks over a quiet phone line."""

from __future__ import annotations

from dataclasses import dataclass, field

from callwright.speech.audio import PCM, rms


@dataclass
class EnergyVAD:
    frame_seconds: float = 0.02
    #: Speech must be this many times louder than the noise floor, and above `min_level`.
    ratio: float = 3.0
    min_level: float = 250.0
    start_frames: int = 3  # 60 ms of speech to start
    stop_frames: int = 25  # 500 ms of quiet to stop
    noise_floor: float = 50.0
    speaking: bool = False
    _loud: int = field(default=0, repr=False)
    _quiet: int = field(default=0, repr=False)

    def feed(self, frame: PCM) -> str | None:
        """Feed one frame; returns "start" or "stop" when the state changes."""
        level = rms(frame)
        loud = level > max(self.min_level, self.noise_floor * self.ratio)
        if not loud:
            # The floor follows quiet frames slowly (ambience under the voice).
            self.noise_floor = 0.95 * self.noise_floor + 0.05 * level
        if loud:
            self._loud += 1
            self._quiet = 0
        else:
            self._quiet += 1
            self._loud = 0
        if not self.speaking and self._loud >= self.start_frames:
            self.speaking = True
            return "start"
        if self.speaking and self._quiet >= self.stop_frames:
            self.speaking = False
            return "stop"
        return None
