"""The `/v1` API's own queries: a user's calls with Bland's list filters, an owned call (an
owned agent is `agents.service.owned`'s), a batch's ended calls and its analysis."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import sliced
from callwright.models import BatchAnalysis, Call
from callwright.telephony.state import TERMINAL


@dataclass(frozen=True)
class CallFilter:
    to_number: str | None = None
    from_number: str | None = None
    #: Created at or after / before (UTC).
    created_from: datetime | None = None
    created_before: datetime | None = None
    completed: bool | None = None
    answered_by: str | None = None


def _where(user_id: int, f: CallFilter) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = [Call.user_id == user_id]
    if f.to_number:
        where.append(Call.to_number == f.to_number)
    if f.from_number:
        where.append(Call.from_number == f.from_number)
    if f.created_from is not None:
        where.append(Call.created_at >= f.created_from)
    if f.created_before is not None:
        where.append(Call.created_at < f.created_before)
    ended = [s.value for s in TERMINAL]
    if f.completed is True:
        where.append(Call.status.in_(ended))
    elif f.completed is False:
        where.append(Call.status.not_in(ended))
    if f.answered_by:
        # Only calls that show who answered (`answered_by_enabled`) match what they show.
        where.append(Call.answered_by_enabled.is_(True))
    if f.answered_by == "no-answer":  # how the serializer shows an ended, unanswered call
        where += [Call.answered_at.is_(None), Call.status.in_(ended)]
    elif f.answered_by:
        where.append(Call.answered_by == f.answered_by)
    return where


async def list_calls(
    session: AsyncSession,
    user_id: int,
    f: CallFilter,
    *,
    skip: int,
    size: int,
    ascending: bool,
) -> tuple[Sequence[Call], int]:
    """One slice of the user's matching calls (newest first unless `ascending`) and how many
    match in all."""
    order = (Call.created_at, Call.id) if ascending else (Call.created_at.desc(), Call.id.desc())
    query = select(Call).where(*_where(user_id, f)).order_by(*order)
    return await sliced(session, query, skip=skip, size=size)


async def owned_call(session: AsyncSession, user_id: int, call_id: str) -> Call | None:
    call = await session.get(Call, call_id)
    return call if call is not None and call.user_id == user_id else None


async def ended_batch_calls(session: AsyncSession, campaign_id: str, limit: int) -> Sequence[Call]:
    """The batch's first `limit` calls that have ended, oldest first."""
    found = await session.scalars(
        select(Call)
        .where(Call.campaign_id == campaign_id, Call.status.in_([s.value for s in TERMINAL]))
        .order_by(Call.created_at, Call.id)
        .limit(limit)
    )
    return found.all()


async def replace_batch_analysis(
    session: AsyncSession, campaign_id: str, rows: Sequence[BatchAnalysis]
) -> None:
    """The batch's analysis is now `rows` (its earlier one is dropped)."""
    await session.execute(delete(BatchAnalysis).where(BatchAnalysis.campaign_id == campaign_id))
    session.add_all(rows)


async def batch_analysis(session: AsyncSession, campaign_id: str) -> Sequence[BatchAnalysis]:
    found = await session.scalars(
        select(BatchAnalysis)
        .where(BatchAnalysis.campaign_id == campaign_id)
        .order_by(BatchAnalysis.id)
    )
    return found.all()
