"""The request's unit of work commits what it wrote, and a read-only one skips the COMMIT."""

from __future__ import annotations

import json

from fastapi import FastAPI
from sqlalchemy import select, update
from starlette.types import Message, Scope

from callwright.kit.db import Database, wrote
from callwright.models import User
from tests.factories import make_user, signed_in


async def test_reads_write_nothing_and_every_kind_of_write_is_noticed(app: FastAPI) -> None:
    db: Database = app.state.db
    async with db.sessionmaker() as session:
        user = await make_user(session, email="unit@example.com")
        await session.commit()
        user_id = user.id

    async with db.sessionmaker() as session:
        await session.scalar(select(User).where(User.id == user_id))
        assert not wrote(session)

    async with db.sessionmaker() as session:  # a Core UPDATE through the session
        await session.execute(update(User).where(User.id == user_id).values(name="Changed"))
        assert wrote(session)

    async with db.sessionmaker() as session:  # an ORM change, not yet flushed
        row = await session.get(User, user_id)
        assert row is not None
        row.name = "Dirty"
        assert wrote(session)

    async with db.sessionmaker() as session:  # an ORM change already flushed
        row = await session.get(User, user_id)
        assert row is not None
        row.name = "Flushed"
        await session.flush()
        assert wrote(session)


async def test_the_unit_of_work_commits_what_it_wrote(app: FastAPI) -> None:
    db: Database = app.state.db
    async for session in db.session():
        user = await make_user(session, email="kept@example.com")
        user_id = user.id
    async for session in db.session():
        await session.execute(update(User).where(User.id == user_id).values(name="Renamed"))
    async with db.sessionmaker() as session:
        assert (await session.get(User, user_id)).name == "Renamed"  # type: ignore[union-attr]


async def test_a_write_is_committed_before_its_response_is_sent(app: FastAPI) -> None:
    """The unit of work ends before the answer leaves: a client that has its 200 and asks again
    (or another client) reads what it wrote, and a failed COMMIT can still answer an error.
    (FastAPI ends a yield dependency after the response unless its scope is "function".)"""
    client, user = await signed_in(app, "uow-order@example.com", name="Old Name")
    db: Database = app.state.db
    seen: list[str | None] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200
            async with db.sessionmaker() as other:  # another connection: sees committed rows
                seen.append(await other.scalar(select(User.name).where(User.id == user.id)))

    body = json.dumps({"name": "New Name"}).encode()
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "PUT",
        "scheme": "http",
        "path": "/api/v1/user/profile",
        "raw_path": b"/api/v1/user/profile",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"authorization", f"Bearer {client.token}".encode()),
        ],
        "client": ("203.0.113.7", 5555),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    await app(scope, receive, send)
    assert seen == ["New Name"]
