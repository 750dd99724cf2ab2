"""The compliance queries: the do-not-call lists (one list at a time, a user's or the global
one, or both as they bind a user's call), and the recent calls to a number (the frequency cap)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import Call
from callwright.models.compliance import DoNotCall


def on_list(user_id: int | None) -> ColumnElement[bool]:
    return DoNotCall.user_id.is_(None) if user_id is None else DoNotCall.user_id == user_id


async def page(
    session: AsyncSession, user_id: int | None, *, search: str, page: int, per_page: int
) -> tuple[Sequence[DoNotCall], int]:
    where = [on_list(user_id)]
    digits = "".join(c for c in search if c.isdigit())
    if digits:
        where.append(DoNotCall.phone.contains(digits, autoescape=True))
    query = (
        select(DoNotCall).where(*where).order_by(DoNotCall.created_at.desc(), DoNotCall.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def entry(session: AsyncSession, user_id: int | None, entry_id: int) -> DoNotCall | None:
    found: DoNotCall | None = await session.scalar(
        select(DoNotCall).where(DoNotCall.id == entry_id, on_list(user_id))
    )
    return found


async def listed_among(
    session: AsyncSession, user_id: int | None, phones: Sequence[str]
) -> set[str]:
    """Which of `phones` the list holds already."""
    if not phones:
        return set()
    rows = await session.scalars(
        select(DoNotCall.phone).where(on_list(user_id), DoNotCall.phone.in_(phones))
    )
    return set(rows.all())


async def stream(session: AsyncSession, user_id: int | None) -> AsyncIterator[DoNotCall]:
    """The whole list, oldest first, a batch at a time."""
    result = await session.stream_scalars(
        select(DoNotCall)
        .where(on_list(user_id))
        .order_by(DoNotCall.created_at, DoNotCall.id)
        .execution_options(yield_per=500)
    )
    async for row in result:
        yield row


async def listed_during(session: AsyncSession, call_id: str) -> bool:
    """Whether a number was put on a list during this call (the callee asked the agent)."""
    found = await session.scalar(select(DoNotCall.id).where(DoNotCall.call_id == call_id).limit(1))
    return found is not None


async def binding(session: AsyncSession, user_id: int | None, phone: str) -> Sequence[DoNotCall]:
    """The entries for `phone` on the user's own list and on the global one."""
    owners: ColumnElement[bool] = DoNotCall.user_id.is_(None)
    if user_id is not None:
        owners = or_(DoNotCall.user_id == user_id, owners)
    return (await session.scalars(select(DoNotCall).where(DoNotCall.phone == phone, owners))).all()


async def on_list_entry(session: AsyncSession, user_id: int | None, phone: str) -> DoNotCall | None:
    """`phone`'s entry on `user_id`'s list (None: the global list)."""
    found: DoNotCall | None = await session.scalar(
        select(DoNotCall).where(on_list(user_id), DoNotCall.phone == phone)
    )
    return found


async def queued_since(
    session: AsyncSession, user_id: int, phone: str, since: datetime, limit: int
) -> Sequence[datetime | None]:
    """When the user's latest calls to `phone` after `since` were queued, newest first, at
    most `limit`."""
    return (
        await session.scalars(
            select(Call.queued_at)
            .where(Call.user_id == user_id, Call.to_number == phone, Call.queued_at > since)
            .order_by(Call.queued_at.desc())
            .limit(limit)
        )
    ).all()
