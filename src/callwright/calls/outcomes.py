"""How a call ended, in words: the one place the backend says it (the closing live event). The
frontend's twin is `frontend/src/lib/outcomes.ts`; keep the two in step."""

from __future__ import annotations

from callwright.telephony.state import AnsweredBy, CallOutcome

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


def settled(outcome: CallOutcome | None, answered_by: str | None) -> CallOutcome | None:
    """The outcome a call keeps once its media is over: a call a voicemail answered ended on
    voicemail, whoever hung up (unless it was stopped, timed out or cut)."""
    ends = (CallOutcome.COMPLETED, CallOutcome.CALLEE_HUNG_UP)
    if answered_by == AnsweredBy.VOICEMAIL and outcome in ends:
        return CallOutcome.VOICEMAIL
    return outcome
