"""The admin statistics and charts, computed in SQL over an hourly rollup (the queries are in
`admin.repository.stats`).

Finished hours are summed once into `call_stats_hourly` (one row per UTC hour, status and
outcome); a
query reads those rows before the high-water mark and aggregates the live calls after it. The
mark is the start of the oldest hour that still has an unfinalised call (or the current hour),
so a rolled-up row never changes: everything a chart shows (status, duration, cost, recording)
is settled when a call is finalised. A million calls make about 30,000 rollup rows a year."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from callwright.admin.repository import stats
from callwright.calls.outcomes import outcome_of
from callwright.content import repository as content
from callwright.kit.sqltime import WEEKDAYS, LocalTime
from callwright.kit.time import as_utc, utcnow
from callwright.models.stats import BUCKET_LABELS

ROLLED_UNTIL = "stats_rolled_until"
#: The analytics window of the time series (spec section 9).
WINDOW_DAYS = 30
#: Writes that commit a little after their hour ends are still counted live.
SETTLE_MARGIN = timedelta(minutes=5)

_refresh_lock = asyncio.Lock()


def floor_hour(value: datetime) -> datetime:
    return value.replace(minute=0, second=0, microsecond=0)


async def rolled_until(session: AsyncSession) -> datetime | None:
    row = await content.setting(session, ROLLED_UNTIL)
    return as_utc(datetime.fromisoformat(row.value)) if row else None


async def refresh(sessionmaker: async_sessionmaker[AsyncSession]) -> datetime | None:
    """Roll every finished hour up to the mark; returns the mark. Idempotent: rows are inserted
    with ON CONFLICT DO NOTHING, so processes racing here write each hour once."""
    async with _refresh_lock, sessionmaker() as session:
        mark = await rolled_until(session)
        target = floor_hour(utcnow() - SETTLE_MARGIN)
        oldest_open = await stats.oldest_open(session)
        if oldest_open is not None:
            target = min(target, floor_hour(as_utc(oldest_open)))
        if mark is not None and target <= mark:
            return mark
        values = [
            {
                **{name: int(row[name] or 0) for name in stats.COUNTERS},
                "status": row["status"],
                "outcome": row["outcome"],
                "hour": row["hour"]
                if isinstance(row["hour"], datetime)
                else datetime.fromisoformat(row["hour"]),
            }
            for row in await stats.hours(session, mark, target)
        ]
        await stats.add_hours(session, values)
        await content.set_setting(session, ROLLED_UNTIL, target.isoformat(), None)
        await session.commit()
        return target


@dataclass
class Overall:
    total_calls: int
    total_users: int
    used_cents: int
    total_seconds: int
    #: Successful calls (`outcomes.SUCCESSFUL`): never a stopped, busy, voicemail or failed one.
    successful: int
    active_users: int


async def overall(session: AsyncSession, mark: datetime | None) -> Overall:
    row = await stats.overall(session, stats.facts(session, mark))
    return Overall(
        total_calls=int(row[0]),
        used_cents=int(row[1]),
        total_seconds=int(row[2]),
        successful=int(row[3]),
        total_users=await stats.user_count(session),
        active_users=await stats.callers_since(session, utcnow() - timedelta(days=WINDOW_DAYS)),
    )


def _window_start(offset_minutes: int) -> tuple[datetime, datetime]:
    """(first local day of the window, that day's start in UTC)."""
    local_now = utcnow() + timedelta(minutes=offset_minutes)
    first_day = local_now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(
        days=WINDOW_DAYS - 1
    )
    return first_day, first_day - timedelta(minutes=offset_minutes)


async def charts(
    session: AsyncSession, mark: datetime | None, offset_minutes: int
) -> dict[str, Any]:
    """The nine charts' figures. Weekday, hour of day and the 30 days are in the caller's local
    time; the rollup has UTC hours, so offsets that are not whole hours are exact for live
    calls and rounded to the hour for rolled-up ones."""
    facts = stats.facts(session, mark)
    local = LocalTime(session, facts.c.hour, offset_minutes)
    first_day, since = _window_start(offset_minutes)
    days = await stats.daily(session, facts, local.day(), floor_hour(since))
    totals = await stats.totals(session, facts)
    recorded, calls = int(totals[0]), int(totals[1])
    statuses = await stats.calls_by(session, facts, "status")
    outcomes = await stats.calls_by(session, facts, "outcome")
    weekdays = await stats.calls_and_seconds_by(session, facts, local.weekday())
    hours = {
        int(r[0]): int(r[1] or 0)
        for r in await stats.calls_and_seconds_by(session, facts, local.hour())
    }
    return {
        "daily": _daily(first_day, days),
        "duration_buckets": [
            {"label": label, "calls": int(totals[2 + i])} for i, label in enumerate(BUCKET_LABELS)
        ],
        "statuses": [{"status": r[0] or "unknown", "calls": int(r[1] or 0)} for r in statuses],
        "outcomes": [
            {"outcome": r[0], "calls": int(r[1] or 0)} for r in outcomes if outcome_of(r[0])
        ],
        "recording": {"recorded": recorded, "not_recorded": calls - recorded},
        "weekdays": _weekdays(weekdays),
        "hours": [{"hour": h, "calls": hours.get(h, 0)} for h in range(24)],
    }


def _daily(first_day: datetime, rows: stats.Rows) -> list[dict[str, Any]]:
    """Each day of the window from `first_day`, a day without calls included."""
    by_day = {str(r[0]): r for r in rows}
    daily = []
    for i in range(WINDOW_DAYS):
        key = (first_day + timedelta(days=i)).strftime("%Y-%m-%d")
        r = by_day.get(key)
        calls, seconds, recorded = (int(v or 0) for v in r[1:]) if r else (0, 0, 0)
        daily.append(
            {
                "date": key,
                "calls": calls,
                "minutes": round(seconds / 60, 1),
                "recorded_percent": round(recorded * 100 / calls, 1) if calls else 0,
            }
        )
    return daily


def _weekdays(rows: stats.Rows) -> list[dict[str, Any]]:
    """Each day of the week, Monday first, a day without calls included."""
    weekdays = {int(r[0]): r for r in rows}
    return [
        {
            "day": name,
            "calls": int(weekdays[i][1] or 0) if i in weekdays else 0,
            "minutes": round(int(weekdays[i][2] or 0) / 60, 1) if i in weekdays else 0,
        }
        for i, name in enumerate(WEEKDAYS)
    ]
