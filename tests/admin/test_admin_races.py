"""Admin writes at once (issue 15): a balance set ends on exactly the value set, and the ledger
stays a chain (each entry's balance is the one before plus its amount); adding one address twice
at once makes one account and a clean refusal."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.models import LedgerEntry, User
from tests.factories import add_user, make_client, signed_in

pytestmark = pytest.mark.asyncio


async def _state(app: FastAPI, user_id: int) -> tuple[int, list[LedgerEntry]]:
    async with app.state.db.sessionmaker() as s:
        balance = await s.scalar(select(User.balance_cents).where(User.id == user_id))
        rows = await s.scalars(
            select(LedgerEntry).where(LedgerEntry.user_id == user_id).order_by(LedgerEntry.id)
        )
        return int(balance or 0), list(rows)


def _assert_chain(opening: int, balance: int, entries: list[LedgerEntry]) -> None:
    running = opening
    for e in entries:
        assert e.balance_after_cents == running + e.amount_cents, [
            (x.kind, x.amount_cents, x.balance_after_cents) for x in entries
        ]
        running = e.balance_after_cents
    assert running == balance


async def _sends(
    app: FastAPI, token: str | None, requests: Sequence[tuple[str, str, Mapping[str, object]]]
) -> list[httpx.Response]:
    clients = [make_client(app) for _ in requests]
    for c in clients:
        c.token = token
    try:
        return await asyncio.gather(
            *(
                c.api(method, path, json=dict(body))
                for c, (method, path, body) in zip(clients, requests, strict=True)
            )
        )
    finally:
        for c in clients:
            await c.aclose()


async def test_concurrent_sets_end_on_the_value_set(app: FastAPI) -> None:
    """The report: five sets from $0.49 to $5 at once left $23.04."""
    admin, me = await signed_in(app, "boss@example.com", role="admin")
    user = await add_user(app, email="u@example.com", balance_cents=49)
    responses = await _sends(
        app, admin.token, [("PUT", f"admin/users/{user.id}", {"balance": 5})] * 5
    )
    assert [r.status_code for r in responses] == [200] * 5, [r.text for r in responses]
    balance, entries = await _state(app, user.id)
    assert balance == 500
    assert [(e.kind, e.amount_cents, e.balance_after_cents, e.created_by) for e in entries] == [
        ("adjustment", 451, 500, me.id)
    ]


async def test_sets_and_top_ups_at_once_keep_the_ledger_a_chain(app: FastAPI) -> None:
    admin, _me = await signed_in(app, "boss@example.com", role="admin")
    user = await add_user(app, email="u@example.com", balance_cents=49)
    requests = []
    for target in (5, 7.25, 0.5):
        requests.append(("PUT", f"admin/users/{user.id}", {"balance": target}))
        requests.append(("PUT", f"admin/users/{user.id}/balance", {"amount": 1}))
    responses = await _sends(app, admin.token, requests)
    assert [r.status_code for r in responses] == [200] * 6, [r.text for r in responses]
    balance, entries = await _state(app, user.id)
    _assert_chain(49, balance, entries)
    assert [e.kind for e in entries].count("top_up") == 3
    # Each set left exactly its target, whatever ran beside it.
    for e in entries:
        if e.kind == "adjustment":
            assert e.balance_after_cents in (500, 725, 50), e.balance_after_cents
    # The last entry is a set (balance = its target) or a top-up (one dollar over the one before).
    last = entries[-1]
    if last.kind == "adjustment":
        assert balance in (500, 725, 50)
    else:
        assert last.amount_cents == 100


async def test_concurrent_add_user_of_one_address_gives_one_account(app: FastAPI) -> None:
    admin, _me = await signed_in(app, "boss@example.com", role="admin")
    body = {"name": "Twin", "email": "twin@example.com", "password": "Str0ngPass", "balance": 1}
    responses = await _sends(app, admin.token, [("POST", "admin/add-user", body)] * 4)
    assert sorted(r.status_code for r in responses) == [201, 400, 400, 400], [
        r.text for r in responses
    ]
    for r in responses:
        if r.status_code == 400:
            assert r.json()["message"] == "Email already exists"
            assert r.json()["errors"] == {"email": ["Email already exists"]}
    async with app.state.db.sessionmaker() as s:
        twins = list(await s.scalars(select(User).where(User.email == "twin@example.com")))
    assert len(twins) == 1
    balance, entries = await _state(app, twins[0].id)
    assert (balance, len(entries)) == (100, 1)
