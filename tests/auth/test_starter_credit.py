"""A verified new account gets the starter credit (CALLWRIGHT_STARTER_CREDIT_CENTS) once, as a
ledger entry: verified by its e-mail link, by a password-reset link, or by Google."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.auth import google
from callwright.auth.service import mark_verified
from callwright.models import LedgerEntry, User
from tests.factories import ApiClient, add_user, link_path, make_client, outbox, query_of, signed_in

pytestmark = pytest.mark.asyncio

STARTER = 100  # the default, $1


async def _credits(app: FastAPI, email: str) -> tuple[int, list[LedgerEntry]]:
    async with app.state.db.sessionmaker() as session:
        user = await session.scalar(select(User).where(User.email == email))
        assert user is not None
        entries = await session.scalars(select(LedgerEntry).where(LedgerEntry.user_id == user.id))
        return user.balance_cents, list(entries)


async def test_verifying_the_email_credits_once(app: FastAPI, client: ApiClient) -> None:
    response = await client.api(
        "POST",
        "register",
        json={"name": "N", "email": "new@example.com", "password": "long enough"},
    )
    assert response.status_code == 201
    assert await _credits(app, "new@example.com") == (0, [])  # nothing before verification
    link = (await outbox(app, "new@example.com"))[0].link
    assert link is not None

    # Two clicks at once and one later: one credit.
    async with make_client(app) as other:
        first, second = await asyncio.gather(
            client.get(link_path(link)), other.get(link_path(link))
        )
    locations = sorted([first.headers["location"], second.headers["location"]])
    assert locations[1] == "/login?verified=true"
    assert query_of(locations[0])["error"] == "already_verified"
    await client.get(link_path(link))

    balance, entries = await _credits(app, "new@example.com")
    assert balance == STARTER
    assert [(e.kind, e.amount_cents, e.balance_after_cents) for e in entries] == [
        ("starter_credit", STARTER, STARTER)
    ]
    # The first call works: the user's stats show it.
    await client.login("new@example.com", "long enough")
    async with app.state.db.sessionmaker() as session:
        user_id = await session.scalar(select(User.id).where(User.email == "new@example.com"))
    stats = await client.api("GET", f"user/{user_id}/stats")
    assert stats.json()["data"]["balance"] == 1.0
    # The billing history shows it (its kind is one the history's schema knows).
    history = await client.api("GET", "billing/history")
    assert history.status_code == 200, history.text
    assert [e["kind"] for e in history.json()["data"]] == ["starter_credit"]


async def test_a_reset_link_verifies_and_credits_once(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="late@example.com", verified=False)
    for password in ("brand new secret", "another new secret"):
        await client.api("POST", "forgot-password", json={"email": "late@example.com"})
        mails = [m for m in await outbox(app, "late@example.com") if m.kind == "reset-password"]
        assert mails[0].link
        params = query_of(mails[0].link)
        reset = await client.api(
            "POST",
            "reset-password",
            json={"token": params["token"], "email": "late@example.com", "password": password},
        )
        assert reset.status_code == 200, reset.text
    balance, entries = await _credits(app, "late@example.com")
    assert (balance, [e.kind for e in entries]) == (STARTER, ["starter_credit"])


async def test_a_google_sign_up_is_credited_once(app: FastAPI) -> None:
    claims = {"sub": "g-1", "email": "g@example.com", "email_verified": True, "name": "G"}
    billing = app.state.calls.billing
    for _ in range(2):  # signs up, then signs in again
        async with app.state.db.sessionmaker() as session:
            await google.sign_in(session, billing, app.state.settings, claims)
            await session.commit()
    balance, entries = await _credits(app, "g@example.com")
    assert (balance, [e.kind for e in entries]) == (STARTER, ["starter_credit"])


async def test_an_admin_created_user_gets_the_opening_balance_only(app: FastAPI) -> None:
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    async with admin:
        response = await admin.api(
            "POST",
            "admin/add-user",
            json={
                "name": "Made",
                "email": "made@example.com",
                "password": "Long enough 1",
                "role": "user",
                "balance": 10,
            },
        )
    assert response.status_code == 201, response.text
    balance, entries = await _credits(app, "made@example.com")
    assert (balance, [e.kind for e in entries]) == (1000, ["top_up"])  # the spec's $10


async def test_no_starter_credit_when_set_to_zero(app: FastAPI, client: ApiClient) -> None:
    settings = app.state.settings
    saved = settings.starter_credit_cents
    settings.starter_credit_cents = 0
    try:
        await add_user(app, email="zero@example.com", verified=False)
        async with app.state.db.sessionmaker() as session:
            user = await session.scalar(select(User).where(User.email == "zero@example.com"))
            assert user is not None
            assert await mark_verified(session, app.state.calls.billing, settings, user)
            await session.commit()
    finally:
        settings.starter_credit_cents = saved
    assert await _credits(app, "zero@example.com") == (0, [])
