"""Call recordings: the MP3 a call leaves, written to the recordings' store (a folder or an S3
bucket: `kit.storage`), and the spool a live call's recording grows in, slice by slice, on the
voice process's local disk, so that a voice process that dies mid-call leaves what it had
recorded (the reconciler turns it into the call's MP3: `salvage_recording`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

import numpy as np

from callwright.kit.storage import Store
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


def spooled_recording(folder: Path, call_id: str) -> Recording | None:
    """What a call's spool holds as one recording (the agent left, the callee right, the
    shorter track padded with silence at its end); None when nothing was spooled."""
    tracks: dict[str, np.ndarray] = {}
    rate = 0
    for spool in spooled(folder, call_id):
        _, rate_text, track = spool.stem.rsplit("-", 2)
        rate = int(rate_text)
        data = spool.read_bytes()
        tracks[track] = np.frombuffer(data[: len(data) - len(data) % 2], dtype=np.int16)
    length = max((len(t) for t in tracks.values()), default=0)
    if not length:
        return None
    stereo = np.zeros((length, 2), dtype=np.int16)
    for channel, track in enumerate(("agent", "callee")):
        samples = tracks.get(track, np.zeros(0, dtype=np.int16))
        stereo[: len(samples), channel] = samples
    return Recording(stereo.reshape(-1), rate, length / rate)


def align_spool(folder: Path, call_id: str) -> None:
    """Pad the shorter of a call's spooled tracks with silence to the longer one's length, so
    that what the call's next media stream spools (after a transfer) starts in step on both."""
    spools = spooled(folder, call_id)
    if not spools:
        return
    rate = int(spools[0].stem.rsplit("-", 2)[1])
    tracks: tuple[Track, ...] = ("callee", "agent")
    spools = [spool_path(folder, call_id, rate, track) for track in tracks]
    for spool in spools:
        spool.touch()  # a track that stayed silent is silence all along
    length = max(spool.stat().st_size for spool in spools)
    length -= length % 2
    for spool in spools:
        short = length - spool.stat().st_size
        if short > 0:
            with spool.open("ab") as out:
                out.write(bytes(short))


def drop_spool(folder: Path, call_id: str) -> None:
    for spool in spooled(folder, call_id):
        spool.unlink(missing_ok=True)


async def save_recording(store: Store, call_id: str, recording: Recording) -> str:
    """The call's MP3, encoded (in a thread: seconds on a busy machine) and written to the
    recordings' store (a folder or a bucket): its name. StoreError when the store refused."""
    name = f"{call_id}.mp3"
    mp3 = await asyncio.to_thread(mp3_bytes, recording.stereo, recording.rate, 2, kbps=32)
    await store.put(name, mp3)
    return name


async def salvage_recording(store: Store, folder: Path, call_id: str) -> str | None:
    """For a call whose voice process died before it saved the recording: the MP3 of what its
    spool in `folder` holds, saved to `store`; its name, None when nothing was spooled. The
    spool is removed once the MP3 is stored (a StoreError leaves it for the next try)."""
    recording = await asyncio.to_thread(spooled_recording, folder, call_id)
    name = await save_recording(store, call_id, recording) if recording is not None else None
    drop_spool(folder, call_id)
    return name
