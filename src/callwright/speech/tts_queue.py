"""One synthesis queue per voice process: the agents' sentences, for every call.

Piper's runs release the GIL, and on asyncio's default executor up to six of them ran at once
on a 2-core box: with several calls talking, synthesis took both cores from the event loop
(which sends every call's audio, 20 ms at a time) and from Whisper, and the callees heard gaps
(docs/performance.md, "Session 23"). Here at most `WORKERS` sentences are synthesised at once
(`CALLWRIGHT_TTS_WORKERS`; by default one less than the cores, at least one), and a reply's
first sentence, which a callee is waiting for, goes before the sentences that follow one
already playing. A sentence the speech cache holds does not queue (speech/tts.py).
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


def default_workers(cores: int | None = None) -> int:
    """How many syntheses run at once unless `CALLWRIGHT_TTS_WORKERS` says: one core is left
    to the event loop and the transcriptions."""
    configured = int(os.environ.get("CALLWRIGHT_TTS_WORKERS", "0") or 0)
    if configured > 0:
        return configured
    return max(1, (cores if cores is not None else os.cpu_count() or 1) - 1)


class SynthesisQueue:
    """Syntheses in, audio out (as futures), on at most `workers` threads."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers if workers is not None else default_workers())
        self._heap: list[tuple[int, int, Callable[..., Any], tuple[Any, ...], Future[Any]]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._threads: list[threading.Thread] = []

    def submit(self, fn: Callable[..., Any], *args: Any, first: bool = False) -> Future[Any]:
        """Run `fn(*args)` on a worker: `first` (a reply's first sentence) ahead of the rest,
        otherwise in the order submitted."""
        future: Future[Any] = Future()
        with self._wake:
            heapq.heappush(self._heap, (0 if first else 1, next(self._order), fn, args, future))
            if len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, name="synthesis-queue", daemon=True)
                self._threads.append(thread)
                thread.start()
            self._wake.notify()
        return future

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._heap:
                    self._wake.wait()
                _, _, fn, args, future = heapq.heappop(self._heap)
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # the waiting call learns of it
                future.set_exception(exc)


_queue: SynthesisQueue | None = None
_lock = threading.Lock()


def synthesis_queue() -> SynthesisQueue:
    """The process's queue (made on first use)."""
    global _queue
    with _lock:
        if _queue is None:
            _queue = SynthesisQueue()
        return _queue
