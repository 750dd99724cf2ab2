"""Call recordings on disk: the MP3 a call leaves, and the spool a live call's recording grows
in, slice by slice, so that a voice process that dies mid-call leaves what it had recorded
(the reconciler turns it into the call's MP3: `salvage_recording`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np

from callwright.speech.audio import mp3_bytes
from callwright.voice_agent.contract import Recording

#: The spool's folder, under the recordings' folder.
SPOOL = "spool"


Track = Literal["callee", "agent"]


def spool_path(folder: Path, call_id: str, rate: int, track: Track) -> Path:
    """Where one side of a live call's recording grows (raw mono int16 at `rate`)."""
    return folder / SPOOL / f"{call_id}-{rate}-{track}.pcm"


def spooled(folder: Path, call_id: str) -> list[Path]:
    return sorted((folder / SPOOL).glob(f"{call_id}-*.pcm"))


def salvage_recording(folder: Path, call_id: str) -> str | None:
    """The MP3 of what a call's spool holds (the agent left, the callee right, the shorter
    track padded with silence at its end), for a call whose voice process died before it
    wrote the recording: its file name, None when nothing was spooled. The spool is removed."""
    files = spooled(folder, call_id)
    tracks: dict[str, np.ndarray] = {}
    rate = 0
    for spool in files:
        _, rate_text, track = spool.stem.rsplit("-", 2)
        rate = int(rate_text)
        data = spool.read_bytes()
        tracks[track] = np.frombuffer(data[: len(data) - len(data) % 2], dtype=np.int16)
    name: str | None = None
    length = max((len(t) for t in tracks.values()), default=0)
    if length:
        stereo = np.zeros((length, 2), dtype=np.int16)
        for channel, track in enumerate(("agent", "callee")):
            samples = tracks.get(track, np.zeros(0, dtype=np.int16))
            stereo[: len(samples), channel] = samples
        name = save_mp3(folder, call_id, Recording(stereo.reshape(-1), rate, length / rate))
    for spool in files:
        spool.unlink(missing_ok=True)
    return name


def save_mp3(folder: Path, call_id: str, recording: Recording) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{call_id}.mp3"
    target.write_bytes(mp3_bytes(recording.stereo, recording.rate, 2, kbps=32))
    return target.name
