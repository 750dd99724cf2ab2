"""The do-not-call lists' queries: one list at a time (a user's, or the global one)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import page_of
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
    total = await session.scalar(select(func.count()).select_from(DoNotCall).where(*where))
    rows = await session.scalars(
        page_of(
            select(DoNotCall)
            .where(*where)
            .order_by(DoNotCall.created_at.desc(), DoNotCall.id.desc()),
            page=page,
            per_page=per_page,
        )
    )
    return rows.all(), int(total or 0)


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
