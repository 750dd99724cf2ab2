"""Redis, then PostgreSQL, restarted with calls live (issue 19): an API process (with the sandbox
network and the embedded worker) and a `callwright voice` process apart, both on a private
Redis (and, for the second test, a private PostgreSQL cluster) that the test stops mid-call and
starts again (tests/servers.py; the machine's shared servers are never touched).

- Redis: the calls go on; a socket.io client of the API process receives the live transcript
  again once Redis is back; the post-call analysis job of a call that ended while Redis was down
  (sent by the voice process, held until Redis answered) still runs.
- PostgreSQL: the calls go on; the transcript lines spoken while it was down are written once it
  is back, the media's end too; the final status callbacks the carrier could not deliver are
  read from the carrier by the reconciler; each call ends completed, billed once for the seconds
  the carrier reported, with its whole transcript.

The PostgreSQL pass of scripts/test.sh runs them (the SQLite pass skips them)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import socketio
from alembic import command
from fastapi import FastAPI
from sqlalchemy import select

from callwright.billing.service import cost_for
from callwright.calls import flows as flows_module
from callwright.calls.events import CONNECTED
from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.models import Call, LedgerEntry, TranscriptEntry
from callwright.sandbox.network import SandboxNetwork
from tests.factories import add_user, make_client
from tests.live import place_call
from tests.servers import have_servers, private_postgres, private_redis
from tests.workers import voice_stage

pytestmark = pytest.mark.asyncio

#: Talking callees (docs/sandbox.md): two short calls (one declines, one says it is the wrong
#: number), a longer one (interested), and one who says "Hello?" and hangs up 4 s later.
DECLINES, WRONG_PERSON = "+15551230004", "+15551230001"
INTERESTED, HANGS_UP = "+15551230003", "+15005550005"
#: The longest any wait of these tests may take (seconds).
WITHIN = 90.0


def _skip_unless_servers(migrated: Settings) -> None:
    if not migrated.database_url.startswith("postgresql") or not have_servers():
        pytest.skip("private PostgreSQL + Redis: the PostgreSQL pass of scripts/test.sh runs it")


async def _until(what: str, done: Callable[[], Awaitable[bool]], *, explain: str = "") -> None:
    """Wait for `done()` (every 0.2 s), failing after `WITHIN` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WITHIN
    while not await done():
        assert loop.time() < deadline, f"{what} did not happen within {WITHIN} s. {explain}"
        await asyncio.sleep(0.2)


@dataclass
class Stage:
    """The API process (in this test's loop) and the voice process's log."""

    api: FastAPI
    url: str
    log: Path

    @property
    def network(self) -> SandboxNetwork:
        network: SandboxNetwork = self.api.state.sandbox
        return network

    async def calls(self, ids: list[str]) -> dict[str, Call]:
        async with self.api.state.db.sessionmaker() as session:
            return {c.id: c for c in await session.scalars(select(Call).where(Call.id.in_(ids)))}

    async def lines(self, call_id: str) -> list[TranscriptEntry]:
        async with self.api.state.db.sessionmaker() as session:
            query = select(TranscriptEntry).where(TranscriptEntry.call_id == call_id)
            return list(await session.scalars(query.order_by(TranscriptEntry.seq)))

    def ended_at_carrier(self, call: Call) -> bool:
        sandbox = self.network.calls.get(call.carrier_call_id or "")
        return sandbox is not None and sandbox.ended is not None

    async def finalized(self, ids: list[str]) -> bool:
        return all(c.finalized_at is not None for c in (await self.calls(ids)).values())


@asynccontextmanager
async def stage(settings: Settings, tmp_path: Path, **env: str) -> AsyncIterator[Stage]:
    """An API process on `settings` and a voice process (with `env`), its models loaded."""
    async with voice_stage(settings, tmp_path, **env) as apart:
        yield Stage(apart.api, apart.url, apart.log)
        assert apart.voice.poll() is None, apart.log.read_text()


async def test_a_redis_restart_loses_no_event_stream_and_no_job(
    migrated: Settings, tmp_path: Path
) -> None:
    _skip_unless_servers(migrated)
    with private_redis() as redis:
        settings = migrated.model_copy(
            update={"redis_url": redis.url, "job_broker_url": redis.url, "embedded_worker": True}
        )
        env = {"CALLWRIGHT_REDIS_URL": redis.url, "CALLWRIGHT_JOB_BROKER_URL": redis.url}
        async with stage(settings, tmp_path, **env) as s:
            user = await add_user(s.api, email="redis-restart@example.com", balance_cents=10_000)
            async with make_client(s.api) as client:
                token = (await client.login(user.email))["token"]
            #: (whether Redis had come back when it arrived, the event)
            received: list[tuple[bool, dict[str, Any]]] = []
            restarted = False

            async def on_event(data: dict[str, Any]) -> None:
                received.append((restarted, data))

            watcher = socketio.AsyncClient(reconnection=False)
            watcher.on("webhook-event", on_event)
            await watcher.connect(
                s.url, auth={"token": token}, transports=["websocket"], wait_timeout=10
            )
            try:

                def lines_seen(call_id: str, after_restart: bool) -> int:
                    return sum(
                        1
                        for back, e in received
                        if e["callId"] == call_id and "speaker" in e and back == after_restart
                    )

                def connected(call_id: str) -> bool:
                    return any(
                        e["callId"] == call_id and e["message"] == CONNECTED for _, e in received
                    )

                long = await place_call(s.api, INTERESTED, user_id=user.id)

                async def long_talking() -> bool:
                    return lines_seen(long, False) >= 1

                await _until("the long call's first line on the socket", long_talking)
                short = await place_call(s.api, HANGS_UP, user_id=user.id)

                async def short_answered() -> bool:
                    return connected(short)

                await _until("the short call's answer on the socket", short_answered)
                await asyncio.to_thread(redis.stop)

                # The short call ends (and is finalised, its analysis job sent) while Redis is
                # down; the long one talks on.
                async def short_finalized() -> bool:
                    return (await s.calls([short]))[short].finalized_at is not None

                await _until("the short call's end while Redis is down", short_finalized)
                long_call = (await s.calls([long]))[long]
                assert not s.ended_at_carrier(long_call), "the long call outlived the outage"
                await asyncio.to_thread(redis.start)
                restarted = True

                # Live again: the long call's events reach the socket up to its end.
                async def closed_live() -> bool:
                    return any(
                        back and e["callId"] == long and e["completed"] for back, e in received
                    )

                await _until(
                    "the long call's end on the socket after the restart",
                    closed_live,
                    explain=f"voice log: {s.log}",
                )

                async def analysed() -> bool:
                    calls = await s.calls([short, long])
                    done = all(c.finalized_at is not None for c in calls.values())
                    return done and all(c.analysis for c in calls.values())

                await _until("both calls' analyses", analysed, explain=f"voice log: {s.log}")
            finally:
                await watcher.disconnect()
            calls = await s.calls([short, long])
            for call in calls.values():
                assert call.status == "completed", (call.status, call.error)
                assert call.cost_cents, "billed"
            assert calls[short].end_reason == "callee-hung-up", calls[short].end_reason
            assert lines_seen(long, True) >= 1, "its transcript is seen live after the restart"
            closing = Counter(e["callId"] for back, e in received if e["completed"] and back)
            assert closing[long] == 1, "the long call's end is seen live after the restart"


async def test_a_postgresql_restart_loses_no_line_status_or_charge(
    migrated: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _skip_unless_servers(migrated)
    # The reconciler asks the carrier sooner than in production (20 s after the media's end).
    monkeypatch.setattr(flows_module, "STATUS_GRACE", timedelta(seconds=2))
    with private_postgres() as pg, private_redis() as redis:
        settings = migrated.model_copy(
            update={"database_url": pg.url, "job_broker_url": redis.url, "embedded_worker": True}
        )
        await asyncio.to_thread(command.upgrade, _alembic_config(settings), "head")
        env = {"CALLWRIGHT_JOB_BROKER_URL": redis.url}
        async with stage(settings, tmp_path, **env) as s:
            user = await add_user(s.api, email="pg-restart@example.com", balance_cents=10_000)
            ids = [
                await place_call(s.api, DECLINES, user_id=user.id),
                await place_call(s.api, WRONG_PERSON, user_id=user.id),
            ]

            async def talking() -> bool:
                return all([len(await s.lines(i)) >= 1 for i in ids])

            await _until("both calls' first lines", talking)
            calls = await s.calls(ids)
            await asyncio.to_thread(pg.stop)
            down_at = datetime.now(UTC)

            # Both calls end while PostgreSQL is down: their last lines, their media's end and
            # the carrier's final status callbacks all meet it down.
            async def ended() -> bool:
                return all(s.ended_at_carrier(c) for c in calls.values())

            await _until("both calls' end at the carrier", ended)
            await asyncio.to_thread(pg.start)
            up_at = datetime.now(UTC)

            async def finalized() -> bool:
                await s.api.state.calls.flows.reconcile()
                return await s.finalized(ids)

            await _until("both calls' finalisation", finalized, explain=f"voice log: {s.log}")

            calls = await s.calls(ids)
            async with s.api.state.db.sessionmaker() as session:
                charges = list(
                    await session.scalars(
                        select(LedgerEntry).where(
                            LedgerEntry.call_id.in_(ids), LedgerEntry.kind == "charge"
                        )
                    )
                )
            for call in calls.values():
                sandbox = s.network.calls[call.carrier_call_id or ""]
                assert call.status == "completed", (call.status, call.error)
                assert call.duration_seconds == sandbox.duration, "the carrier's seconds"
                billed = [c for c in charges if c.call_id == call.id]
                assert len(billed) == 1, "billed once"
                assert call.cost_cents == -billed[0].amount_cents
                assert call.cost_cents == min(cost_for(call.duration_seconds), call.hold_cents)
                assert call.cost_cents > 0
                lines = await s.lines(call.id)
                assert [line.seq for line in lines] == list(range(1, len(lines) + 1))
                spoken_while_down = [line for line in lines if down_at <= line.created_at <= up_at]
                assert spoken_while_down, "the lines spoken while PostgreSQL was down are kept"
                assert call.media_ended_at is not None
                assert call.recording_path, "the recording is kept"
