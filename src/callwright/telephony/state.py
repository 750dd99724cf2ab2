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


class CallOutcome(StrEnum):
    """How a call ended: one vocabulary for the API, the live messages, the screens, the
    analytics and webhooks (stored in `calls.end_reason`). `status` stays the carrier's."""

    COMPLETED = "completed"  # the agent closed the conversation
    VOICEMAIL = "voicemail"  # a voicemail answered (a message left, or hung up on it)
    BUSY = "busy"
    NO_ANSWER = "no-answer"
    FAILED = "failed"  # the carrier could not place it; the reason is in `error`
    STOPPED = "stopped"  # the user stopped it
    TIME_LIMIT = "time-limit"  # its max duration ran out
    CALLEE_HUNG_UP = "callee-hung-up"
    CUT_BY_FAULT = "cut-by-fault"  # its end never arrived; the reconciler closed it
    TRANSFERRED = "transferred"  # the agent handed the callee to a person, who took the call


class AnsweredBy(StrEnum):
    """Who picked up (Bland's `answered_by`): unknown from the answer until the callee is heard."""

    HUMAN = "human"
    VOICEMAIL = "voicemail"
    UNKNOWN = "unknown"


#: The outcome a terminal status means when nobody on our side ended the call first.
STATUS_OUTCOMES = {
    CallStatus.COMPLETED: CallOutcome.CALLEE_HUNG_UP,
    CallStatus.NO_ANSWER: CallOutcome.NO_ANSWER,
    CallStatus.BUSY: CallOutcome.BUSY,
    CallStatus.FAILED: CallOutcome.FAILED,
    CallStatus.CANCELED: CallOutcome.STOPPED,
}
