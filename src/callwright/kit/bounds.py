"""Bounded integers at the edge: every integer a request gives (a page, a page size, an id, an
amount) is checked against the range the code and the database can hold before any query sees
it, so `?page=9223372036854775807` is a 422, not an overflow in the driver (a 500).

Every integer column is a 32-bit INTEGER on PostgreSQL, so ids stop at 2**31 - 1; a page
number stops there too, which keeps the row offset (page x page size) far inside 64 bits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Query
from pydantic import Field

from callwright.kit.pagination import Pagination

#: The largest value of a PostgreSQL INTEGER column (every id, count and amount column).
DB_INT_MAX = 2**31 - 1
#: The largest page size any list serves.
PER_PAGE_MAX = 100

#: A row id in a path (`/posts/{post_id}`).
PathId = Annotated[int, Path(ge=1, le=DB_INT_MAX)]
#: A row id in a JSON body.
BodyId = Annotated[int, Field(ge=1, le=DB_INT_MAX)]
#: A 1-based page number.
Page = Annotated[int, Query(ge=1, le=DB_INT_MAX, description="1-based page number.")]
#: Rows per page, 1 to 100.
PerPage = Annotated[int, Query(ge=1, le=PER_PAGE_MAX, description="Rows per page.")]


@dataclass(frozen=True)
class PageRequest:
    """The page a list request asks for (`?page=&per_page=`), both bounded."""

    page: int
    per_page: int

    def pagination(self, total: int) -> Pagination:
        return Pagination.of(page=self.page, per_page=self.per_page, total=total)


def page_params(default: int, most: int = PER_PAGE_MAX) -> Any:
    """The dependency of a paged list: `paging: Annotated[PageRequest, page_params(20)]` reads
    `page` (1-based) and `per_page` (1 to `most`, `default` when absent)."""

    def params(page: int, per_page: int) -> PageRequest:
        return PageRequest(page, per_page)

    # Real objects, not the strings this module's annotations are (the bounds are this call's).
    params.__annotations__ = {
        "page": Page,
        "per_page": Annotated[int, Query(ge=1, le=most, description="Rows per page.")],
        "return": PageRequest,
    }
    params.__defaults__ = (1, default)
    return Depends(params)
