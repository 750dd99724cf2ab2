"""The prepaid balance: the cost rule, holds that concurrent sends cannot overdraw, and a
settle that charges once however often the end of a call is replayed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from callwright.billing.service import cost_for, hold_for
from callwright.calls.domain import Calls
from callwright.kit.time import utcnow
from callwright.models import Call, LedgerEntry, User
from callwright.realtime.events import LiveEvent, wire
from callwright.telephony.base import CarrierError
from tests.calls.test_calls_api import balance_of, payload
from tests.conftest import make_client
from tests.factories import add_user, queued_call, signed_in


@pytest.mark.parametrize(
    ("seconds", "cents"),
    [(None, 0), (0, 0), (1, 0), (2, 49), (60, 49), (61, 49), (62, 98), (121, 98), (122, 147)],
)
def test_cost_is_rounded_up_minutes_of_duration_minus_one_second(
    seconds: int | None, cents: int
) -> None:
    assert cost_for(seconds) == cents


def test_hold_is_max_duration_times_49_cents() -> None:
    assert hold_for(1) == 49
    assert hold_for(30) == 1470
    assert hold_for(120) == 5880


async def test_concurrent_sends_never_overdraw(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 sends at once against a balance that covers exactly one."""
    ringing = asyncio.Event()

    async def slow_dial(request: Any) -> str:
        await ringing.wait()  # the accepted call stays on its hold until the sends are done
        raise CarrierError("test carrier: not connected")

    monkeypatch.setattr(app.state.calls.flows.carrier, "dial", slow_dial)
    _client, user = await signed_in(app, "race@example.com", balance_cents=49)
    clients = [make_client(app) for _ in range(20)]
    for c in clients:
        c.token = _client.token
    try:
        responses = await asyncio.gather(
            *(c.api("POST", "send-call", json=payload(user.id, max_duration=1)) for c in clients)
        )
    finally:
        for c in clients:
            await c.aclose()
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [402] * 19, [r.text for r in responses if r.status_code != 402]
    refused = next(r for r in responses if r.status_code == 402)
    assert refused.json()["message"] == (
        "Insufficient balance to make this call. Required: $0.49, Available: $0.00. "
        "Please add funds."
    )
    assert await balance_of(app, user.id) == 0
    ringing.set()
    await app.state.jobs.drain()
    async with app.state.db.sessionmaker() as session:
        entries = (
            await session.scalars(
                select(LedgerEntry).where(LedgerEntry.user_id == user.id).order_by(LedgerEntry.id)
            )
        ).all()
        calls = (await session.scalars(select(Call).where(Call.user_id == user.id))).all()
    assert len(calls) == 1
    assert entries[0].kind == "hold"
    assert all(e.balance_after_cents >= 0 for e in entries)


async def _finished_call(app: FastAPI, user: User, seconds: int) -> str:
    call = await queued_call(app, user.id, max_duration=5)
    now = utcnow()
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(Call)
            .where(Call.id == call.id)
            .values(
                status="completed",
                answered_at=now,
                ended_at=now,
                media_ended_at=now,
                duration_seconds=seconds,
            )
        )
        await session.commit()
    return call.id


async def test_a_replayed_end_charges_once(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    user = await add_user(app, email="replay@example.com", balance_cents=1000)
    published: list[tuple[str, str, dict[str, Any]]] = []
    domain: Calls = app.state.calls

    async def capture(room: str, event: LiveEvent) -> None:
        published.append((room, *wire(event)))

    monkeypatch.setattr(domain.events, "publish", capture)
    monkeypatch.setattr(domain.billing, "publish", capture)
    call_id = await _finished_call(app, user, seconds=125)  # 3 minutes: $1.47
    assert await balance_of(app, user.id) == 1000 - 5 * 49
    await asyncio.gather(*(domain.flows.finalize(call_id) for _ in range(5)))
    await domain.flows.finalize(call_id)
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, call_id)
        assert call is not None
        assert await domain.billing.settle(session, call) is None  # settled already
    assert await balance_of(app, user.id) == 1000 - 147
    async with app.state.db.sessionmaker() as session:
        charges = (
            await session.scalars(
                select(LedgerEntry).where(
                    LedgerEntry.call_id == call_id, LedgerEntry.kind == "charge"
                )
            )
        ).all()
    assert [c.amount_cents for c in charges] == [-147]
    updates = [d for r, e, d in published if e == "balance-update"]
    assert updates == [{"userId": user.id, "newBalance": 8.53}]
    assert all(r == f"user:{user.id}" for r, e, _ in published if e == "balance-update")
    closing = [d for r, e, d in published if e == "webhook-event" and r == f"user:{user.id}"]
    assert [d["message"] for d in closing] == ["Call duration & price: 125s", "Closing call stream"]


async def test_the_charge_never_exceeds_the_hold(app: FastAPI) -> None:
    user = await add_user(app, email="long@example.com", balance_cents=1000)
    call_id = await _finished_call(app, user, seconds=5 * 60 + 20)  # ran past max duration
    await app.state.calls.flows.finalize(call_id)
    assert await balance_of(app, user.id) == 1000 - 5 * 49
