"""Factories and a browser-like API client (CSRF pre-flight before mutations, like the SPA)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls.service import CallOrder
from callwright.kit.db import Base, Database
from callwright.kit.security import hash_password
from callwright.kit.time import utcnow
from callwright.mail import repository as mail
from callwright.models import Call, EmailMessage, TranscriptEntry, User

DEFAULT_PASSWORD = "correct horse battery"
APP_URL = "http://testserver"


class ApiClient(httpx.AsyncClient):
    """`api_*` helpers do what the SPA does: fetch the CSRF cookie, echo it in X-XSRF-TOKEN,
    and send the bearer token once signed in."""

    token: str | None = None

    async def csrf(self) -> str:
        response = await self.get("/api/v1/sanctum/csrf-cookie")
        assert response.status_code == 204
        return str(self.cookies["XSRF-TOKEN"])

    async def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = dict(kwargs.pop("headers", {}))
        if method.upper() not in ("GET", "HEAD"):
            headers["X-XSRF-TOKEN"] = await self.csrf()
        if self.token:
            headers.setdefault("Authorization", f"Bearer {self.token}")
        return await self.request(method, "/api/v1/" + path.lstrip("/"), headers=headers, **kwargs)

    async def login(self, email: str, password: str = DEFAULT_PASSWORD) -> dict[str, Any]:
        response = await self.api("POST", "login", json={"email": email, "password": password})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        self.token = body["token"]
        return body


async def make_user(
    session: AsyncSession,
    *,
    email: str = "ada@example.com",
    name: str = "Ada Lovelace",
    password: str | None = DEFAULT_PASSWORD,
    role: str = "user",
    verified: bool = True,
    balance_cents: int = 0,
) -> User:
    user = User(
        name=name,
        email=email.lower(),
        password_hash=hash_password(password) if password else None,
        role=role,
        balance_cents=balance_cents,
        email_verified_at=utcnow() if verified else None,
    )
    session.add(user)
    await session.flush()
    return user


def make_client(application: FastAPI, ip: str = "203.0.113.7", **kwargs: object) -> ApiClient:
    """A browser-like client over ASGI, calling from `ip`."""
    transport = httpx.ASGITransport(app=application, client=(ip, 5555))
    return ApiClient(transport=transport, base_url=APP_URL, follow_redirects=False, **kwargs)  # type: ignore[arg-type]


async def signed_in(app: FastAPI, email: str, **kwargs: Any) -> tuple[ApiClient, User]:
    """A new user and an unopened client (use it with `async with`) carrying their token."""
    user = await add_user(app, email=email, **kwargs)
    async with make_client(app) as first:
        await first.login(email)
    client = make_client(app)
    client.token = first.token
    return client, user


async def add_user(app: FastAPI, **kwargs: Any) -> User:
    async with app.state.db.sessionmaker() as session:
        user = await make_user(session, **kwargs)
        await session.commit()
        return user


async def outbox(app: FastAPI, to: str | None = None) -> list[EmailMessage]:
    async with app.state.db.sessionmaker() as session:
        return list(await mail.latest(session, limit=50, to_address=to))


def link_path(link: str) -> str:
    """The path and query of an absolute link, for the ASGI client."""
    parts = urlsplit(link)
    return parts.path + ("?" + parts.query if parts.query else "")


def query_of(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def first_link(text: str) -> str:
    match = re.search(r"https?://\S+", text)
    assert match, f"no link in {text!r}"
    return match.group(0)


#: The zero of a script's decimal digits, for numbers written in it.
ARABIC_INDIC, DEVANAGARI, FULLWIDTH = 0x0660, 0x0966, 0xFF10


def in_digits(text: str, zero: int) -> str:
    """`text` with its ASCII digits written in the script whose zero is `zero`."""
    return "".join(chr(zero + int(c)) if c.isascii() and c.isdigit() else c for c in text)


async def queued_call(app: FastAPI, user_id: int | None, **overrides: Any) -> Call:
    """A call placed through the calls service (a user's hold taken; none for a test call,
    `user_id=None`) and committed in a session without after-commit work: it stays queued,
    nothing dials it."""
    fields: dict[str, Any] = {
        "kind": "dashboard",
        "user_id": user_id,
        "to_number": "+15551230000",
        "from_number": "+18885550100",
        "prompt": "You are Sam from Acme Dental, confirming tomorrow's cleaning at 3 pm.",
        "voice": "joe",
        "max_duration": 2,
    }
    order = CallOrder(**(fields | overrides))
    async with app.state.db.sessionmaker() as session:
        call: Call = await app.state.calls.service.place(session, order)
        await session.commit()
        return call


async def add_api_key(app: FastAPI, user: User, name: str = "test key") -> str:
    """A live `/v1` API key for `user`; answers the key itself."""
    from callwright.developers.keys import new_key
    from callwright.models import ApiKey

    key, prefix, key_hash = new_key()
    async with app.state.db.sessionmaker() as session:
        session.add(ApiKey(user_id=user.id, name=name, prefix=prefix, key_hash=key_hash))
        await session.commit()
    return key


async def finished_call(
    app: FastAPI,
    user_id: int | None,
    talk: Sequence[tuple[str, str]] = (),
    *,
    answered: bool = True,
    **values: Any,
) -> str:
    """A call that has ended (its media too) with its transcript `talk` ((speaker, text)
    lines), written directly and not finalised unless `values` says so; answers its id."""
    at = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
    fields: dict[str, Any] = {
        "user_id": user_id,
        "carrier": "sandbox",
        "carrier_call_id": "CA" + "5" * 32 if answered else None,
        "from_number": "+18885550100",
        "to_number": "+15551230000",
        "prompt": "You are Sam from Acme Tours, booking a city tour for the customer.",
        "voice": "joe",
        "status": "completed" if answered else "no-answer",
        "end_reason": "completed" if answered else "no-answer",
        "answered_at": at if answered else None,
        "answered_by": "human" if answered else None,
        "ended_at": at,
        "media_ended_at": at if answered else None,
        "duration_seconds": 30 if answered else 0,
        "max_duration": 2,
    } | values
    async with app.state.db.sessionmaker() as session:
        call = Call(**fields)
        session.add(call)
        await session.flush()
        for seq, (speaker, text) in enumerate(talk, 1):
            session.add(TranscriptEntry(call_id=call.id, seq=seq, speaker=speaker, text=text))
        await session.commit()
        return call.id


async def wipe(db: Database) -> None:
    """Empties every table (before each test that uses the app; a test with its own app on the
    session's database calls it itself)."""
    async with db.engine.begin() as conn:
        tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
        if conn.dialect.name == "postgresql":
            # A connection a test leaked inside a transaction holds a lock that would make the
            # TRUNCATE (and so the whole run) wait for ever: fail within seconds instead.
            await conn.execute(text("SET LOCAL lock_timeout = '20s'"))
            await conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
        else:
            for name in tables:
                await conn.execute(text(f"DELETE FROM {name}"))  # noqa: S608 - our own table names
