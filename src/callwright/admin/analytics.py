"""The admin statistics and charts, computed in SQL over an hourly rollup.

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

from sqlalchemy import Select, and_, case, func, literal, select, union_all
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from callwright.calls.outcomes import outcome_of, successful_sql
from callwright.content import repository as content
from callwright.kit.db import UTCDateTime
from callwright.kit.sqltime import WEEKDAYS, LocalTime, hour_floor, is_postgres
from callwright.kit.time import as_utc, utcnow
from callwright.models import Call, CallStatsHourly, User
from callwright.models.stats import BUCKET_LABELS, DURATION_BUCKETS

ROLLED_UNTIL = "stats_rolled_until"
#: The analytics window of the time series (spec section 9).
WINDOW_DAYS = 30
#: Writes that commit a little after their hour ends are still counted live.
SETTLE_MARGIN = timedelta(minutes=5)
COUNTERS = (
    "calls",
    "recorded",
    "connected",
    "duration_seconds",
    "cost_cents",
    *(f"d{i}" for i in range(len(DURATION_BUCKETS))),
)

_refresh_lock = asyncio.Lock()


def floor_hour(value: datetime) -> datetime:
    return value.replace(minute=0, second=0, microsecond=0)


def _aggregate(
    session: AsyncSession, since: datetime | None, until: datetime | None
) -> Select[Any]:
    """The rollup's columns computed from `calls` created in [since, until)."""
    hour = hour_floor(session, Call.created_at)
    raw = func.coalesce(Call.duration_seconds, 0)
    seconds = case((raw > 3600, 3600), else_=raw)
    buckets = []
    for index, upper in enumerate(DURATION_BUCKETS):
        lower = DURATION_BUCKETS[index - 1] if index else 0
        inside = and_(seconds > 0, seconds >= lower)
        if index < len(DURATION_BUCKETS) - 1:  # the last bucket takes every longer call
            inside = and_(inside, seconds < upper)
        buckets.append(func.sum(case((inside, 1), else_=0)).label(f"d{index}"))
    outcome = func.coalesce(Call.end_reason, "")
    query = select(
        hour.label("hour"),
        Call.status.label("status"),
        outcome.label("outcome"),
        func.count().label("calls"),
        func.sum(case((Call.recording_path.is_not(None), 1), else_=0)).label("recorded"),
        func.sum(case((seconds > 0, 1), else_=0)).label("connected"),
        func.sum(seconds).label("duration_seconds"),
        func.sum(func.coalesce(Call.cost_cents, 0)).label("cost_cents"),
        *buckets,
    ).group_by(hour, Call.status, outcome)
    if since is not None:
        query = query.where(Call.created_at >= since)
    if until is not None:
        query = query.where(Call.created_at < until)
    return query


async def rolled_until(session: AsyncSession) -> datetime | None:
    row = await content.setting(session, ROLLED_UNTIL)
    return as_utc(datetime.fromisoformat(row.value)) if row else None


async def refresh(sessionmaker: async_sessionmaker[AsyncSession]) -> datetime | None:
    """Roll every finished hour up to the mark; returns the mark. Idempotent: rows are inserted
    with ON CONFLICT DO NOTHING, so processes racing here write each hour once."""
    async with _refresh_lock, sessionmaker() as session:
        mark = await rolled_until(session)
        target = floor_hour(utcnow() - SETTLE_MARGIN)
        oldest_open = await session.scalar(
            select(func.min(Call.created_at)).where(Call.finalized_at.is_(None))
        )
        if oldest_open is not None:
            target = min(target, floor_hour(as_utc(oldest_open)))
        if mark is not None and target <= mark:
            return mark
        rows = (await session.execute(_aggregate(session, mark, target))).mappings().all()
        values = [
            {
                **{name: int(row[name] or 0) for name in COUNTERS},
                "status": row["status"],
                "outcome": row["outcome"],
                "hour": row["hour"]
                if isinstance(row["hour"], datetime)
                else datetime.fromisoformat(row["hour"]),
            }
            for row in rows
        ]
        dialect: Any = postgresql if is_postgres(session) else sqlite
        if values:  # one executemany (batched multi-row INSERTs, compiled once)
            await session.execute(dialect.insert(CallStatsHourly).on_conflict_do_nothing(), values)
        await content.set_setting(session, ROLLED_UNTIL, target.isoformat(), None)
        await session.commit()
        return target


def _facts(session: AsyncSession, mark: datetime | None) -> Any:
    """Rolled-up hours before the mark, plus live calls from it: one row per hour, status and
    outcome."""
    live = _aggregate(session, mark, None)
    if mark is None:
        return live.subquery("facts")
    rolled = select(
        CallStatsHourly.hour,
        CallStatsHourly.status,
        CallStatsHourly.outcome,
        *(getattr(CallStatsHourly, name) for name in COUNTERS),
    ).where(CallStatsHourly.hour < mark)
    return union_all(rolled, live).subquery("facts")


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
    facts = _facts(session, mark)
    row = (
        await session.execute(
            select(
                func.coalesce(func.sum(facts.c.calls), 0),
                func.coalesce(func.sum(facts.c.cost_cents), 0),
                func.coalesce(func.sum(facts.c.duration_seconds), 0),
                func.coalesce(
                    func.sum(
                        case(
                            (successful_sql(facts.c.outcome, facts.c.status), facts.c.calls),
                            else_=0,
                        )
                    ),
                    0,
                ),
            )
        )
    ).one()
    users = await session.scalar(select(func.count()).select_from(User))
    active = await session.scalar(
        select(func.count(func.distinct(Call.user_id))).where(
            Call.created_at >= utcnow() - timedelta(days=WINDOW_DAYS), Call.user_id.is_not(None)
        )
    )
    return Overall(
        total_calls=int(row[0]),
        used_cents=int(row[1]),
        total_seconds=int(row[2]),
        successful=int(row[3]),
        total_users=int(users or 0),
        active_users=int(active or 0),
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
    facts = _facts(session, mark)
    local = LocalTime(session, facts.c.hour, offset_minutes)
    first_day, since = _window_start(offset_minutes)

    day = local.day()
    daily_rows = (
        await session.execute(
            select(
                day,
                func.sum(facts.c.calls),
                func.sum(facts.c.duration_seconds),
                func.sum(facts.c.recorded),
            )
            .where(facts.c.hour >= _hour_value(session, floor_hour(since)))
            .group_by(day)
        )
    ).all()
    by_day = {str(r[0]): r for r in daily_rows}
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

    totals = (
        await session.execute(
            select(
                func.coalesce(func.sum(facts.c.recorded), 0),
                func.coalesce(func.sum(facts.c.calls), 0),
                *(func.coalesce(func.sum(facts.c[f"d{i}"]), 0) for i in range(len(BUCKET_LABELS))),
            )
        )
    ).one()
    recorded, calls = int(totals[0]), int(totals[1])
    statuses = (
        await session.execute(
            select(facts.c.status, func.sum(facts.c.calls))
            .group_by(facts.c.status)
            .order_by(func.sum(facts.c.calls).desc(), facts.c.status)
        )
    ).all()
    outcomes = (
        await session.execute(
            select(facts.c.outcome, func.sum(facts.c.calls))
            .where(facts.c.outcome != "")
            .group_by(facts.c.outcome)
            .order_by(func.sum(facts.c.calls).desc(), facts.c.outcome)
        )
    ).all()
    weekday = local.weekday()
    weekdays = {
        int(r[0]): r
        for r in (
            await session.execute(
                select(
                    weekday, func.sum(facts.c.calls), func.sum(facts.c.duration_seconds)
                ).group_by(weekday)
            )
        ).all()
    }
    hour = local.hour()
    hours = {
        int(r[0]): int(r[1] or 0)
        for r in (await session.execute(select(hour, func.sum(facts.c.calls)).group_by(hour))).all()
    }
    return {
        "daily": daily,
        "duration_buckets": [
            {"label": label, "calls": int(totals[2 + i])} for i, label in enumerate(BUCKET_LABELS)
        ],
        "statuses": [{"status": r[0] or "unknown", "calls": int(r[1] or 0)} for r in statuses],
        "outcomes": [
            {"outcome": r[0], "calls": int(r[1] or 0)} for r in outcomes if outcome_of(r[0])
        ],
        "recording": {"recorded": recorded, "not_recorded": calls - recorded},
        "weekdays": [
            {
                "day": name,
                "calls": int(weekdays[i][1] or 0) if i in weekdays else 0,
                "minutes": round(int(weekdays[i][2] or 0) / 60, 1) if i in weekdays else 0,
            }
            for i, name in enumerate(WEEKDAYS)
        ],
        "hours": [{"hour": h, "calls": hours.get(h, 0)} for h in range(24)],
    }


def _hour_value(session: AsyncSession, value: datetime) -> Any:
    """A bound UTC datetime comparable with the facts' hour column on this backend."""
    if is_postgres(session):
        return literal(value, UTCDateTime())
    return literal(value.strftime("%Y-%m-%d %H:00:00.000000"))
