"""Every billing query: the ledger as a history, and the card top-ups."""

from __future__ import annotations

from collections.abc import AsyncIterator

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import page_of
from callwright.models import LedgerEntry, TopUp


async def history(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[list[LedgerEntry], int]:
    """The user's ledger, newest first."""
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.user_id == user_id)
        .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
    )
    rows = (await session.scalars(page_of(query, page=page, per_page=per_page))).all()
    total = await session.scalar(
        select(func.count()).select_from(LedgerEntry).where(LedgerEntry.user_id == user_id)
    )
    return list(rows), int(total or 0)


async def stream_history(session: AsyncSession, user_id: int) -> AsyncIterator[LedgerEntry]:
    """The whole ledger, oldest first, read in batches (the CSV export)."""
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.user_id == user_id)
        .order_by(LedgerEntry.created_at, LedgerEntry.id)
        .execution_options(yield_per=500)
    )
    async for entry in await session.stream_scalars(query):
        yield entry


async def top_up(session: AsyncSession, top_up_id: int, user_id: int | None = None) -> TopUp | None:
    """A top-up by id (only the user's own when `user_id` is given)."""
    query = select(TopUp).where(TopUp.id == top_up_id)
    if user_id is not None:
        query = query.where(TopUp.user_id == user_id)
    return await session.scalar(query)


async def top_ups(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[list[TopUp], int]:
    """A user's card top-ups, newest first (failed and pending ones too)."""
    query = (
        select(TopUp)
        .where(TopUp.user_id == user_id)
        .order_by(TopUp.created_at.desc(), TopUp.id.desc())
    )
    rows = (await session.scalars(page_of(query, page=page, per_page=per_page))).all()
    total = await session.scalar(
        select(func.count()).select_from(TopUp).where(TopUp.user_id == user_id)
    )
    return list(rows), int(total or 0)
