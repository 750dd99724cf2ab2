"""The record the lab judges (lab/record.py), read from a finished call's rows in the test
database: transcript lines timed from the answer, action lines, flow steps, heard latencies,
captured variables over analysis fields, the outcome, duration and transfer."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.lab.contract import (
    Expectations,
    RecordAction,
    RecordLine,
    SaysWithin,
    ToolExpected,
)
from callwright.lab.evaluate import judge
from callwright.lab.record import CallNotFound, call_record
from callwright.models import CallEvent, TranscriptEntry, TurnLatency
from tests.factories import finished_call

ANSWER = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)


def _at(seconds: float) -> datetime:
    return ANSWER + timedelta(seconds=seconds)


STEPS = [
    {"node_id": "greeting", "node_name": "Greeting", "edge_id": "e1", "captured": {}, "at": 1.0},
    {
        "node_id": "new_time",
        "node_name": "Ask for a new time",
        "edge_id": "e8",
        "heard": "Friday at two",
        "captured": {"new_time": "2026-11-27T14:00"},
        "at": 9.0,
    },
]
ANALYSIS = {
    "summary": "Moved to Friday.",
    "outcome": "interested",
    "sentiment": "positive",
    "key_facts": [],
    "method": "offline",
    "fields": {
        "new_time": {"value": "Friday", "line": 3},
        "confirmed": {"value": True, "line": 3},
        "people": {"value": 4.0, "line": 3},
        "email": {"value": None, "line": None},
    },
}


async def test_a_finished_call_as_the_judge_reads_it(app: FastAPI, session: AsyncSession) -> None:
    call_id = await finished_call(
        app,
        None,
        ended_at=_at(42.5),
        pathway_logs=STEPS,
        analysis=json.dumps(ANALYSIS),
        transferred_to="+15005550011",
        transfer_status="completed",
        end_reason="transferred",
    )
    talk = [
        ("assistant", "Hi, I'm an AI assistant, and this call is recorded.", 1.5),
        ("user", "Can we move it to Friday at two?", 6.0),
        ("person", "Hi, this is Jordan.", 30.0),
        ("assistant", "Done, Friday at two.", 10.25),
    ]
    for seq, (speaker, text, at) in enumerate(talk, 1):
        session.add(
            TranscriptEntry(
                call_id=call_id, seq=seq, speaker=speaker, text=text, created_at=_at(at)
            )
        )
    session.add(
        CallEvent(call_id=call_id, category="call", message="Call connected", created_at=_at(0.2))
    )
    session.add(
        CallEvent(
            call_id=call_id,
            category="action",
            message="Calling check_calendar",
            created_at=_at(7.0),
            action={
                "kind": "tool",
                "name": "check_calendar",
                "status": "started",
                "summary": "Calling check_calendar",
                "arguments": {"day": "Friday"},
            },
        )
    )
    for turn, total in ((1, 900), (2, None), (3, 1450)):
        session.add(TurnLatency(call_id=call_id, turn=turn, total_ms=total, stt_ms=300))
    await session.commit()

    record = await call_record(session, call_id)

    assert record.call_id == call_id
    assert (record.outcome, record.duration_seconds) == ("transferred", 42.5)
    assert record.lines == [
        RecordLine("agent", "Hi, I'm an AI assistant, and this call is recorded.", 1.5),
        RecordLine("callee", "Can we move it to Friday at two?", 6.0),
        RecordLine("agent", "Done, Friday at two.", 10.25),
    ], "in spoken order, the transferred-to person left out"
    assert record.actions == [
        RecordAction("tool", "check_calendar", {"day": "Friday"}, "started", 7.0)
    ]
    assert [s["node_id"] for s in record.steps] == ["greeting", "new_time"]
    assert record.reply_seconds == [0.9, 1.45], "the turn not measured is left out"
    assert record.values == {
        "new_time": "2026-11-27T14:00",  # the flow's capture over the analysis's "Friday"
        "confirmed": "yes",
        "people": "4",
    }
    assert record.transferred_to == "+15005550011"
    checks = judge(
        Expectations(
            outcome="transferred",
            values={"new_time": "2026-11-27t14:00"},
            says=[SaysWithin(phrase="I'm an AI assistant", within_seconds=1)],
            tools=[ToolExpected(name="check_calendar", arguments={"day": "friday"})],
            transferred=True,
            path=["greeting", "new_time"],
            max_reply_seconds=1.2,
        ),
        record,
    )
    assert [(c.expectation, c.passed) for c in checks] == [
        ("outcome", True),
        ("values.new_time", True),
        ("says[0]", False),  # said at 1.5 s
        ("tools[0]", True),
        ("transferred", True),
        ("path", True),
        ("max_reply_seconds", False),  # 1.45 s
    ]


async def test_a_transfer_that_failed_is_not_transferred(
    app: FastAPI, session: AsyncSession
) -> None:
    call_id = await finished_call(
        app, None, transferred_to="+15005550012", transfer_status="busy", ended_at=_at(20)
    )
    record = await call_record(session, call_id)
    assert record.transferred_to is None
    assert (record.values, record.steps, record.actions, record.reply_seconds) == ({}, [], [], [])
    assert record.duration_seconds == 20.0


async def test_a_call_never_answered(app: FastAPI, session: AsyncSession) -> None:
    call_id = await finished_call(app, None, answered=False)
    record = await call_record(session, call_id)
    assert (record.outcome, record.duration_seconds, record.lines) == ("no-answer", None, [])


async def test_an_unknown_call_is_refused(app: FastAPI, session: AsyncSession) -> None:
    with pytest.raises(CallNotFound):
        await call_record(session, "no-such-call")
