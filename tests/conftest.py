"""Test harness: one migrated database per run (SQLite file by default, PostgreSQL when
CALLWRIGHT_TEST_DATABASE_URL says so), wiped before every test; the real app over ASGI."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from alembic import command
from fastapi import FastAPI
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.kit.db import Database
from callwright.main import create_app
from tests.factories import ApiClient, make_client, wipe

__all__ = ["make_client"]

from tests.factories import APP_URL


async def _create_database(url: str) -> None:
    """Creates `url`'s PostgreSQL database if it is missing (from the server's own `postgres`)."""
    parsed = make_url(url)
    conn = await asyncpg.connect(
        host=parsed.host, port=parsed.port, user=parsed.username, password=parsed.password,
        database="postgres",
    )  # fmt: skip
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", parsed.database):
            await conn.execute(f'CREATE DATABASE "{parsed.database}"')
    finally:
        await conn.close()


def _per_worker() -> None:
    """Under pytest-xdist worker gwN has Redis database number base + N
    (CALLWRIGHT_TEST_REDIS_URL's being the base: pub/sub channels and keys carry it) and, on
    PostgreSQL, a database of its own, `<name>_gwN` (gw0 keeps the one named). The PostgreSQL
    database is made when it is missing (scripts/test.sh gives each part of a pass its own).
    Set here, as this module loads, before any test module reads the two variables."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker.removeprefix("gw") or 0)
    if index and (redis := os.environ.get("CALLWRIGHT_TEST_REDIS_URL")):
        base, _, number = redis.rpartition("/")
        os.environ["CALLWRIGHT_TEST_REDIS_URL"] = f"{base}/{int(number) + index}"
    if database := os.environ.get("CALLWRIGHT_TEST_DATABASE_URL"):
        url = make_url(database)
        if index:
            url = url.set(database=f"{url.database}_{worker}")
        asyncio.run(_create_database(url.render_as_string(hide_password=False)))
        os.environ["CALLWRIGHT_TEST_DATABASE_URL"] = url.render_as_string(hide_password=False)


_per_worker()

#: Whole-call fixtures (`live`): a real server with the sandbox network; `localstripe_base`;
#: `s3`, a local S3 server (moto).
pytest_plugins = ["tests.live", "tests.stripe_emulator", "tests.s3_server"]


#: The fixtures through which a test reaches the database (directly or through the app).
DATABASE_FIXTURES = {"settings", "migrated", "app", "session", "client", "live"}
#: The longest conversations (minutes of sandbox calls between them), which the PostgreSQL pass
#: runs instead of the SQLite pass when the test command runs the two side by side
#: (CALLWRIGHT_TEST_SIDE_BY_SIDE=1): the two passes then take about as long, and the suite
#: about five minutes less. Run alone, either pass runs them.
SHARED_TO_POSTGRESQL = (
    "tests/campaigns/test_campaign_calls.py",
    "tests/calls/test_tool_calls.py",
    "tests/calls/test_keypad_llm.py",
    "tests/calls/test_transfers_live.py",
)


def _conversation(item: pytest.Item) -> bool:
    uses = set(getattr(item, "fixturenames", ()))
    return "live" in uses or item.get_closest_marker("conversation") is not None


def _shared(item: pytest.Item) -> bool:
    return item.nodeid.startswith(SHARED_TO_POSTGRESQL)


def _postgresql_keeps(item: pytest.Item) -> bool:
    uses = set(getattr(item, "fixturenames", ()))
    return bool(uses & DATABASE_FIXTURES) and (not _conversation(item) or _shared(item))


def _sqlite_keeps(item: pytest.Item) -> bool:
    return not (_conversation(item) and _shared(item))


#: The tests that place calls at real time in processes of their own (no `live` fixture): the
#: voice role's, the cluster's and the fault tests'.
OWN_PROCESS_CALLS = (
    "tests/test_roles.py",
    "tests/test_cluster.py",
    "tests/test_restarts.py",
    "tests/test_voice_kill.py",
    "tests/campaigns/test_worker_kill.py",
)


def _places_calls(item: pytest.Item) -> bool:
    return _conversation(item) or item.nodeid.startswith(OWN_PROCESS_CALLS)


def _alone(item: pytest.Item) -> bool:
    """Many calls at once, to show what the box holds (the `alone` mark): not beside others."""
    return item.get_closest_marker("alone") is not None


def _pass_keeps() -> Callable[[pytest.Item], bool]:
    """Which tests this pass runs (see pytest_collection_modifyitems)."""
    pass_keeps: Callable[[pytest.Item], bool]
    if os.environ.get("CALLWRIGHT_TEST_DATABASE_URL"):
        pass_keeps = _postgresql_keeps
    elif os.environ.get("CALLWRIGHT_TEST_SIDE_BY_SIDE"):
        pass_keeps = _sqlite_keeps
    else:
        pass_keeps = bool
    part = os.environ.get("CALLWRIGHT_TEST_PART", "")
    if part == "calls":
        return lambda item: pass_keeps(item) and _places_calls(item) and not _alone(item)
    if part == "rest":
        return lambda item: pass_keeps(item) and not _places_calls(item)
    if part == "alone":
        return lambda item: pass_keeps(item) and _alone(item)
    return pass_keeps


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The PostgreSQL pass (CALLWRIGHT_TEST_DATABASE_URL set) runs only the tests that reach
    the database; the others (speech, the voice pipeline, parsers) ran in the SQLite pass and
    would only run again, identically. Of the conversations over the sandbox (the `live`
    fixture or the `conversation` mark, seconds each) it runs only SHARED_TO_POSTGRESQL's: what
    they test is the voice pipeline, and their database work is the call flows', which the
    PostgreSQL pass runs through the API tests, those shared conversations and the live calls
    of the fault tests (tests/test_restarts.py, test_voice_kill.py, test_cluster.py,
    campaigns/test_worker_kill.py, on PostgreSQL + Redis only). Side by side with it, the SQLite
    pass leaves SHARED_TO_POSTGRESQL's conversations to it.

    CALLWRIGHT_TEST_PART splits a pass in two (scripts/test.sh runs the four parts at once):
    `calls`, the tests that place calls at real time (`_places_calls`), and `rest`, the others,
    which need no real time and run at a lower priority, so that the calls get the CPU first;
    `calls` leaves out the `alone` tests (many calls at once, to show what the box holds), a
    part of their own (CALLWRIGHT_TEST_PART=alone) that the test command runs with the machine
    to itself, after the calls and the frontend's checks."""
    wanted = _pass_keeps()
    keep = [item for item in items if wanted(item)]
    drop = [item for item in items if not wanted(item)]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _database_url(tmp: Path) -> str:
    return (
        os.environ.get("CALLWRIGHT_TEST_DATABASE_URL") or f"sqlite+aiosqlite:///{tmp / 'test.db'}"
    )


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    tmp = tmp_path_factory.mktemp("callwright")
    return Settings(
        env="test",
        app_url=APP_URL,
        data_dir=tmp,
        database_url=_database_url(tmp),
        redis_url="",
        secret_key="test-secret-key-0123456789abcdef0123456789",
        frontend_dist=tmp / "no-dist",
        smtp_host="",
        google_client_id="",
        google_client_secret="",
        warm_up_voice=False,
        # Webhook receivers in the tests listen on loopback: allowed by default, as the app
        # listens on loopback alone (host 127.0.0.1). The tests drive the sweeper.
        webhook_sweep_seconds=0,
        campaign_tick_seconds=0,
        dial_due_sweep_seconds=0,
        reconcile_seconds=0,
        # The suite calls the same sandbox numbers many times; the cap's tests set it.
        max_calls_per_number_per_day=0,
    )


@pytest.fixture(scope="session")
def migrated(settings: Settings) -> Settings:
    """Runs the real migrations (down to base first, so a dirty PostgreSQL starts clean)."""
    cfg = _alembic_config(settings)
    command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")
    return settings


@pytest.fixture(scope="session")
async def app(migrated: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(migrated)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture(autouse=True)
async def clean(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    if "app" not in request.fixturenames:
        yield
        return
    application: FastAPI = request.getfixturevalue("app")
    # Jobs a previous test queued (a dial that fails in the test app) must not write while
    # the tables are emptied: on PostgreSQL that is a deadlock with TRUNCATE.
    await application.state.jobs.drain()
    await application.state.db.write_behind.drain()
    await wipe(application.state.db)
    await application.state.limiter.reset()
    yield
    # And what this test queued runs now, not during the next test (one without the app, whose
    # logs would show it: tests/test_terminal_lines.py).
    await application.state.jobs.drain()


@pytest.fixture
async def session(app: FastAPI) -> AsyncIterator[AsyncSession]:
    """A unit of work that commits at the end of the block, like a request."""
    db: Database = app.state.db
    async with db.sessionmaker() as s:
        yield s
        await s.commit()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[ApiClient]:
    async with make_client(app) as c:
        yield c
