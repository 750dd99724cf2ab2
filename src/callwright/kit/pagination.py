"""Paged lists: the page of a query (`paged`, `page_of`) and the page's description the
responses carry (`Pagination`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel
from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

_S = TypeVar("_S", bound=Select)  # type: ignore[type-arg]
_T = TypeVar("_T")


def skipped(page: int, per_page: int) -> int:
    """How many rows come before page `page` (1-based) of `per_page`."""
    return (page - 1) * per_page


def page_of(query: _S, *, page: int, per_page: int) -> _S:
    """`query` limited to page `page` (1-based) of `per_page` rows."""
    return query.offset(skipped(page, per_page)).limit(per_page)


class Pagination(BaseModel):
    current_page: int
    last_page: int
    per_page: int
    total: int

    @classmethod
    def of(cls, *, page: int, per_page: int, total: int) -> Pagination:
        return cls(
            current_page=page,
            last_page=max(1, math.ceil(total / per_page)),
            per_page=per_page,
            total=total,
        )


async def paged(
    session: AsyncSession, query: Select[_T], *, page: int, per_page: int
) -> tuple[Sequence[_T], int]:
    """Page `page` (1-based) of `per_page` of `query`'s rows, in its order, and how many rows
    it has in all: what every paged list's repository answers."""
    total = await session.scalar(select(func.count()).select_from(query.order_by(None).subquery()))
    rows = (await session.scalars(page_of(query, page=page, per_page=per_page))).all()
    return rows, int(total or 0)
