"""One transcription queue per voice process: the Whisper model's runs, for every call.

Every call's segments go through one worker thread that owns the model's runs. When several
calls' segments wait at once they are transcribed together, in one CTranslate2 batch (one
encoder run over the batch's windows, one batched greedy decode): on this 2-core box a batch of
4 cost about a quarter less CPU than 4 runs one after the other (docs/performance.md, "Faster
turns (issue 31)"). Segments that were spoken first are taken first. A speculative guess
(`guess=True`) runs only when no real segment waits, never in a batch with one, so it never
delays a real segment by more than the one guess already running.

`CALLWRIGHT_STT_BATCH` sets the largest batch (4; 1 runs the segments one at a time).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: The largest batch: more waiting segments than this are taken in the next run.
MAX_BATCH = int(os.environ.get("CALLWRIGHT_STT_BATCH", "4") or 4)


@dataclass
class Request:
    pcm: np.ndarray
    rate: int
    language: str
    guess: bool = False
    result: Future[str] = field(default_factory=Future)


class TranscriptionQueue:
    """Segments in, transcripts out (as futures), on one worker thread."""

    def __init__(self, transcriber: Any, max_batch: int = MAX_BATCH) -> None:
        self.transcriber = transcriber
        self.max_batch = max(1, max_batch)
        self._real: deque[Request] = deque()
        self._guesses: deque[Request] = deque()
        self._running = 0
        self._wake = threading.Condition()
        self._worker: threading.Thread | None = None
        #: Batches run and the segments in them (batches[n] = how many runs had n segments).
        self.batches: dict[int, int] = {}

    def batch_counts(self) -> dict[int, int]:
        """How many runs had each batch size so far (a copy)."""
        with self._wake:
            return dict(sorted(self.batches.items()))

    @property
    def busy(self) -> bool:
        """Whether a transcription runs or waits (a guess should not start now)."""
        with self._wake:
            waiting = bool(self._real or self._guesses or self._running)
        return waiting or bool(getattr(self.transcriber, "in_flight", 0))

    def submit(
        self, pcm: np.ndarray, rate: int, language: str, *, guess: bool = False
    ) -> Future[str]:
        request = Request(pcm, rate, language, guess)
        with self._wake:
            (self._guesses if guess else self._real).append(request)
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._work, name="transcription-queue", daemon=True
                )
                self._worker.start()
            self._wake.notify()
        return request.result

    def _next(self) -> list[Request]:
        """The next run's segments: real ones first, in the order they came, in one language."""
        with self._wake:
            while not (self._real or self._guesses):
                self._wake.wait()
            source = self._real or self._guesses  # guesses only batch with guesses
            first = source.popleft()
            batch = [first]
            for request in list(source):
                if len(batch) >= self.max_batch:
                    break
                if (request.language, request.rate, request.guess) == (
                    first.language,
                    first.rate,
                    first.guess,
                ):
                    source.remove(request)
                    batch.append(request)
            self._running = len(batch)
            return batch

    def _work(self) -> None:
        while True:
            batch = self._next()
            with self._wake:
                self.batches[len(batch)] = self.batches.get(len(batch), 0) + 1
            try:
                texts = self._run(batch)
            except Exception as exc:  # every waiting call learns of it
                for request in batch:
                    request.result.set_exception(exc)
            else:
                for request, text in zip(batch, texts, strict=True):
                    request.result.set_result(text)
            finally:
                with self._wake:
                    self._running = 0

    def _run(self, batch: list[Request]) -> list[str]:
        many = getattr(self.transcriber, "transcribe_batch", None)
        if len(batch) > 1 and many is not None:
            texts: list[str] = many([r.pcm for r in batch], batch[0].rate, batch[0].language)
            return texts
        return [self.transcriber.transcribe(r.pcm, r.rate, r.language) for r in batch]


_queues: weakref.WeakKeyDictionary[Any, TranscriptionQueue] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def queue_for(transcriber: Any) -> TranscriptionQueue:
    """The process's queue for this model (one per Transcriber)."""
    with _lock:
        if transcriber not in _queues:
            _queues[transcriber] = TranscriptionQueue(transcriber)
        return _queues[transcriber]
