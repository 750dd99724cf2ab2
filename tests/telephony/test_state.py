from __future__ import annotations

import pytest

from callwright.telephony.state import TERMINAL, CallStatus, can_move, parse, predecessors

S = CallStatus


@pytest.mark.parametrize(
    ("current", "incoming", "moves"),
    [
        (S.QUEUED, S.RINGING, True),
        (S.QUEUED, S.IN_PROGRESS, True),  # ringing never reported
        (S.RINGING, S.IN_PROGRESS, True),
        (S.IN_PROGRESS, S.COMPLETED, True),
        (S.QUEUED, S.NO_ANSWER, True),
        (S.RINGING, S.BUSY, True),
        (S.QUEUED, S.FAILED, True),
        (S.RINGING, S.CANCELED, True),
        (S.RINGING, S.RINGING, False),  # replay
        (S.IN_PROGRESS, S.RINGING, False),  # late, out of order
        (S.IN_PROGRESS, S.QUEUED, False),
        (S.COMPLETED, S.IN_PROGRESS, False),  # nothing after the end
        (S.COMPLETED, S.COMPLETED, False),
        (S.COMPLETED, S.FAILED, False),
        (S.CANCELED, S.COMPLETED, False),
    ],
)
def test_forward_moves_only(current: CallStatus, incoming: CallStatus, moves: bool) -> None:
    assert can_move(current, incoming) is moves


def test_predecessors_are_the_states_it_may_follow() -> None:
    assert set(predecessors(S.IN_PROGRESS)) == {"queued", "ringing"}
    assert set(predecessors(S.COMPLETED)) == {"queued", "ringing", "in-progress"}
    assert predecessors(S.QUEUED) == []
    for status in TERMINAL:
        assert status.value not in predecessors(S.COMPLETED)


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        ("initiated", S.QUEUED),
        ("Ringing", S.RINGING),
        ("in-progress", S.IN_PROGRESS),
        ("answered", S.IN_PROGRESS),
        ("no-answer", S.NO_ANSWER),
        ("bogus", None),
    ],
)
def test_parse_carrier_spellings(raw: str, status: CallStatus | None) -> None:
    assert parse(raw) is status
