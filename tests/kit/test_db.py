"""The request's unit of work commits what it wrote, and a read-only one skips the COMMIT."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import select, update

from callwright.kit.db import Database, wrote
from callwright.models import User
from tests.factories import make_user


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
