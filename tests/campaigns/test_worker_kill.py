"""A worker killed mid-campaign loses no contact and dials none twice at once (PostgreSQL +
Redis, as in scale-out): an API process serves the sandbox network and the calls' media and
runs no jobs; `callwright worker` processes run the dialler, the dials and the post-call work
from the Redis broker. The first worker is killed (SIGKILL) with three calls live and contacts
still to call; the live calls go on in the API process and end while no worker runs (their
nudges and analyses wait in Redis); a second worker picks up and the campaign completes with
every contact's right outcome, each contact's calls one after another, and never more than the
cap at once.

It runs about a minute, on PostgreSQL only (the SQLite pass skips it): run once per suite."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.agents import service as agents
from callwright.campaigns import service as campaigns
from callwright.config import Settings
from callwright.kit.db import Database
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call, Campaign, CampaignContact
from callwright.sandbox.numbers import persona_for
from tests.campaigns.spans import most_at_once, story
from tests.factories import add_user
from tests.live import PROMPT, TEST_SPEED
from tests.workers import REDIS_URL, worker_process

pytestmark = pytest.mark.asyncio

QUEUE = "callwright:jobs"
SPECIAL = {
    "+15005550001": ("done", "no-answer", 2),
    "+15005550002": ("done", "busy", 2),
    "+15005550003": ("done", "failed", 2),
    "+15005550005": ("done", "callee-hung-up", 1),
}
#: Short conversations (they decline, or are the wrong person): long enough to be live when
#: the worker dies, short enough to keep the test about a minute.
PEOPLE = [
    number
    for number in (f"+15005550{n}" for n in range(104, 180))
    if persona_for(number).label.startswith(("not interested", "wrong person"))
][:5]
CONCURRENCY = 3


async def _scalar(db: Database, query: object) -> object:
    async with db.sessionmaker() as session:
        return await session.scalar(query)  # type: ignore[call-overload]


async def _calling_and_dialled(db: Database, campaign_id: str) -> tuple[int, int, int]:
    """(contacts in a call, of those whose call the carrier has, calls placed)."""
    async with db.sessionmaker() as session:
        calling = list(
            await session.scalars(
                select(CampaignContact.last_call_id).where(
                    CampaignContact.campaign_id == campaign_id,
                    CampaignContact.status == "calling",
                )
            )
        )
        dialled = await session.scalar(
            select(func.count()).where(
                Call.id.in_(calling or [""]), Call.carrier_call_id.is_not(None)
            )
        )
        placed = await session.scalar(select(func.count()).where(Call.campaign_id == campaign_id))
    return len(calling), int(dialled or 0), int(placed or 0)


async def test_a_killed_worker_loses_no_contact_and_dials_none_twice(
    app: FastAPI, migrated: Settings, tmp_path: Path
) -> None:
    if not migrated.database_url.startswith("postgresql") or not REDIS_URL:
        pytest.skip("PostgreSQL + Redis: the PostgreSQL pass of scripts/test.sh runs it")
    redis = aioredis.from_url(REDIS_URL)
    await redis.delete(QUEUE)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # The API side: hosts the sandbox and the calls' media, queues every job to Redis.
    api = create_app(
        migrated.model_copy(
            update={
                "app_url": url,
                "port": port,
                "sandbox_speed": TEST_SPEED,
                "job_broker_url": REDIS_URL,
                "embedded_worker": False,
            }
        )
    )
    db: Database = app.state.db
    user = await add_user(app, email="kill@example.com", balance_cents=100_000)
    numbers = [*SPECIAL, *PEOPLE]
    rows = ["Name,Phone", *(f"Person {i},{n}" for i, n in enumerate(numbers))]
    async for session in db.session():
        agent = await agents.create(
            session,
            user.id,
            {"name": "Reminder", "prompt": PROMPT, "voice": "joe", "max_duration": 2},
        )
        campaign = await campaigns.create(
            session,
            user.id,
            {
                "name": "Through a crash",
                "agent_id": agent.id,
                "days": list(range(7)),
                "calling_window": "00:00-24:00",
                "concurrency": CONCURRENCY,
                "pace_per_minute": 60,
                "retries": {
                    outcome: {"attempts": 1, "wait_minutes": 0}
                    for outcome in ("no-answer", "busy", "failed")
                },
            },
        )
        loaded = await campaigns.load_contacts(
            session,
            campaign,
            io.BytesIO(("\n".join(rows) + "\n").encode()),
            default_region="US",
            default_zone="America/New_York",
        )
        assert loaded.report.accepted == len(numbers)
        await campaigns.act(session, campaign, "start", api.state.dialler.events)
        campaign_id = campaign.id

    log = tmp_path / "workers.log"
    worker_env = {
        "CALLWRIGHT_APP_URL": url,
        "CALLWRIGHT_CAMPAIGN_TICK_SECONDS": "1",  # Taskiq's shortest interval
        "CALLWRIGHT_DIAL_DUE_SWEEP_SECONDS": "1",
        "CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY": "0",
    }
    loop = asyncio.get_running_loop()
    try:
        async with serving(api.state.realtime.wrap(api), port):
            with worker_process(migrated, log, **worker_env) as first:
                # Killed with the cap's calls live and dialled (no dial half done), mid-list.
                deadline = loop.time() + 90
                while True:
                    calling, dialled, placed = await _calling_and_dialled(db, campaign_id)
                    if placed > CONCURRENCY and calling == dialled == CONCURRENCY:
                        break
                    assert first.poll() is None, log.read_text()
                    assert loop.time() < deadline, log.read_text()
                    await asyncio.sleep(0.05)
                first.kill()
                first.wait()
            placed_at_kill = placed

            # The live calls end in the API process with no worker; nothing is dialled.
            deadline = loop.time() + 60
            while (await _calling_and_dialled(db, campaign_id))[0]:
                assert loop.time() < deadline, "the live calls did not end without the worker"
                await asyncio.sleep(0.2)
            assert (await _calling_and_dialled(db, campaign_id))[2] == placed_at_kill
            pending = await _scalar(
                db,
                select(func.count()).where(
                    CampaignContact.campaign_id == campaign_id,
                    CampaignContact.status == "pending",
                ),
            )
            assert pending, "the worker was killed after the last dial"
            assert await redis.llen(QUEUE) > 0, "the ended calls' jobs wait for a worker"

            with worker_process(migrated, log, **worker_env) as second:
                deadline = loop.time() + 150
                while await _scalar(
                    db, select(Campaign.state).where(Campaign.id == campaign_id)
                ) not in ("completed", "cancelled", "paused"):
                    assert second.poll() is None, log.read_text()
                    assert loop.time() < deadline, log.read_text()
                    await asyncio.sleep(0.3)
    finally:
        await redis.delete(QUEUE)
        await redis.aclose()

    async with db.sessionmaker() as session:
        state = await session.scalar(select(Campaign.state).where(Campaign.id == campaign_id))
        contacts = {
            c.id: c
            for c in await session.scalars(
                select(CampaignContact).where(CampaignContact.campaign_id == campaign_id)
            )
        }
        calls = list(await session.scalars(select(Call).where(Call.campaign_id == campaign_id)))
    assert state == "completed"
    by_phone = {c.phone: c for c in contacts.values()}
    for phone, expected in [*SPECIAL.items(), *((p, ("done", "completed", 1)) for p in PEOPLE)]:
        c = by_phone[phone]
        if (c.status, c.outcome, c.attempts) != expected:
            told = "\n".join(await story(app, c.last_call_id))
            raise AssertionError(
                f"{phone}: {(c.status, c.outcome, c.attempts)}\n{told}\n{log.read_text()[-4000:]}"
            )
    # No contact lost, none dialled more than its attempts, each one's calls one at a time.
    assert len(calls) == sum(c.attempts for c in contacts.values()) == len(numbers) + 3
    for contact_id, contact in contacts.items():
        own = [c for c in calls if c.campaign_contact_id == contact_id]
        assert len(own) == contact.attempts, contact.phone
        assert all(c.finalized_at is not None for c in own)
        spans = [(c.queued_at, c.finalized_at) for c in own if c.finalized_at is not None]
        assert most_at_once(spans) == 1, contact.phone
    everything = [(c.queued_at, c.finalized_at) for c in calls if c.finalized_at is not None]
    assert most_at_once(everything) <= CONCURRENCY
