"""The call state machine. Carriers report statuses in any order and may repeat them; a status is
applied only when it moves the call forward, and a terminal status is final."""

from __future__ import annotations

from enum import StrEnum


class CallStatus(StrEnum):
    QUEUED = "queued"
    RINGING = "ringing"
    IN_PROGRESS = "in-progress"
    COMPLETED = "completed"
    NO_ANSWER = "no-answer"
    BUSY = "busy"
    FAILED = "failed"
    CANCELED = "canceled"


TERMINAL = frozenset(
    {
        CallStatus.COMPLETED,
        CallStatus.NO_ANSWER,
        CallStatus.BUSY,
        CallStatus.FAILED,
        CallStatus.CANCELED,
    }
)

_RANK = {CallStatus.QUEUED: 0, CallStatus.RINGING: 1, CallStatus.IN_PROGRESS: 2}

#: Carrier spellings mapped onto ours (Twilio's "initiated" is our queued).
_ALIASES = {"initiated": CallStatus.QUEUED, "answered": CallStatus.IN_PROGRESS}


def parse(value: str) -> CallStatus | None:
    value = value.strip().lower()
    if value in _ALIASES:
        return _ALIASES[value]
    try:
        return CallStatus(value)
    except ValueError:
        return None


def rank(status: CallStatus) -> int:
    return 3 if status in TERMINAL else _RANK[status]


def can_move(current: CallStatus, incoming: CallStatus) -> bool:
    """Forward moves only: a replay, a late ringing after the answer, or anything after a
    terminal status changes nothing."""
    return current not in TERMINAL and rank(incoming) > rank(current)


def predecessors(incoming: CallStatus) -> list[str]:
    """The stored statuses from which `incoming` may be applied (for a conditional UPDATE)."""
    return [s.value for s in CallStatus if can_move(s, incoming)]
