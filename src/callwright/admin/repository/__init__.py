"""Admin queries: users with search, every call with search and sort, reports, top callers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged, paged_rows
from callwright.models import Call, CallReport, User

#: The call log's sortable columns (the spec's headers) and what each sorts by.
CALL_SORTS: dict[str, Any] = {
    "created_at": Call.created_at,
    "call_id": Call.id,
    "user": User.name,
    "from": Call.from_number,
    "to": Call.to_number,
    "call_length": Call.duration_seconds,
    "status": Call.status,
    "cost": Call.cost_cents,
}
DEFAULT_CALL_SORT = "-created_at"


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _user_match(q: str) -> ColumnElement[bool]:
    pattern = _like(q.lower())
    return or_(
        func.lower(User.name).like(pattern, escape="\\"),
        func.lower(User.email).like(pattern, escape="\\"),
    )


async def users_page(
    session: AsyncSession, *, q: str | None, page: int, per_page: int
) -> tuple[Sequence[User], int]:
    """Users whose name or e-mail contains `q` (any case), by name."""
    where = [_user_match(q)] if q else []
    query = select(User).where(*where).order_by(func.lower(User.name), User.id)
    return await paged(session, query, page=page, per_page=per_page)


def _prefix(column: Any, value: str) -> ColumnElement[bool]:
    """`column` starts with `value`, as a range the column's index can answer."""
    condition: ColumnElement[bool] = (column >= value) & (column < value + "\uffff")
    return condition


def call_search(q: str) -> ColumnElement[bool]:
    """A call matches when its user's name or e-mail contains `q`, its status is `q`, its id
    starts with `q`, or its from or to number starts with the digits of `q` (with or without
    the +). Every branch is answered by an index."""
    lowered = q.strip().lower()
    branches: list[ColumnElement[bool]] = [
        Call.user_id.in_(select(User.id).where(_user_match(lowered))),
        Call.status.in_({lowered, lowered.replace(" ", "-"), lowered.replace(" ", "_")}),
        _prefix(Call.id, lowered),
    ]
    digits = re.sub(r"[^\d]", "", lowered)
    if digits and re.fullmatch(r"\+?[\d\s().-]+", lowered):
        for number in (Call.to_number, Call.from_number):
            branches += [_prefix(number, "+" + digits), _prefix(number, digits)]
    return or_(*branches)


def parse_sort(sort: str) -> tuple[Any, bool]:
    """'-created_at' -> (Call.created_at, descending). Unknown keys raise KeyError."""
    descending = sort.startswith("-")
    return CALL_SORTS[sort.lstrip("-")], descending


async def calls_page(
    session: AsyncSession, *, q: str | None, sort: str, page: int, per_page: int
) -> tuple[Sequence[tuple[Call, User | None]], int]:
    column, descending = parse_sort(sort)
    where = [call_search(q)] if q else []
    order = [column.desc() if descending else column.asc()]
    if column is not Call.created_at:
        order.append(Call.created_at.desc())
    order.append(Call.id.desc() if descending else Call.id.asc())
    query = (
        select(Call, User).outerjoin(User, User.id == Call.user_id).where(*where).order_by(*order)
    )
    counted = select(Call).where(*where)
    return await paged_rows(session, query, page=page, per_page=per_page, counted=counted)


async def top_users(session: AsyncSession, limit: int) -> list[tuple[User, int]]:
    """The users with the most calls, most first (grouped on the user_id index)."""
    count = func.count().label("n")
    ranked = (
        await session.execute(
            select(Call.user_id, count)
            .where(Call.user_id.is_not(None))
            .group_by(Call.user_id)
            .order_by(count.desc(), Call.user_id)
            .limit(limit)
        )
    ).all()
    users = {
        u.id: u
        for u in await session.scalars(select(User).where(User.id.in_([r[0] for r in ranked])))
    }
    return [(users[r[0]], int(r[1])) for r in ranked if r[0] in users]


async def reports_page(
    session: AsyncSession, *, page: int, per_page: int
) -> tuple[Sequence[tuple[CallReport, User | None]], int]:
    query = (
        select(CallReport, User)
        .outerjoin(User, User.id == CallReport.user_id)
        .order_by(CallReport.created_at.desc(), CallReport.id.desc())
    )
    counted = select(CallReport)
    return await paged_rows(session, query, page=page, per_page=per_page, counted=counted)


async def open_calls(session: AsyncSession, user_id: int) -> int:
    """The user's calls still under way (not yet finalised)."""
    count = await session.scalar(
        select(func.count()).where(Call.user_id == user_id, Call.finalized_at.is_(None))
    )
    return int(count or 0)


async def delete_user(session: AsyncSession, user: User) -> None:
    """Delete the account. Its tokens, reset links and ledger go with it (the ledger rows are
    the history of a balance that no longer exists); its calls, reports and posts stay, with the
    owner set to null, so the call logs and the totals keep their history."""
    await session.delete(user)  # the foreign keys cascade or set null
    await session.flush()
