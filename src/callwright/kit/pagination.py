from __future__ import annotations

import math
from typing import TypeVar

from pydantic import BaseModel
from sqlalchemy import Select

_S = TypeVar("_S", bound=Select)  # type: ignore[type-arg]


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
