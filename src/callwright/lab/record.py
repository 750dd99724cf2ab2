"""The record of a finished call that the lab judges (docs/lab.md, "What a call is judged
on"), read from the call's own rows, the same the call's page shows: the transcript, the action
lines (`call_events.action`), the flow's `pathway_logs`, each reply's heard latency
(`turn_latencies.total_ms`: the callee's last word to the agent's first audio), the flow's
captured variables and the analysis's fields, how it ended and for how long. No second code
path: a lab call is judged from what any call keeps."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.analysis import Analysis
from callwright.calls import repository as calls
from callwright.lab.contract import CallRecord, RecordAction, RecordLine
from callwright.models import Call, CallEvent, TurnLatency

#: A transfer's state once it reached the person (the carrier's DialCallStatus).
REACHED = "completed"
#: The transcript's speakers as the record names them. The person a transfer reached
#: ("person") is neither the agent judged nor the simulated callee: their lines are left out.
SPEAKERS: dict[str, Literal["agent", "callee"]] = {"assistant": "agent", "user": "callee"}


class CallNotFound(LookupError):
    """No call has this id."""


def _seconds(at: datetime | None, zero: datetime | None) -> float | None:
    if at is None or zero is None:
        return None
    return round((at - zero).total_seconds(), 3)


def _text(value: Any) -> str | None:
    """A field's value as the expectations compare it: yes/no for a boolean (as a flow's
    yes_no capture says it), whole numbers without ".0"; None when nothing was found."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def values_of(call: Call) -> dict[str, str]:
    """The analysis's fields, then the flow's captured variables over them (the value the flow
    acted on wins), each as text."""
    values: dict[str, str] = {}
    if call.analysis:
        for name, value in Analysis.from_json(call.analysis).values().items():
            text = _text(value)
            if text is not None:
                values[name] = text
    for step in call.pathway_logs or []:
        for name, value in (step.get("captured") or {}).items():
            text = _text(value)
            if text is not None:
                values[str(name)] = text
    return values


def actions_of(events: Sequence[CallEvent], zero: datetime | None) -> list[RecordAction]:
    """The call's action lines, in order."""
    return [
        RecordAction(
            kind=str(e.action.get("kind", "")),
            name=str(e.action.get("name", "")),
            arguments=dict(e.action.get("arguments") or {}),
            status=str(e.action.get("status", "")),
            at=_seconds(e.created_at, zero),
        )
        for e in events
        if e.action
    ]


def replies_of(rows: Sequence[TurnLatency]) -> list[float]:
    """Each measured reply's heard latency in seconds, in turn order (a reply whose total
    was not measured is left out)."""
    return [row.total_ms / 1000 for row in rows if row.total_ms is not None]


def duration_of(call: Call) -> float | None:
    """Seconds from the answer to the end (None: never answered)."""
    if call.answered_at is None:
        return None
    if call.ended_at is not None:
        return max(0.0, round((call.ended_at - call.answered_at).total_seconds(), 3))
    return float(call.duration_seconds) if call.duration_seconds is not None else None


async def call_record(session: AsyncSession, call_id: str) -> CallRecord:
    """The record of the call `call_id` (CallNotFound: no such call). Times are seconds after
    the answer (a call never answered: after its first line, or its creation)."""
    call = await calls.get(session, call_id)
    if call is None:
        raise CallNotFound(call_id)
    rows = await calls.transcript_lines(session, call_id)
    zero = call.answered_at or (rows[0].created_at if rows else call.created_at)
    lines = [
        RecordLine(
            speaker=SPEAKERS[str(row.speaker)],
            text=str(row.text),
            at=_seconds(row.created_at, zero) or 0.0,
        )
        for row in rows
        if str(row.speaker) in SPEAKERS
    ]
    return CallRecord(
        call_id=call.id,
        outcome=call.end_reason,
        duration_seconds=duration_of(call),
        lines=lines,
        actions=actions_of(await calls.events(session, call_id), zero),
        steps=[dict(step) for step in call.pathway_logs or []],
        reply_seconds=replies_of(await calls.latencies(session, call_id)),
        values=values_of(call),
        transferred_to=call.transferred_to if call.transfer_status == REACHED else None,
    )
