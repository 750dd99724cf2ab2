"""SQLite for the async engine: short reads on the event loop, everything else on aiosqlite's thread.

aiosqlite runs every driver call on a thread of its own, and SQLAlchemy's adapter makes four of
them per statement (cursor, execute, fetch, close) plus the pool's rollback: about 1 ms of thread
hand-offs on a 2-core machine for reads that SQLite answers in 20 to 70 microseconds. So this
connection (a subclass of `aiosqlite.Connection`, which SQLAlchemy's aiosqlite dialect drives
unchanged) decides per call:

- a `SELECT` runs on the loop and is fetched whole there, under a time budget enforced by
  SQLite's progress handler. Past the budget SQLite interrupts it (interrupting a SELECT undoes
  nothing: only an interrupted write rolls a transaction back) and it runs again on the thread,
  so a heavy report never holds the loop for longer than the budget;
- on the loop the busy timeout is 0: a read that would have to wait for a lock (rare in WAL mode:
  recovery, a first connection switching the journal) goes to the thread, which waits;
- writes, DDL, PRAGMAs, BEGIN and a COMMIT or ROLLBACK of an open transaction run on the thread
  as with plain aiosqlite, with the configured busy timeout;
- creating or closing a cursor, reading prefetched rows, and committing or rolling back when no
  transaction is open (nothing to do) happen on the loop.

Writers of one process also queue on a `WriteGate` (an asyncio lock per database) from their
first write to their COMMIT or ROLLBACK. SQLite lets one writer in at a time and makes the others
poll with growing sleeps (1, 2, 5, 10 ... 100 ms), which put 100 to 300 ms tails on requests that
merely touched a token while another request's transaction was open; queued on the gate, the
next writer starts the moment the previous one ends. Other processes (the job worker, the CLI)
still meet SQLite's own busy timeout.

`stats` counts where statements ran (the tests read it).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import aiosqlite

#: How long a read may run on the event loop before it moves to the thread.
LOOP_BUDGET_S = 0.002
#: SQLite virtual-machine steps between two looks at the clock.
PROGRESS_STEPS = 1000
_FETCHES = frozenset({"fetchone", "fetchmany", "fetchall"})
#: Statements that open a write transaction (Python's sqlite3 sends BEGIN before the DML ones).
_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN"})
_BUSY = 5  # SQLITE_BUSY (the primary code; extended codes keep it in the low byte)


@dataclass
class LoopStats:
    on_loop: int = 0
    on_thread: int = 0
    moved: int = 0  # reads that ran past the budget or met a lock and went to the thread


stats = LoopStats()


def _keyword(args: tuple[Any, ...]) -> str:
    """The first word of the statement an execute call was given, upper-cased ("" if none)."""
    sql = args[0] if args else None
    return (
        sql.lstrip()[:8].split(None, 1)[0].upper() if isinstance(sql, str) and sql.strip() else ""
    )


class WriteGate:
    """One writer at a time among a process's connections to one database file."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def enter(self) -> None:
        try:
            await asyncio.wait_for(self._lock.acquire(), self.timeout_s)
        except TimeoutError:
            # What SQLite itself would have said after its busy timeout.
            raise sqlite3.OperationalError("database is locked") from None
        self._loop = asyncio.get_running_loop()

    def leave(self) -> None:
        try:
            on_loop = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            on_loop = False
        if on_loop or self._loop is None:
            self._lock.release()
        else:  # a connection finalised by the garbage collector, off the loop's thread
            self._loop.call_soon_threadsafe(self._lock.release)


class LoopReadConnection(aiosqlite.Connection):
    def __init__(
        self,
        path: str,
        *,
        busy_timeout_s: float,
        gate: WriteGate | None = None,
        budget_s: float = LOOP_BUDGET_S,
    ) -> None:
        def connector() -> sqlite3.Connection:
            # Used from the loop and from the thread, one at a time (SQLAlchemy's adapter awaits
            # each call before the next on a connection).
            return sqlite3.connect(path, timeout=0, check_same_thread=False)

        super().__init__(connector, iter_chunk_size=64)
        self._busy_ms = int(busy_timeout_s * 1000)
        self._budget_s = budget_s
        self._deadline = 0.0
        self._prefetched: dict[int, deque[Any]] = {}
        self._gate = gate
        self._holds_gate = False

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._running or self._connection is None:
            raise ValueError("Connection closed")
        conn: sqlite3.Connection = self._connection
        owner = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", "")
        if isinstance(owner, sqlite3.Cursor):
            key = id(owner)
            if name in _FETCHES and key in self._prefetched:
                return _take(self._prefetched[key], name, args)
            self._prefetched.pop(key, None)
            if name == "close":
                return owner.close()
            keyword = _keyword(args)
            if name == "execute" and keyword == "SELECT" and not kwargs:
                rows = self._read_on_loop(conn, owner, args)
                if rows is not None:
                    self._prefetched[key] = rows
                    stats.on_loop += 1
                    return owner
                stats.moved += 1
            if name in ("execute", "executemany"):
                stats.on_thread += 1
                if not conn.in_transaction and keyword in _WRITES:
                    await self._enter_gate()
        elif owner is conn:
            if name == "cursor":
                return conn.cursor()
            if name in ("commit", "rollback") and not conn.in_transaction:
                self._leave_gate()
                return None
            if name == "close":
                self._leave_gate()
                return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        try:
            return await super()._execute(  # type: ignore[no-untyped-call]
                self._on_thread, conn, fn, *args, **kwargs
            )
        finally:
            if not conn.in_transaction:
                self._leave_gate()

    def stop(self) -> asyncio.Future[Any] | None:
        # SQLAlchemy ends a connection it gives up on (a cancelled task, an invalidation) with
        # stop(), not through close(): whatever transaction it held dies with it, so must its
        # place at the gate.
        self._leave_gate()
        return super().stop()

    async def _enter_gate(self) -> None:
        if self._gate is not None and not self._holds_gate:
            await self._gate.enter()
            self._holds_gate = True

    def _leave_gate(self) -> None:
        if self._gate is not None and self._holds_gate:
            self._holds_gate = False
            self._gate.leave()

    def _read_on_loop(
        self, conn: sqlite3.Connection, cursor: sqlite3.Cursor, args: tuple[Any, ...]
    ) -> deque[Any] | None:
        self._deadline = time.perf_counter() + self._budget_s
        conn.set_progress_handler(self._past_budget, PROGRESS_STEPS)
        try:
            cursor.execute(*args)
            return deque(cursor.fetchall())
        except sqlite3.OperationalError as error:
            code = getattr(error, "sqlite_errorcode", 0) & 0xFF
            if code == sqlite3.SQLITE_INTERRUPT or code == _BUSY:
                return None
            raise
        finally:
            conn.set_progress_handler(None, 0)

    def _past_budget(self) -> int:
        return 1 if time.perf_counter() > self._deadline else 0

    def _on_thread(self, conn: sqlite3.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        try:
            return fn(*args, **kwargs)
        finally:
            conn.execute("PRAGMA busy_timeout=0")


def _take(rows: deque[Any], name: str, args: tuple[Any, ...]) -> Any:
    if name == "fetchone":
        return rows.popleft() if rows else None
    if name == "fetchmany":
        size = args[0] if args else 1
        return [rows.popleft() for _ in range(min(size, len(rows)))]
    taken = list(rows)
    rows.clear()
    return taken


async def connect(
    path: str, *, busy_timeout_s: float, gate: WriteGate | None = None
) -> LoopReadConnection:
    connection = LoopReadConnection(path, busy_timeout_s=busy_timeout_s, gate=gate)
    connection._thread.daemon = True
    await connection
    return connection
