"""A live call while its database is unreachable (a PostgreSQL restart; the whole call is
`tests/test_restarts.py`): writes that must not be lost are tried again until it is back
(`Database.persist`), and the agent still hangs up at the carrier."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls.media_hooks import MediaHooks
from callwright.kit import db as db_module
from callwright.kit.db import Database, on_commit, unreachable
from callwright.models import Call
from tests.factories import add_user, queued_call

pytestmark = pytest.mark.asyncio


def _refused() -> ConnectionRefusedError:
    return ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")


async def test_persist_tries_again_while_the_database_is_unreachable(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "PERSIST_FIRST_WAIT_S", 0.01)
    db: Database = app.state.db
    tries: list[int] = []
    after: list[str] = []

    async def work(session: AsyncSession) -> str:
        tries.append(1)
        if len(tries) < 3:
            raise _refused()

        async def done() -> None:
            after.append("published")

        on_commit(session, done)
        return "written"

    assert await db.persist(work, what="a line") == "written"
    assert len(tries) == 3
    assert after == ["published"], "the after-commit work runs once, after the try that landed"

    async def wrong(session: AsyncSession) -> None:
        tries.append(1)
        raise ValueError("a bug, not a restart")

    tries.clear()
    with pytest.raises(ValueError, match="a bug"):
        await db.persist(wrong, what="a line")
    assert len(tries) == 1, "only an unreachable database is tried again"
    with pytest.raises(ConnectionRefusedError):
        await db.persist(work, what="a line", within=0)
    assert unreachable(_refused())
    assert not unreachable(ValueError())


async def test_the_agent_hangs_up_while_the_database_is_down(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await add_user(app, email="db-down@example.com", balance_cents=1000)
    call = await queued_call(app, user.id)
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call.id)
        assert row is not None
        row.status, row.carrier_call_id = "ringing", "CA-db-down"
        await session.commit()
    hooks: MediaHooks = app.state.media_calls.hooks(call.id)
    await hooks.answered()
    hung_up: list[str] = []

    async def hang_up(carrier_call_id: str) -> None:
        hung_up.append(carrier_call_id)

    monkeypatch.setattr(app.state.calls.flows.carrier, "hang_up", hang_up)

    async def down(*_args: Any) -> AsyncIterator[AsyncSession]:
        raise _refused()
        yield  # an async generator, as Database.session is

    with monkeypatch.context() as outage:
        outage.setattr(app.state.db, "session", down)
        await hooks.hang_up("completed")
    assert hung_up == ["CA-db-down"], "the call ends at the carrier all the same"

    # Back: the media's end writes why the call ended before the carrier's end is applied.
    await hooks.finished(None)
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call.id)
        assert row is not None
        assert row.end_reason == "completed"
        assert row.media_ended_at is not None
