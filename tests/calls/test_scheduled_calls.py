"""Scheduled calls: placed with `start_at`, not dialled at send; the due-call sweep dials each
once its time has come (once: the dial's claim guards repeats); a stop before then cancels it
and releases its hold; the reconciler leaves a call waiting for its time alone."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from callwright.kit.time import utcnow
from callwright.models import Call, User
from tests.factories import queued_call, signed_in


@pytest.fixture
def dialled(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The calls the carrier was asked to dial (the test app has no sandbox network)."""
    calls: list[str] = []

    async def dial(request: Any) -> str:
        calls.append(request.call_id)
        return "CA" + str(len(calls)).rjust(32, "0")

    monkeypatch.setattr(app.state.calls.flows.carrier, "dial", dial)
    return calls


async def _get(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
        assert call is not None
        return call


async def test_the_sweep_dials_a_scheduled_call_when_its_time_comes(
    app: FastAPI, dialled: list[str]
) -> None:
    _, user = await signed_in(app, "sched@example.com", balance_cents=1000)
    flows = app.state.calls.flows
    call = await queued_call(app, user.id, start_at=utcnow() + timedelta(seconds=1))
    assert await flows.dial_due() == 0, "not due yet"
    await asyncio.sleep(1.1)
    assert await flows.dial_due() == 1
    await app.state.jobs.drain()
    assert dialled == [call.id]
    stored = await _get(app, call.id)
    assert stored.status == "queued"
    assert stored.carrier_call_id == "CA" + "1".rjust(32, "0")
    assert await flows.dial_due() == 0, "a dialled call is not due again"
    await flows.dial(call.id)  # a repeated dial job
    assert dialled == [call.id], "dialled once"


async def test_stopping_a_scheduled_call_cancels_it_and_releases_its_hold(
    app: FastAPI, dialled: list[str]
) -> None:
    client, user = await signed_in(app, "sched-stop@example.com", balance_cents=1000)
    call = await queued_call(app, user.id, start_at=utcnow() + timedelta(seconds=1))
    async with client:
        stopped = await client.api("POST", f"stop-call/{call.id}")
        assert stopped.status_code == 200, stopped.text
    finished = await app.state.calls.flows.wait_finalized(call.id, within=10, poll=0.05)
    assert (finished.status, finished.end_reason) == ("canceled", "stopped")
    assert finished.cost_cents in (0, None)
    async with app.state.db.sessionmaker() as session:
        payer = await session.get(User, user.id)
        assert payer is not None
        assert payer.balance_cents == 1000, "the hold was released"
    await asyncio.sleep(1.1)
    assert await app.state.calls.flows.dial_due() == 0
    await app.state.jobs.drain()
    assert dialled == []


async def test_the_reconciler_leaves_a_call_waiting_for_its_time(app: FastAPI) -> None:
    call = await queued_call(app, None, start_at=utcnow() + timedelta(hours=1))
    async with app.state.db.sessionmaker() as session:
        # Placed long ago: past max duration plus the grace period, counted from the send.
        await session.execute(
            update(Call).where(Call.id == call.id).values(queued_at=utcnow() - timedelta(hours=2))
        )
        await session.commit()
    await app.state.calls.flows.reconcile()
    stored = await _get(app, call.id)
    assert (stored.status, stored.finalized_at) == ("queued", None)
