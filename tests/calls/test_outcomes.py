"""The outcome vocabulary in words (calls/outcomes.py), the backend twin of lib/outcomes.ts."""

from __future__ import annotations

import pytest

from callwright.calls.outcomes import WORDS, outcome_of, sentence
from callwright.telephony.state import STATUS_OUTCOMES, TERMINAL, CallOutcome


def test_every_outcome_has_its_words() -> None:
    assert set(WORDS) == set(CallOutcome)
    assert len(set(WORDS.values())) == len(CallOutcome), "no two outcomes read the same"


@pytest.mark.parametrize(
    ("stored", "error", "words"),
    [
        ("busy", None, "The line was busy"),
        ("voicemail", None, "Voicemail reached"),
        ("stopped", None, "You stopped the call"),
        ("time-limit", None, "The call reached its time limit"),
        ("callee-hung-up", None, "The callee hung up"),
        ("no-answer", None, "No answer"),
        ("completed", None, "The call has completed"),
        ("cut-by-fault", "billed up to its last activity", "The call was cut off by a fault"),
        (
            "failed",
            "Unable to create record: The number is unverified.",
            "The call failed: Unable to create record: The number is unverified",
        ),
        ("failed", None, "The call failed"),
        (None, None, "The call has ended"),
        ("hangup-by-callee", None, "The call has ended"),
    ],
)
def test_the_sentence_of_an_outcome(stored: str | None, error: str | None, words: str) -> None:
    assert sentence(outcome_of(stored), error) == words


def test_every_terminal_status_means_an_outcome() -> None:
    assert set(STATUS_OUTCOMES) == TERMINAL
