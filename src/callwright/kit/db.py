"""Async SQLAlchemy engine, sessions and the request-owned transaction."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from datetime import datetime
from functools import partial
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import DateTime, MetaData, event, make_url
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, ORMExecuteState, Session
from sqlalchemy.sql import Executable
from sqlalchemy.types import TypeDecorator
from tenacity import RetryCallState

from callwright.kit import sqlite_loop
from callwright.kit.retry import backoff, failure
from callwright.kit.time import as_utc

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long `Database.persist` keeps trying while the database is unreachable (a restart, a
#: fail-over), and its waits between tries: the first, doubled up to the last.
PERSIST_WITHIN_S = 300.0
PERSIST_FIRST_WAIT_S, PERSIST_MAX_WAIT_S = 0.25, 5.0

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = as_utc(value)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


def unique_violation(exc: IntegrityError) -> str | None:
    """What a unique-constraint violation names, or None for any other integrity error.
    PostgreSQL (asyncpg) gives the constraint or index name (`uq_users_email_lower`); SQLite the
    index name for an index (`uq_users_email_lower`) and `table.column[, ...]` for a column
    constraint (`users.email`). Callers compare with the names they know for one rule.

    A violation surfaces when the unit of work writes the row (a flush), on both backends: a
    concurrent transaction that inserted the same key first has committed by then (SQLite's
    writers take turns; PostgreSQL waits on the index entry until the other commits)."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23505":  # asyncpg, through SQLAlchemy's adapter
        name = getattr(getattr(orig, "__cause__", None), "constraint_name", None)
        return str(name) if name else ""
    if getattr(orig, "sqlite_errorname", None) in (
        "SQLITE_CONSTRAINT_UNIQUE",
        "SQLITE_CONSTRAINT_PRIMARYKEY",
    ):
        detail = str(orig).partition("constraint failed:")[2].strip()
        if detail.startswith("index "):
            return detail.removeprefix("index ").strip("'\"")
        return detail
    return None


AfterCommit = Callable[[], Awaitable[None]]


def on_commit(session: AsyncSession, callback: AfterCommit) -> None:
    """Run `callback` once the request's transaction has committed (jobs, e-mails, events)."""
    session.info.setdefault("after_commit", []).append(callback)


async def run_after_commit(session: AsyncSession) -> None:
    callbacks: list[AfterCommit] = session.info.pop("after_commit", [])
    for callback in callbacks:
        await callback()


class WriteBehind:
    """Writes nobody waits for (a token's last-used time): kept per statement and key, the
    latest parameters winning, and written by one background task in one short transaction, a
    single `executemany` per statement. A read-only request so stays read-only: it neither holds
    SQLite's write lock while it runs nor queues behind other writers before it can answer.
    `drain()` writes what is pending (the app's shutdown; tests)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._pending: dict[Executable, dict[Hashable, dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None

    def put(self, statement: Executable, key: Hashable, params: dict[str, Any]) -> None:
        self._pending.setdefault(statement, {})[key] = params
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._write(), name="write-behind")

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                async with self._engine.begin() as connection:
                    for statement, rows in batch.items():
                        await connection.execute(statement, list(rows.values()))
            except Exception:
                log.exception("write-behind: %d statement(s) not written", len(batch))

    async def drain(self) -> None:
        # `put` always has a task running while anything is pending, and the task writes until
        # nothing is: waiting for it is enough.
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


def unreachable(exc: BaseException) -> bool:
    """Whether `exc` says the database could not be reached rather than that the statement was
    wrong: a refused or cut connection, or a server that is starting up or shutting down
    (SQLSTATE classes 08 and 57P). Another try may succeed once it is back."""
    if isinstance(exc, OSError):
        return True
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        exc = exc.orig or exc
    state = str(getattr(exc, "sqlstate", "") or "")
    return state.startswith(("08", "57P"))


class Database:
    def __init__(self, url: str, *, echo: bool = False) -> None:
        kwargs: dict[str, Any] = {"echo": echo}
        if url.startswith("sqlite"):
            path = make_url(url).database or ":memory:"
            gate = sqlite_loop.WriteGate(timeout_s=30)
            kwargs["async_creator"] = partial(
                sqlite_loop.connect, path, busy_timeout_s=30, gate=gate
            )
            # Connections are cheap here and opening one costs a thread and three PRAGMAs: keep
            # as many as requests in flight (5 + 10 overflow churned under 20 clients).
            kwargs.update(pool_size=20, max_overflow=20)
        else:
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessionmaker = async_sessionmaker(
            self.engine, expire_on_commit=False, sync_session_class=TrackedSession
        )
        self.write_behind = WriteBehind(self.engine)

    async def dispose(self) -> None:
        await self.write_behind.drain()
        await self.engine.dispose()

    async def session(self) -> AsyncIterator[AsyncSession]:
        """A unit of work: commit once at the end, roll back on error, then run after-commit work."""
        async with self.sessionmaker() as session:
            try:
                yield session
                if wrote(session):
                    await session.commit()
            except BaseException:
                await session.rollback()
                raise
        await run_after_commit(session)

    async def persist(
        self,
        work: Callable[[AsyncSession], Awaitable[T]],
        *,
        what: str,
        within: float = PERSIST_WITHIN_S,
    ) -> T:
        """Run `work` in a unit of work of its own, as `session()` does, and run it again in a
        new one while the database is unreachable (`unreachable`: restarting, failing over),
        waiting longer between tries, for up to `within` seconds. For writes that must not be
        lost to a restart (a call's transcript line, its media's end). A try that failed rolled
        back, except a COMMIT cut off mid-way, which may have landed: `work` must find what an
        earlier try wrote rather than write it twice. The after-commit work runs once, after
        the try that committed."""

        def warn(state: RetryCallState) -> None:
            log.warning("%s: database unreachable (%s); trying again", what, failure(state))

        retrying = backoff(
            unreachable,
            first=PERSIST_FIRST_WAIT_S,
            longest=PERSIST_MAX_WAIT_S,
            within=within,
            before_sleep=warn,
        )
        outcome: tuple[AsyncSession, T] = await retrying(self._unit_of_work, work)
        session, result = outcome
        await run_after_commit(session)
        return result

    async def _unit_of_work(
        self, work: Callable[[AsyncSession], Awaitable[T]]
    ) -> tuple[AsyncSession, T]:
        """One try of `persist`: `work` in a session of its own, committed; rolled back (as far
        as the connection allows) when it fails."""
        async with self.sessionmaker() as session:
            try:
                result = await work(session)
                if wrote(session):
                    await session.commit()
            except BaseException:
                with contextlib.suppress(Exception):  # the connection may be gone
                    await session.rollback()
                raise
        return session, result


class TrackedSession(Session):
    """A Session that notes whether it wrote anything (see `wrote`)."""


@event.listens_for(TrackedSession, "do_orm_execute")
def _note_writes(state: ORMExecuteState) -> None:
    if not state.is_select:
        state.session.info["wrote"] = True


@event.listens_for(TrackedSession, "after_flush")
def _note_flush(session: Session, _context: Any) -> None:
    session.info["wrote"] = True


def wrote(session: AsyncSession) -> bool:
    """Whether the unit of work changed anything; a read-only request skips its COMMIT (closing
    the session ends the read transaction)."""
    return bool(session.info.pop("wrote", False) or session.new or session.dirty or session.deleted)


#: How much of the database file SQLite reads through a memory map rather than read() calls
#: into each connection's own 2 MB page cache. With 20 pooled connections that cache was cold
#: for most pages a request touched, and copying them in was a fifth of a call-log page's CPU;
#: mapped, every connection reads the one copy in the OS page cache. Address space, not memory.
SQLITE_MMAP_BYTES = 1 << 30


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
    cursor.close()


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    db: Database = request.app.state.db
    async for session in db.session():
        yield session


#: The request's unit of work. Scope "function": FastAPI ends a yield dependency after the
#: response has been sent unless told otherwise, so the COMMIT (and the after-commit work) came
#: after the client had its answer: a client asking again at once could read the state before
#: its own write, and a COMMIT that failed could no longer answer the error.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]
