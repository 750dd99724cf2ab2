"""The SQLite connection that runs short reads on the event loop (kit/sqlite_loop.py): reads stay
correct whichever side runs them, heavy or blocked reads move to the thread, writers of one
process queue on the gate, and deferred writes (token last-used times) land."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import text, update
from sqlalchemy.exc import OperationalError

from callwright.kit import sqlite_loop
from callwright.kit.db import Database
from callwright.models import ApiToken
from tests.factories import make_client, make_user


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'loop.db'}")
    async with database.engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (n INTEGER PRIMARY KEY, label TEXT)"))
        await conn.execute(
            text("INSERT INTO t (n, label) VALUES (:n, :label)"),
            [{"n": n, "label": f"row {n}"} for n in range(1, 2001)],
        )
    yield database
    await database.dispose()


def _counts() -> tuple[int, int, int]:
    s = sqlite_loop.stats
    return s.on_loop, s.on_thread, s.moved


async def test_short_reads_run_on_the_loop_and_return_every_row(db: Database) -> None:
    before = _counts()
    async with db.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT n, label FROM t WHERE n <= 3 ORDER BY n"))).all()
        one = (await conn.execute(text("SELECT label FROM t WHERE n = :n"), {"n": 2000})).one()
        streamed = [
            r.n async for r in await conn.stream(text("SELECT n FROM t WHERE n > 1990 ORDER BY n"))
        ]
    assert [tuple(r) for r in rows] == [(1, "row 1"), (2, "row 2"), (3, "row 3")]
    assert one.label == "row 2000"
    assert streamed == list(range(1991, 2001))
    on_loop, on_thread, moved = _counts()
    assert on_loop - before[0] == 3
    assert (on_thread, moved) == before[1:]


async def test_a_read_past_the_budget_is_interrupted_and_finished_on_the_thread(
    db: Database,
) -> None:
    before = _counts()
    async with db.engine.connect() as conn:
        # 4 million joined rows: far past the 2 ms the loop lends a read.
        total = await conn.scalar(text("SELECT count(*) FROM t AS a, t AS b"))
        # The progress handler is gone afterwards: a second heavy read is not cut short either.
        again = await conn.scalar(text("SELECT count(*) FROM t AS a, t AS b WHERE a.n < 1000"))
    assert total == 4_000_000
    assert again == 999 * 2000
    assert _counts()[2] - before[2] == 2


async def test_a_read_that_would_wait_for_a_lock_waits_on_the_thread(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.db")  # rollback journal: an exclusive lock blocks readers
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE t (n INTEGER)")
    setup.execute("INSERT INTO t VALUES (42)")
    setup.commit()
    setup.execute("BEGIN EXCLUSIVE")
    conn = await sqlite_loop.connect(path, busy_timeout_s=10)
    try:
        before = _counts()
        cursor = await conn.cursor()
        read = asyncio.create_task(cursor.execute("SELECT n FROM t"))
        await asyncio.sleep(0.1)
        assert not read.done()  # waiting on the thread, the loop free meanwhile
        setup.rollback()
        await read
        assert list(await cursor.fetchall()) == [(42,)]
        assert _counts()[2] - before[2] == 1
    finally:
        await conn.close()
        setup.close()


async def test_errors_from_reads_on_the_loop_are_the_drivers_errors(db: Database) -> None:
    async with db.engine.connect() as conn:
        with pytest.raises(OperationalError, match="no such table"):
            await conn.execute(text("SELECT * FROM missing"))
        # The connection is still usable afterwards.
        assert await conn.scalar(text("SELECT count(*) FROM t")) == 2000


async def test_writers_queue_on_the_gate_until_the_first_commits(db: Database) -> None:
    first = await db.engine.connect()
    second = await db.engine.connect()
    try:
        await first.execute(text("UPDATE t SET label = 'first' WHERE n = 1"))
        waiting = asyncio.create_task(
            second.execute(text("UPDATE t SET label = 'second' WHERE n = 1"))
        )
        await asyncio.sleep(0.1)
        assert not waiting.done()  # queued behind the open write transaction, not failing
        async with db.engine.connect() as reader:  # reads go on meanwhile
            assert await reader.scalar(text("SELECT label FROM t WHERE n = 1")) == "row 1"
        await first.commit()
        await asyncio.wait_for(waiting, 5)
        await second.commit()
    finally:
        await first.close()
        await second.close()
    async with db.engine.connect() as conn:
        assert await conn.scalar(text("SELECT label FROM t WHERE n = 1")) == "second"


async def test_a_rolled_back_or_closed_writer_lets_the_next_one_in(db: Database) -> None:
    async with db.engine.connect() as conn:
        await conn.execute(text("UPDATE t SET label = 'undone' WHERE n = 2"))
        await conn.rollback()
    conn = await db.engine.connect()
    await conn.execute(text("UPDATE t SET label = 'dropped' WHERE n = 2"))
    await conn.close()  # returned to the pool: rolled back, the gate released
    async with db.engine.begin() as other:
        await other.execute(text("UPDATE t SET label = 'kept' WHERE n = 2"))
    async with db.engine.connect() as check:
        assert await check.scalar(text("SELECT label FROM t WHERE n = 2")) == "kept"


async def test_the_gate_gives_up_like_sqlite_does() -> None:
    gate = sqlite_loop.WriteGate(timeout_s=0.05)
    await gate.enter()
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        await gate.enter()
    gate.leave()
    await gate.enter()
    gate.leave()


async def test_write_behind_keeps_the_latest_value_per_key_and_survives_a_failure(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    statement = text("UPDATE t SET label = :label WHERE n = :n")
    db.write_behind.put(statement, 5, {"n": 5, "label": "early"})
    db.write_behind.put(statement, 5, {"n": 5, "label": "late"})
    db.write_behind.put(statement, 6, {"n": 6, "label": "six"})
    await db.write_behind.drain()
    with caplog.at_level(logging.ERROR, logger="callwright.kit.db"):
        db.write_behind.put(text("UPDATE missing SET x = :x"), 1, {"x": 1})
        await db.write_behind.drain()
    assert "not written" in caplog.text
    db.write_behind.put(statement, 7, {"n": 7, "label": "after"})
    await db.write_behind.drain()
    async with db.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT n, label FROM t WHERE n IN (5, 6, 7)"))).all()
    assert sorted(tuple(r) for r in rows) == [(5, "late"), (6, "six"), (7, "after")]


async def test_a_request_touches_its_token_behind_the_answer(app: FastAPI) -> None:
    db: Database = app.state.db
    async with db.sessionmaker() as session:
        user = await make_user(session, email="touch@example.com")
        await session.commit()
    async with make_client(app) as client:
        await client.login(user.email)
        token_id = int(str(client.token).split("|")[0])
        async with db.sessionmaker() as session:
            await session.execute(
                update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=None)
            )
            await session.commit()
        answer = await client.api("GET", f"user/{user.id}/stats")
        assert answer.status_code == 200, answer.text
    await db.write_behind.drain()
    async with db.sessionmaker() as session:
        token = await session.get(ApiToken, token_id)
        assert token is not None
        assert token.last_used_at is not None


async def test_a_connection_given_up_on_leaves_the_gate(tmp_path: Path) -> None:
    path = str(tmp_path / "stop.db")
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE t (n INTEGER)")
    setup.commit()
    setup.close()
    gate = sqlite_loop.WriteGate(timeout_s=1)
    conn = await sqlite_loop.connect(path, busy_timeout_s=1, gate=gate)
    cursor = await conn.cursor()
    await cursor.execute("INSERT INTO t VALUES (1)")
    assert conn.in_transaction
    with pytest.raises(sqlite3.OperationalError):
        await gate.enter()  # held by the open transaction
    stopped = conn.stop()  # what SQLAlchemy's terminate() does
    if stopped is not None:
        await stopped
    await asyncio.wait_for(gate.enter(), 1)  # free again
    gate.leave()
