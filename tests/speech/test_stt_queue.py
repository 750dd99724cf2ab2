"""One transcription queue per voice process: segments that wait together are transcribed in
one batch, in the order they came, and a speculative guess never goes ahead of a real segment
(speech/stt_queue.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE, ulaw_decode, ulaw_encode
from callwright.speech.stt import Transcriber
from callwright.speech.stt_queue import TranscriptionQueue


class HeldTranscriber:
    """Stands in for Whisper: each run waits until released, and says what it was given."""

    def __init__(self) -> None:
        self.runs: list[list[int]] = []
        self.release = threading.Event()
        self.started = threading.Event()
        self.in_flight = 0

    def transcribe(self, pcm: np.ndarray, rate: int, language: str = "en") -> str:
        return self.transcribe_batch([pcm], rate, language)[0]

    def transcribe_batch(self, pcms: list[np.ndarray], rate: int, language: str) -> list[str]:
        self.runs.append([len(p) for p in pcms])
        self.started.set()
        assert self.release.wait(5)
        return [f"{language} {len(p)}" for p in pcms]


def _pcm(n: int) -> np.ndarray:
    return np.zeros(n, np.int16)


def test_segments_that_wait_together_share_one_run() -> None:
    held = HeldTranscriber()
    queue = TranscriptionQueue(held, max_batch=3)
    first = queue.submit(_pcm(100), 8000, "en")
    assert held.started.wait(5)  # the first runs alone: nothing else waited
    assert queue.busy
    waiting = [queue.submit(_pcm(200 + i), 8000, "en") for i in range(4)]
    held.release.set()
    assert first.result(5) == "en 100"
    assert [w.result(5) for w in waiting] == ["en 200", "en 201", "en 202", "en 203"]
    assert held.runs == [[100], [200, 201, 202], [203]]  # in order, at most 3 a run
    assert queue.batch_counts() == {1: 2, 3: 1}


def test_a_guess_waits_for_the_real_segments_and_runs_alone() -> None:
    held = HeldTranscriber()
    queue = TranscriptionQueue(held, max_batch=4)
    queue.submit(_pcm(1), 8000, "en")
    assert held.started.wait(5)
    guess = queue.submit(_pcm(50), 8000, "en", guess=True)
    real = [queue.submit(_pcm(60), 8000, "en"), queue.submit(_pcm(61), 8000, "es")]
    held.release.set()
    assert guess.result(5) == "en 50"
    assert [r.result(5) for r in real] == ["en 60", "es 61"]
    # The real segments first (one language a run), then the guess on its own.
    assert held.runs == [[1], [60], [61], [50]]


def test_a_failed_run_fails_each_of_its_segments() -> None:
    class Broken(HeldTranscriber):
        def transcribe_batch(self, pcms: list[np.ndarray], rate: int, language: str) -> list[str]:
            raise RuntimeError("model gone")

    queue = TranscriptionQueue(Broken())
    with pytest.raises(RuntimeError, match="model gone"):
        queue.submit(_pcm(1), 8000, "en").result(5)
    assert not queue.busy


@pytest.fixture(scope="module")
def transcriber(tmp_path_factory: pytest.TempPathFactory) -> Transcriber:
    return Transcriber(Path(tmp_path_factory.mktemp("models")) / "whisper-base")


def test_a_batch_hears_what_one_at_a_time_hears(transcriber: Transcriber) -> None:
    voice = tts.find("kal")
    assert voice is not None
    lines = ["No thanks, I am not interested.", "How much does it cost?", "Hello?"]
    silence = np.zeros(PHONE_RATE // 2, np.int16)
    pcms = [
        np.concatenate([silence, ulaw_decode(ulaw_encode(tts.synthesize(voice, line))), silence])
        for line in lines
    ]
    alone = [transcriber.transcribe(pcm, PHONE_RATE) for pcm in pcms]
    together = transcriber.transcribe_batch(pcms, PHONE_RATE)
    assert together == alone
    assert "interested" in together[0].lower()
    assert "cost" in together[1].lower()
    assert transcriber.in_flight == 0
