"""One definition of a successful call (`calls.outcomes.SUCCESSFUL`) on every surface that counts
or shows one: the user's Analysis, the admin statistics and charts, and `/v1`. A stopped, a busy,
a voicemail and a failed call beside a completed one: only the completed one is successful."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from callwright.calls.outcomes import FAILED, SUCCESSFUL, is_failed, is_successful
from callwright.models import Call
from callwright.telephony.state import CallOutcome
from tests.factories import add_api_key, signed_in

MONDAY = datetime(2026, 11, 16, 10, 0, tzinfo=UTC)

#: How each call is stored after its end: (status from the carrier, outcome, who answered).
#: A carrier reports a call we hung up (stopped) or a voicemail as "completed".
ENDINGS: dict[str, tuple[str, str, str | None]] = {
    "completed": ("completed", "completed", "human"),
    "stopped": ("completed", "stopped", "human"),
    "busy": ("busy", "busy", None),
    "voicemail": ("completed", "voicemail", "unknown"),
    "failed": ("failed", "failed", None),
}


async def five_calls(app: FastAPI, user_id: int) -> dict[str, str]:
    """The five calls, ended on a Monday; their ids by outcome."""
    ids = {}
    async with app.state.db.sessionmaker() as session:
        for name, (status, outcome, answered_by) in ENDINGS.items():
            answered = answered_by is not None
            call = Call(
                user_id=user_id,
                carrier="sandbox",
                from_number="+18885550100",
                to_number="+15005550001",
                prompt="p",
                voice="joe",
                status=status,
                end_reason=outcome,
                answered_by=answered_by,
                answered_at=MONDAY + timedelta(seconds=5) if answered else None,
                ended_at=MONDAY + timedelta(seconds=65 if answered else 10),
                duration_seconds=60 if answered else 0,
                max_duration=2,
                created_at=MONDAY,
                queued_at=MONDAY,
                finalized_at=MONDAY + timedelta(minutes=2),
            )
            session.add(call)
            await session.flush()
            ids[name] = call.id
        await session.commit()
    return ids


def test_one_definition_covers_every_outcome_once() -> None:
    assert {CallOutcome.COMPLETED, CallOutcome.TRANSFERRED} == SUCCESSFUL
    assert not SUCCESSFUL & FAILED
    # A voicemail counts in neither (spec: "every other value counts in neither").
    assert set(CallOutcome) - SUCCESSFUL - FAILED == {CallOutcome.VOICEMAIL}
    for name in ("stopped", "busy", "voicemail", "failed"):
        status, outcome, _ = ENDINGS[name]
        assert not is_successful(CallOutcome(outcome), status), name
    assert is_failed(CallOutcome.STOPPED, "completed")
    # A call stored without an outcome is read by the spec's status rule.
    assert is_successful(None, "completed")
    assert is_failed(None, "no-answer")
    assert not is_successful(None, "ringing")
    assert not is_failed(None, "ringing")


async def test_user_analysis_counts_only_the_completed_call_as_successful(app: FastAPI) -> None:
    client, user = await signed_in(app, "a@example.com")
    await five_calls(app, user.id)
    async with client:
        days = (await client.api("GET", f"user/{user.id}/analysis")).json()["data"]
    monday = days[0]
    assert monday["day"] == "Monday"
    assert monday["totalCalls"] == 5
    assert monday["successfulCalls"] == 1
    # stopped, busy and failed; a voicemail is neither successful nor failed.
    assert monday["failedCalls"] == 3
    assert monday["failedByOutcome"] == {"stopped": 1, "busy": 1, "failed": 1}
    assert all(day["failedByOutcome"] == {} for day in days[1:])


async def test_a_failed_call_stored_without_an_outcome_is_charted_by_its_status(
    app: FastAPI,
) -> None:
    client, user = await signed_in(app, "a@example.com")
    async with app.state.db.sessionmaker() as session:
        for status in ("no-answer", "canceled", "error", "completed", "ringing"):
            session.add(
                Call(
                    user_id=user.id,
                    carrier="sandbox",
                    from_number="+18885550100",
                    to_number="+15005550001",
                    prompt="p",
                    voice="joe",
                    status=status,
                    max_duration=2,
                    created_at=MONDAY,
                )
            )
        await session.commit()
    async with client:
        monday = (await client.api("GET", f"user/{user.id}/analysis")).json()["data"][0]
    assert (monday["successfulCalls"], monday["failedCalls"]) == (1, 3)
    assert monday["failedByOutcome"] == {"no-answer": 1, "stopped": 1, "failed": 1}


async def test_admin_success_rate_counts_only_the_completed_call(app: FastAPI) -> None:
    admin, _ = await signed_in(app, "boss@example.com", name="Boss", role="admin")
    _, user = await signed_in(app, "a@example.com")
    await five_calls(app, user.id)
    async with admin:
        stats = (await admin.api("GET", "admin/stats")).json()["data"]
        charts = (await admin.api("GET", "admin/analytics")).json()["data"]
    assert stats["totalCalls"] == 5
    assert stats["successRate"] == 20.0
    assert {o["outcome"]: o["calls"] for o in charts["outcomes"]} == dict.fromkeys(ENDINGS, 1)


async def test_v1_never_shows_a_stopped_busy_voicemail_or_failed_call_as_a_success(
    app: FastAPI,
) -> None:
    _, user = await signed_in(app, "dev@example.com")
    key = await add_api_key(app, user)
    ids = await five_calls(app, user.id)
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"authorization": key}
    ) as client:
        details: dict[str, dict[str, Any]] = {
            name: (await client.get(f"/v1/calls/{call_id}")).json() for name, call_id in ids.items()
        }
        listed = {c["call_id"]: c for c in (await client.get("/v1/calls")).json()["calls"]}

    def shown(name: str) -> tuple[str, bool, str, str]:
        d = details[name]
        return d["status"], d["completed"], d["answered_by"], d["outcome"]

    # Bland's `completed` says the call is over; `status` and `answered_by` say how.
    assert shown("completed") == ("completed", True, "human", "completed")
    assert shown("stopped") == ("canceled", True, "human", "stopped")
    assert shown("busy") == ("busy", True, "no-answer", "busy")
    assert shown("voicemail") == ("completed", True, "voicemail", "voicemail")
    assert shown("failed") == ("failed", True, "no-answer", "failed")
    for name, call_id in ids.items():
        row = listed[call_id]
        assert (row["status"], row["answered_by"]) == shown(name)[::2], name
