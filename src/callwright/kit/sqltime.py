"""Calendar parts of a stored UTC datetime in SQL, in the caller's local time, on SQLite and
PostgreSQL alike (so charts group in the database, never in Python)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query
from sqlalchemy import Integer, func
from sqlalchemy.ext.asyncio import AsyncSession

#: `LocalTime.weekday()`'s numbers, named: 0 = Monday.
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: The query parameter charts take for the caller's local time.
TzOffset = Annotated[
    int,
    Query(
        ge=-14 * 60,
        le=14 * 60,
        description="Minutes to add to UTC for the caller's local time (-Date.getTimezoneOffset()).",
    ),
]


def is_postgres(session: AsyncSession) -> bool:
    return session.bind.dialect.name == "postgresql"  # type: ignore[union-attr]


class LocalTime:
    """`column` moved by `offset_minutes` (the caller's UTC offset), and its parts."""

    def __init__(self, session: AsyncSession, column: Any, offset_minutes: int) -> None:
        self.pg = is_postgres(session)
        if self.pg:
            # In UTC whatever the session's TimeZone, then moved to the caller's clock.
            self.value = func.timezone("UTC", column) + func.make_interval(
                0, 0, 0, 0, 0, offset_minutes
            )
        else:
            self.value = func.datetime(column, f"{offset_minutes:+d} minutes")

    def weekday(self) -> Any:
        """0 = Monday ... 6 = Sunday."""
        if self.pg:
            return (func.extract("isodow", self.value) - 1).cast(Integer)
        return (func.cast(func.strftime("%w", self.value), Integer) + 6) % 7

    def hour(self) -> Any:
        if self.pg:
            return func.extract("hour", self.value).cast(Integer)
        return func.cast(func.strftime("%H", self.value), Integer)

    def day(self) -> Any:
        """The local date as 'YYYY-MM-DD'."""
        if self.pg:
            return func.to_char(self.value, "YYYY-MM-DD")
        return func.strftime("%Y-%m-%d", self.value)


def hour_floor(session: AsyncSession, column: Any) -> Any:
    """The UTC hour a datetime falls in, in the column's own storage format."""
    if is_postgres(session):
        return func.date_trunc("hour", column, "UTC")
    return func.strftime("%Y-%m-%d %H:00:00.000000", column)
