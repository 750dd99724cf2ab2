"""The admin statistics' queries: the hourly rollup (`call_stats_hourly`) and the facts the
charts read, rolled-up hours before the high-water mark plus live calls from it
(`admin.analytics` says how the mark moves)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, RowMapping, Select, and_, case, func, literal, select, union_all
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql import ColumnElement

from callwright.calls.outcomes import successful_sql
from callwright.kit.db import UTCDateTime
from callwright.kit.sqltime import hour_floor, is_postgres
from callwright.models import Call, CallStatsHourly, User
from callwright.models.stats import BUCKET_LABELS, DURATION_BUCKETS

#: A result row of any width, and a result.
AnyRow = Row[*tuple[Any, ...]]
Rows = Sequence[AnyRow]
COUNTERS = (
    "calls",
    "recorded",
    "connected",
    "duration_seconds",
    "cost_cents",
    *(f"d{i}" for i in range(len(DURATION_BUCKETS))),
)


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


async def oldest_open(session: AsyncSession) -> datetime | None:
    """When the oldest call not finalised yet was created."""
    found: datetime | None = await session.scalar(
        select(func.min(Call.created_at)).where(Call.finalized_at.is_(None))
    )
    return found


async def hours(
    session: AsyncSession, since: datetime | None, until: datetime
) -> Sequence[RowMapping]:
    """The rollup's rows for the calls created in [since, until)."""
    rows: Sequence[RowMapping] = (
        (await session.execute(_aggregate(session, since, until))).mappings().all()
    )
    return rows


async def add_hours(session: AsyncSession, values: list[dict[str, Any]]) -> None:
    """Insert rollup rows; an hour another process wrote first is left as it is."""
    dialect: Any = postgresql if is_postgres(session) else sqlite
    if values:  # one executemany (batched multi-row INSERTs, compiled once)
        await session.execute(dialect.insert(CallStatsHourly).on_conflict_do_nothing(), values)


def facts(session: AsyncSession, mark: datetime | None) -> Any:
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


async def overall(session: AsyncSession, facts: Any) -> AnyRow:
    """(calls, cost in cents, seconds, successful calls) over `facts`."""
    successful = case((successful_sql(facts.c.outcome, facts.c.status), facts.c.calls), else_=0)
    query = select(
        func.coalesce(func.sum(facts.c.calls), 0),
        func.coalesce(func.sum(facts.c.cost_cents), 0),
        func.coalesce(func.sum(facts.c.duration_seconds), 0),
        func.coalesce(func.sum(successful), 0),
    )
    return (await session.execute(query)).one()


async def user_count(session: AsyncSession) -> int:
    return int(await session.scalar(select(func.count()).select_from(User)) or 0)


async def callers_since(session: AsyncSession, since: datetime) -> int:
    """How many users placed a call since `since`."""
    query = select(func.count(func.distinct(Call.user_id))).where(
        Call.created_at >= since, Call.user_id.is_not(None)
    )
    return int(await session.scalar(query) or 0)


async def daily(
    session: AsyncSession, facts: Any, day: ColumnElement[Any], since: datetime
) -> Rows:
    """(local day, calls, seconds, recorded) for each day of `facts` from the hour `since`."""
    query = (
        select(
            day,
            func.sum(facts.c.calls),
            func.sum(facts.c.duration_seconds),
            func.sum(facts.c.recorded),
        )
        .where(facts.c.hour >= _hour_value(session, since))
        .group_by(day)
    )
    return (await session.execute(query)).all()


async def totals(session: AsyncSession, facts: Any) -> AnyRow:
    """(recorded, calls, then the calls in each duration bucket) over `facts`."""
    query = select(
        func.coalesce(func.sum(facts.c.recorded), 0),
        func.coalesce(func.sum(facts.c.calls), 0),
        *(func.coalesce(func.sum(facts.c[f"d{i}"]), 0) for i in range(len(BUCKET_LABELS))),
    )
    return (await session.execute(query)).one()


async def calls_by(session: AsyncSession, facts: Any, column: str) -> Rows:
    """(value of `column`, calls), the most calls first; an empty outcome left out."""
    key = facts.c[column]
    query = select(key, func.sum(facts.c.calls)).group_by(key)
    if column == "outcome":
        query = query.where(key != "")
    return (await session.execute(query.order_by(func.sum(facts.c.calls).desc(), key))).all()


async def calls_and_seconds_by(session: AsyncSession, facts: Any, key: ColumnElement[Any]) -> Rows:
    """(key, calls, seconds) for each value of `key`."""
    query = select(key, func.sum(facts.c.calls), func.sum(facts.c.duration_seconds))
    return (await session.execute(query.group_by(key))).all()


def _hour_value(session: AsyncSession, value: datetime) -> Any:
    """A bound UTC datetime comparable with the facts' hour column on this backend."""
    if is_postgres(session):
        return literal(value, UTCDateTime())
    return literal(value.strftime("%Y-%m-%d %H:00:00.000000"))
