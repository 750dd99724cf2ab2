"""Sign-in under concurrency (issue 15): bursts of logins, password resets and registrations
sent at once must give exactly the outcomes one at a time would."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.auth import service
from callwright.config import Settings
from callwright.kit.security import verify_password_async
from callwright.models import PasswordResetToken, User
from tests.factories import DEFAULT_PASSWORD, add_user, make_client, outbox, query_of

pytestmark = pytest.mark.asyncio


async def _burst(
    app: FastAPI, n: int, send: Callable[[int], Awaitable[httpx.Response]]
) -> list[int]:
    return [r.status_code for r in await asyncio.gather(*(send(i) for i in range(n)))]


async def test_a_login_burst_checks_at_most_the_account_limit(
    app: FastAPI, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """11 passwords at once against a limit of 5: five are checked, six refused unchecked.
    Every check is held until the refusals are in, so none can clear the count early."""
    await add_user(app, email="ada@example.com")
    limit = settings.login_max_failures_per_account
    checked: list[str] = []
    refusals_in = asyncio.Event()

    async def held_verify(password_hash: str | None, password: str) -> bool:
        checked.append(password)
        await asyncio.wait_for(refusals_in.wait(), 10)
        return await verify_password_async(password_hash, password)

    monkeypatch.setattr(service, "verify_password_async", held_verify)
    passwords = [f"guess number {i}" for i in range(10)] + [DEFAULT_PASSWORD]
    clients = [make_client(app, ip=f"203.0.113.{i + 10}") for i in range(len(passwords))]
    answers: list[int] = []

    async def attempt(i: int) -> httpx.Response:
        response = await clients[i].api(
            "POST", "login", json={"email": "ada@example.com", "password": passwords[i]}
        )
        answers.append(response.status_code)
        if answers.count(429) == len(passwords) - limit:
            refusals_in.set()
        return response

    try:
        codes = await _burst(app, len(passwords), attempt)
    finally:
        for c in clients:
            await c.aclose()
    assert len(checked) == limit, f"{len(checked)} passwords were checked"
    assert codes.count(429) == len(passwords) - limit
    expected = sorted([200 if DEFAULT_PASSWORD in checked else 422] + [422] * (limit - 1))
    assert sorted(c for c in codes if c != 429) == expected


async def test_a_reset_link_works_once_under_concurrency(app: FastAPI) -> None:
    await add_user(app, email="ada@example.com")
    async with make_client(app) as c:
        await c.api("POST", "forgot-password", json={"email": "ada@example.com"})
    mail = next(m for m in await outbox(app, "ada@example.com") if m.kind == "reset-password")
    assert mail.link
    token = query_of(mail.link)["token"]
    clients = [make_client(app) for _ in range(8)]

    async def reset(i: int) -> httpx.Response:
        return await clients[i].api(
            "POST",
            "reset-password",
            json={"token": token, "email": "ada@example.com", "password": f"new secret {i}"},
        )

    try:
        codes = await _burst(app, 8, reset)
    finally:
        for c in clients:
            await c.aclose()
    assert sorted(codes) == [200] + [422] * 7
    async with app.state.db.sessionmaker() as s:
        row = await s.scalar(select(PasswordResetToken))
        assert row is not None
        assert row.used_at is not None


async def test_concurrent_registrations_of_one_address_give_one_account(app: FastAPI) -> None:
    clients = [make_client(app) for _ in range(8)]
    bodies: list[dict[str, object]] = []

    async def register(i: int) -> httpx.Response:
        response = await clients[i].api(
            "POST",
            "register",
            json={"name": f"Twin {i}", "email": "twin@example.com", "password": "long enough"},
        )
        bodies.append(response.json())
        return response

    try:
        codes = await _burst(app, 8, register)
    finally:
        for c in clients:
            await c.aclose()
    assert sorted(codes) == [201] + [422] * 7, bodies
    refused = [b for b in bodies if b["success"] is False]
    assert all(
        b["message"] == "The email has already been taken."
        and b["errors"] == {"email": ["The email has already been taken."]}
        for b in refused
    ), refused
    async with app.state.db.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(User)) == 1
    assert len(await outbox(app, "twin@example.com")) == 1
