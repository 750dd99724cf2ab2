"""The process's synthesis queue: at most its workers at once, a reply's first sentence ahead
of the sentences that follow one already playing."""

from __future__ import annotations

import threading

import pytest

from callwright.speech.tts_queue import SynthesisQueue, default_workers

WAIT = 10


def test_by_default_one_core_is_left_to_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CALLWRIGHT_TTS_WORKERS", raising=False)
    assert default_workers(2) == 1
    assert default_workers(1) == 1
    assert default_workers(8) == 7
    monkeypatch.setenv("CALLWRIGHT_TTS_WORKERS", "3")
    assert default_workers(2) == 3


def test_a_first_sentence_goes_before_later_ones_and_one_runs_at_a_time() -> None:
    queue = SynthesisQueue(workers=1)
    running, release = threading.Event(), threading.Event()
    order: list[str] = []
    at_once = {"now": 0, "most": 0}
    lock = threading.Lock()

    def say(name: str) -> str:
        with lock:
            at_once["now"] += 1
            at_once["most"] = max(at_once["most"], at_once["now"])
        if name == "playing":
            running.set()
            release.wait(WAIT)
        order.append(name)
        with lock:
            at_once["now"] -= 1
        return name

    busy = queue.submit(say, "playing")
    assert running.wait(WAIT)
    later = [queue.submit(say, f"later {i}") for i in range(2)]
    first = queue.submit(say, "first", first=True)
    release.set()
    assert [f.result(WAIT) for f in [busy, *later, first]] == [
        "playing",
        "later 0",
        "later 1",
        "first",
    ]
    assert order == ["playing", "first", "later 0", "later 1"]
    assert at_once["most"] == 1


def test_two_workers_run_two_at_once_and_an_error_reaches_its_caller() -> None:
    queue = SynthesisQueue(workers=2)
    both = threading.Barrier(2, timeout=WAIT)
    futures = [queue.submit(both.wait) for _ in range(2)]
    assert sorted(f.result(WAIT) for f in futures) == [0, 1], "both waited at the barrier together"

    def broken() -> None:
        raise RuntimeError("no voice")

    with pytest.raises(RuntimeError, match="no voice"):
        queue.submit(broken).result(WAIT)
    assert queue.submit(str, 7).result(WAIT) == "7", "the worker goes on after an error"
