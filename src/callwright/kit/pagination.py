"""Paged lists: every list endpoint's page comes from here, and the page's description the
responses carry (`Pagination`).

A repository hands its ordered query to `paged` (its ORM objects), `paged_rows` (rows of several
entities or columns) or `sliced` (a window by index: the `/v1` API's `from`/`to`/`limit`), and
gets the page with how many rows the query has in all. A hot read built once as a Core statement
pages with `window` and `with_total` instead, and reads with `one_statement_page`: the count
rides on the page's rows, so a page costs one statement."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, TypeVarTuple

from pydantic import BaseModel
from sqlalchemy import Executable, Row, Select, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

_S = TypeVar("_S", bound=Select)  # type: ignore[type-arg]
_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")

#: The label of the count a `with_total` statement's rows carry.
TOTAL = "total"


def _slice(query: _S, skip: Any, size: Any) -> _S:
    return query.offset(skip).limit(size)


def _skipped(page: int, per_page: int) -> int:
    """How many rows come before page `page` (1-based) of `per_page`."""
    return (page - 1) * per_page


async def _count(executor: AsyncSession | AsyncConnection, query: Select[*tuple[Any, ...]]) -> int:
    """How many rows `query` has in all."""
    total = await executor.scalar(select(func.count()).select_from(query.order_by(None).subquery()))
    return int(total or 0)


async def sliced(
    session: AsyncSession, query: Select[_T], *, skip: int, size: int
) -> tuple[Sequence[_T], int]:
    """`size` of `query`'s rows after the first `skip`, in its order, and how many rows it has
    in all."""
    rows = (await session.scalars(_slice(query, skip, size))).all()
    return rows, await _count(session, query)


async def paged(
    session: AsyncSession, query: Select[_T], *, page: int, per_page: int
) -> tuple[Sequence[_T], int]:
    """Page `page` (1-based) of `per_page` of `query`'s rows, in its order, and how many rows
    it has in all: what every paged list's repository answers."""
    return await sliced(session, query, skip=_skipped(page, per_page), size=per_page)


async def paged_rows(
    executor: AsyncSession | AsyncConnection,
    query: Select[*_Ts],
    *,
    page: int,
    per_page: int,
    counted: Select[*tuple[Any, ...]] | None = None,
) -> tuple[Sequence[Row[*_Ts]], int]:
    """`paged` for a query of several entities or columns: the page as rows. `counted`, when
    given, is what to count instead: the same rows without the to-one outer joins that only add
    columns to them (SQLite keeps such a join in a count, one lookup per row)."""
    rows = (await executor.execute(_slice(query, _skipped(page, per_page), per_page))).all()
    return rows, await _count(executor, query if counted is None else counted)


def window(query: _S) -> _S:
    """`query` limited to the page its execution names (`one_statement_page` gives the values):
    a statement built once pages with new values, and SQLAlchemy memoises its cache key."""
    return _slice(query, bindparam("skip"), bindparam("size"))


def with_total(query: Select[*_Ts], count: Select[int]) -> Select[*tuple[Any, ...]]:
    """`query` with `count` (one number) on each of its rows, labelled `TOTAL`."""
    return query.add_columns(count.scalar_subquery().label(TOTAL))


async def one_statement_page(
    connection: AsyncConnection,
    statement: Executable,
    count: Executable,
    params: Mapping[str, Any],
    *,
    page: int,
    per_page: int,
) -> tuple[Sequence[Row[*tuple[Any, ...]]], int]:
    """Page `page` of `statement` (built with `window` and `with_total`, its other parameters
    `params`) and its rows' count, in one statement; only a page past the end (no rows, so no
    count on them) asks `count` (with `params`) on its own."""
    values = {**params, "skip": _skipped(page, per_page), "size": per_page}
    rows = (await connection.execute(statement, values)).all()
    if rows:
        return rows, int(getattr(rows[0], TOTAL))
    return rows, int(await connection.scalar(count, dict(params)) or 0)


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
