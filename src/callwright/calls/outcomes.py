"""How a call ended, in words (the closing live event), and whether it counts as successful or
failed (the user's Analysis, the admin statistics, the /v1 API): the one place the backend says
either. The frontend's twin is `frontend/src/lib/outcomes.ts`; keep the two in step."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, or_
from sqlalchemy.orm import InstrumentedAttribute

from callwright.telephony.state import AnsweredBy, CallOutcome

#: A column of calls (or of a subquery over them) in the SQL builders below.
Column = ColumnElement[Any] | InstrumentedAttribute[Any]

WORDS: dict[CallOutcome, str] = {
    CallOutcome.COMPLETED: "The call has completed",
    CallOutcome.VOICEMAIL: "Voicemail reached",
    CallOutcome.BUSY: "The line was busy",
    CallOutcome.NO_ANSWER: "No answer",
    CallOutcome.FAILED: "The call failed",
    CallOutcome.STOPPED: "You stopped the call",
    CallOutcome.TIME_LIMIT: "The call reached its time limit",
    CallOutcome.CALLEE_HUNG_UP: "The callee hung up",
    CallOutcome.CUT_BY_FAULT: "The call was cut off by a fault",
    CallOutcome.TRANSFERRED: "The call was transferred to a person",
}


def outcome_of(value: str | None) -> CallOutcome | None:
    """The stored end reason as an outcome (None while live, or for a value outside it)."""
    try:
        return CallOutcome(value) if value else None
    except ValueError:
        return None


def sentence(outcome: CallOutcome | None, error: str | None = None) -> str:
    """What happened, for the person who placed the call ("The line was busy"); a failure
    says its reason."""
    if outcome is None:
        return "The call has ended"
    words = WORDS[outcome]
    if outcome is CallOutcome.FAILED and error:
        return f"{words}: {error.rstrip('.')}"
    return words


def settled(
    outcome: CallOutcome | None, answered_by: str | None, transferred: bool = False
) -> CallOutcome | None:
    """The outcome a call keeps once its media is over: a call a voicemail answered ended on
    voicemail, and one whose transfer reached the person was transferred, whoever hung up
    (unless it was stopped, timed out or cut)."""
    ends = (CallOutcome.COMPLETED, CallOutcome.CALLEE_HUNG_UP)
    if transferred and outcome in ends:
        return CallOutcome.TRANSFERRED
    if answered_by == AnsweredBy.VOICEMAIL and outcome in ends:
        return CallOutcome.VOICEMAIL
    return outcome


# --- successful or failed: the one definition ------------------------------------------

#: A successful call: the agent closed the conversation it was placed for, or handed the
#: callee to the person they asked for.
SUCCESSFUL = frozenset({CallOutcome.COMPLETED, CallOutcome.TRANSFERRED})
#: A failed call: it never reached the callee (busy, no answer, failed), or its conversation did
#: not reach its end (stopped, time limit, hung up, cut). These are the spec's failed statuses
#: (section 4: busy, no_answer, failed, canceled, timeout, hung_up, disconnected, error) in our
#: outcomes. A voicemail is neither: the call connected, but not to the person ("every other
#: value counts in neither").
FAILED = frozenset(
    {
        CallOutcome.BUSY,
        CallOutcome.NO_ANSWER,
        CallOutcome.FAILED,
        CallOutcome.STOPPED,
        CallOutcome.TIME_LIMIT,
        CallOutcome.CALLEE_HUNG_UP,
        CallOutcome.CUT_BY_FAULT,
    }
)
#: Spec section 4's classification of a bare status, for a call stored without an outcome (its
#: statuses compared lower-case with "-" read as "_", so "no-answer" counts like "no_answer").
SPEC_SUCCESSFUL_STATUS = "completed"
SPEC_FAILED_STATUSES = (
    "disconnected",
    "error",
    "failed",
    "hung_up",
    "timeout",
    "rejected",
    "canceled",
    "busy",
    "no_answer",
)


def is_successful(outcome: CallOutcome | None, status: str | None = None) -> bool:
    """Whether a call counts as successful: by its outcome, or, stored without one, by the
    spec's reading of its status."""
    if outcome is not None:
        return outcome in SUCCESSFUL
    return _plain(status or "") == SPEC_SUCCESSFUL_STATUS


def is_failed(outcome: CallOutcome | None, status: str | None = None) -> bool:
    """Whether a call counts as failed (the same rule as `is_successful`)."""
    if outcome is not None:
        return outcome in FAILED
    return _plain(status or "") in SPEC_FAILED_STATUSES


def _plain(status: str) -> str:
    return status.lower().replace("-", "_")


def successful_sql(outcome: Column, status: Column) -> ColumnElement[bool]:
    """`is_successful` in SQL over an outcome column (NULL or "" when none) and a status."""
    return _classified(outcome, status, SUCCESSFUL, (SPEC_SUCCESSFUL_STATUS,))


def failed_sql(outcome: Column, status: Column) -> ColumnElement[bool]:
    """`is_failed` in SQL."""
    return _classified(outcome, status, FAILED, SPEC_FAILED_STATUSES)


def _classified(
    outcome: Column,
    status: Column,
    outcomes: frozenset[CallOutcome],
    statuses: tuple[str, ...],
) -> ColumnElement[bool]:
    stored = func.coalesce(outcome, "")
    plain = func.replace(func.lower(status), "-", "_")
    return or_(
        stored.in_(sorted(o.value for o in outcomes)),
        and_(stored == "", plain.in_(statuses)),
    )


#: A spec failed status stored without an outcome, as the outcome it means (others: failed).
_STATUS_AS_OUTCOME = {
    "busy": CallOutcome.BUSY,
    "no_answer": CallOutcome.NO_ANSWER,
    "canceled": CallOutcome.STOPPED,
    "timeout": CallOutcome.TIME_LIMIT,
    "hung_up": CallOutcome.CALLEE_HUNG_UP,
    "disconnected": CallOutcome.CUT_BY_FAULT,
}


def outcome_sql(outcome: Column, status: Column) -> ColumnElement[str]:
    """A failed call's outcome in SQL: the stored one, else the one its spec status means."""
    plain = func.replace(func.lower(status), "-", "_")
    by_status = case(
        *((plain == name, value.value) for name, value in _STATUS_AS_OUTCOME.items()),
        else_=CallOutcome.FAILED.value,
    )
    return func.coalesce(func.nullif(outcome, ""), by_status)
