"""The campaign dialler's scheduling overhead: milliseconds of `Dialler.tick` per call placed.

Run: .venv/bin/python benchmarks/dialler_overhead.py [contacts]

A fresh SQLite database (or CALLWRIGHT_DATABASE_URL if set), migrated with alembic like
`callwright migrate`, and the Core every role builds (`Core.build`), with the tests' settings:
calling hours 00:00-24:00, no daily cap per number, no periodic ticks, the sandbox carrier, no
job broker. Core.start is never called, so nothing receives jobs, and the ticks are driven by
hand. One user with a large balance, one agent (max_duration 1, a `{{name}}` in its prompt), a
campaign calling all week, window 00:00-24:00, concurrency 100, pace 120 a minute, loaded with
`contacts` contacts (default 1,000: distinct valid US numbers in ten area codes over four zones,
written like benchmarks/contacts_import.py's) from an in-memory CSV file, and started.

Open window: `dialler.tick()` is timed (perf_counter) over and over; each places up to 100
calls (the concurrency cap), each one a call row, its hold and ledger entry, and its contact
marked `calling`, in the tick's transaction. Between ticks the slots are freed the way finished
calls would free them (untimed): the contacts in a call are marked `done`, and the campaign's
calls of the last minute get a `queued_at` two minutes ago, so the pace allows the next batch;
until every contact has been placed. Printed: ticks, calls placed, total tick seconds, and ms
per dial (each tick's seconds / its calls: mean, p50, p95 (nearest rank) across ticks, and
each tick's in order).

Closed window: a second campaign (window 09:00-20:00, the product's default) with as many
contacts, and the dialler's clock set to 08:00 UTC today (00:00-04:00 in every US zone): a tick
finds every contact due and closed, and moves each one's next attempt to its window's next
opening. That tick is timed five times (the contacts made due again between, untimed). A tick
reads at most 20 due contacts per free slot (dialler.LOOKAHEAD), so with more than 2,000
contacts it skips 2,000 of them. Printed: ms per tick and per contact skipped.

Before each timed tick the garbage collector runs (untimed): a full collection of this
process's heap (about 100 ms here) otherwise lands in whichever tick crosses its threshold and
swamps that tick's figure.

Excluded: the dial itself. The dial job (`calls.dial`) is sent after the tick's commit, and
with no broker the in-memory broker would run it in this process (an asyncio task) and ring
the sandbox, so this benchmark replaces `core.jobs.send` for `calls.dial` with a no-op that
only counts the call ids (other jobs pass through): the send of the job (a Redis push with a
broker) is excluded too. Checked at the end: one dial job per call, and every call still
`queued` (no dial ran).
"""

from __future__ import annotations

import asyncio
import gc
import io
import math
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from api_load import bench_settings
from contacts_import import _phone
from sqlalchemy import func, select, update

from callwright.agents import service as agents
from callwright.calls.tasks import DIAL_JOB
from callwright.campaigns import service as campaigns
from callwright.campaigns.dialler import LOOKAHEAD, Dialler
from callwright.config import Settings
from callwright.core import Core
from callwright.kit.db import Database
from callwright.kit.security import hash_password
from callwright.kit.time import utcnow
from callwright.models import Call, Campaign, CampaignContact, User
from callwright.realtime.events import LiveEvent

PROMPT = (
    "You are Sarah from Bright Dental. You are calling {{name}} to remind them about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)
CONCURRENCY = 100
PACE = 120
#: Timed ticks over the closed window.
CLOSED_TICKS = 5


async def _nowhere(room: str, event: LiveEvent) -> None:
    """Realtime events reach no socket here."""


def _csv(contacts: int) -> bytes:
    rows = ["Name,Phone"] + [f"Person {n},{_phone(n)}" for n in range(contacts)]
    return ("\n".join(rows) + "\n").encode()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


async def _campaign(core: Core, user_id: int, agent_id: str, window: str, contacts: int) -> str:
    """A started campaign of `contacts` contacts (all accepted)."""
    settings = core.settings
    campaign_id = ""
    async for session in core.db.session():
        campaign = await campaigns.create(
            session,
            user_id,
            {
                "name": f"Bench {window}",
                "agent_id": agent_id,
                "days": list(range(7)),
                "calling_window": window,
                "concurrency": CONCURRENCY,
                "pace_per_minute": PACE,
            },
        )
        loaded = await campaigns.load_contacts(
            session,
            campaign,
            io.BytesIO(_csv(contacts)),
            default_region=settings.default_region,
            default_zone=settings.default_timezone,
        )
        assert loaded.report.accepted == contacts, loaded.report.reasons
        await campaigns.act(session, campaign, "start", core.dialler.events)
        campaign_id = campaign.id
    return campaign_id  # after the loop: its end commits the unit of work


async def _free_slots(core: Core, campaign_id: str) -> None:
    """What the calls' ends would do: their contacts done, their minute of pace behind them."""
    async for session in core.db.session():
        await session.execute(
            update(CampaignContact)
            .where(CampaignContact.campaign_id == campaign_id, CampaignContact.status == "calling")
            .values(status="done", outcome="completed")
        )
        now = utcnow()  # what CallService.place stamps queued_at with
        await session.execute(
            update(Call)
            .where(Call.campaign_id == campaign_id, Call.queued_at > now - timedelta(minutes=1))
            .values(queued_at=now - timedelta(minutes=2))
        )


async def _open_window(core: Core, campaign_id: str, contacts: int) -> list[tuple[float, int]]:
    """(seconds, placed) per tick until every contact is placed."""
    dialler: Dialler = core.dialler
    ticks: list[tuple[float, int]] = []
    placed = 0
    while placed < contacts:
        gc.collect()
        started = time.perf_counter()
        done = await dialler.tick()
        elapsed = time.perf_counter() - started
        if done.placed == 0:
            raise AssertionError(f"a tick placed nothing with {contacts - placed} contacts left")
        ticks.append((elapsed, done.placed))
        placed += done.placed
        await _free_slots(core, campaign_id)
    await dialler.tick()  # completes it (nothing left), so the next phase ticks only its own
    async with core.db.sessionmaker() as session:
        state = await session.scalar(select(Campaign.state).where(Campaign.id == campaign_id))
    assert state == "completed", state
    return ticks


async def _closed_window(core: Core, campaign_id: str, contacts: int) -> tuple[list[float], int]:
    """Seconds per tick that finds every contact due and its window closed, and how many
    contacts one such tick skips (it reads at most LOOKAHEAD per free slot)."""
    skipped = min(contacts, CONCURRENCY * LOOKAHEAD)
    dialler: Dialler = core.dialler
    now = datetime.now(UTC)
    closed_at = now.replace(hour=8, minute=0, second=0, microsecond=0)
    dialler.clock = lambda: closed_at
    seconds: list[float] = []
    for _ in range(CLOSED_TICKS):
        async for session in core.db.session():
            await session.execute(
                update(CampaignContact)
                .where(CampaignContact.campaign_id == campaign_id)
                .values(next_attempt_at=None)
            )
        gc.collect()
        started = time.perf_counter()
        done = await dialler.tick()
        seconds.append(time.perf_counter() - started)
        assert (done.placed, done.waiting) == (0, skipped), done
    async with core.db.sessionmaker() as session:
        later = await session.scalar(
            select(func.count()).where(
                CampaignContact.campaign_id == campaign_id,
                CampaignContact.next_attempt_at > closed_at,
            )
        )
    assert later == skipped, f"{later} of {skipped} contacts moved to their next opening"
    return seconds, skipped


async def main(contacts: int, settings: Settings) -> None:
    core = Core.build(settings, Database(settings.database_url), _nowhere)
    dials: list[str] = []
    others: Counter[str] = Counter()
    send = core.jobs.send

    async def no_dial(name: str, *args: Any) -> None:
        if name == DIAL_JOB:
            dials.append(str(args[0]))
            return
        others[name] += 1
        await send(name, *args)

    core.jobs.send = no_dial  # type: ignore[method-assign]

    async with core.db.sessionmaker() as session:
        user = User(
            name="Bench",
            email="bench@example.com",
            password_hash=hash_password("bench password"),
            role="user",
            balance_cents=1_000_000_000,
        )
        session.add(user)
        await session.flush()
        agent = await agents.create(
            session, user.id, {"name": "Reminder", "prompt": PROMPT, "max_duration": 1}
        )
        await session.commit()
        user_id, agent_id = user.id, agent.id

    open_id = await _campaign(core, user_id, agent_id, "00:00-24:00", contacts)
    ticks = await _open_window(core, open_id, contacts)
    closed_id = await _campaign(core, user_id, agent_id, "09:00-20:00", contacts)
    closed, skipped = await _closed_window(core, closed_id, contacts)

    async with core.db.sessionmaker() as session:
        rows = await session.execute(select(Call.status, func.count()).group_by(Call.status))
        statuses: Counter[str] = Counter()
        for status, count in rows:
            statuses[status] = count
    backend = core.db.engine.dialect.name
    await core.close()

    placed = sum(n for _, n in ticks)
    assert placed == contacts == len(dials) == len(set(dials)), (placed, len(dials))
    assert statuses == Counter({"queued": contacts}), statuses
    total = sum(s for s, _ in ticks)
    per_dial = [s * 1000 / n for s, n in ticks]
    print(f"contacts: {contacts}, concurrency {CONCURRENCY}, pace {PACE}/min, {backend}")
    print(
        f"open window: {len(ticks)} ticks placed {placed} calls in {total:.3f} s "
        f"({total * 1000 / placed:.2f} ms per dial overall)"
    )
    print(
        f"  ms per dial across ticks: mean {statistics.mean(per_dial):.2f}, "
        f"p50 {statistics.median(per_dial):.2f}, p95 {_p95(per_dial):.2f}"
    )
    shown = per_dial if len(per_dial) <= 20 else per_dial[:10] + per_dial[-10:]
    print(
        "  per tick, in order"
        + ("" if shown is per_dial else " (first 10, last 10)")
        + ": "
        + " ".join(f"{v:.2f}" for v in shown)
    )
    per_tick = [s * 1000 for s in closed]
    print(
        f"closed window: {skipped} due contacts skipped per tick ({contacts} due), "
        f"{CLOSED_TICKS} ticks: ms per tick mean {statistics.mean(per_tick):.1f}, "
        f"p50 {statistics.median(per_tick):.1f}; "
        f"ms per contact mean {statistics.mean(per_tick) / skipped:.3f}, "
        f"p50 {statistics.median(per_tick) / skipped:.3f}"
    )
    print("  per tick, in order: " + " ".join(f"{v:.1f}" for v in per_tick))
    print(
        f"dial jobs: {len(dials)} sent to the no-op, calls still queued: {statuses['queued']}; "
        f"other jobs sent: {dict(others) or 'none'}"
    )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as tmp:
        bench, _env = bench_settings(tmp)  # migrates (outside the event loop)
        bench = bench.model_copy(
            update={
                "calling_hours": "00:00-24:00",
                "max_calls_per_number_per_day": 0,
                "campaign_tick_seconds": 0,
                "carrier": "sandbox",
                "job_broker_url": "",
            }
        )
        asyncio.run(main(count, bench))
