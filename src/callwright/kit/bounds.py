"""Bounds at the edge: what a request gives is checked against what the code and the database
can hold before any of it is used.

- Integers (a page, a page size, an id, an amount) are checked against their range, so
  `?page=9223372036854775807` is a 422, not an overflow in the driver (a 500). Every integer
  column is a 32-bit INTEGER on PostgreSQL, so ids stop at 2**31 - 1; a page number stops
  there too, which keeps the row offset (page x page size) far inside 64 bits.
- Free-form JSON (`metadata`, `request_data`, a batch's rows: `JsonObject`) is bounded in
  depth and size, checked without recursion, so a value nested hundreds of levels deep is a
  4xx naming the field, never a RecursionError where the value is later copied or written.
- Times are within a sane range (`Moment`): "9999-12-31T23:59:59-23:59" cannot be moved to
  UTC (past the last year `datetime` holds), so it was an OverflowError where it was stored.
- Durations and money are strict (`Minutes`, `StrictDollars`): `true` is not one minute and
  the text "1e2" is not 100 dollars; a JSON number is required."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Path, Query
from pydantic import AfterValidator, AwareDatetime, Field, Strict

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

#: How deep free-form JSON may nest: the field's own object is level 1, an object or list in
#: it level 2, and so on.
JSON_DEPTH_MAX = 10
#: The most a free-form JSON field may hold, written as compact JSON (UTF-8 bytes).
JSON_BYTES_MAX = 16 * 1024


def too_deep_message(depth: int = JSON_DEPTH_MAX) -> str:
    return f"This value nests too deeply: at most {depth} levels of objects and lists."


def too_big_message(size: int = JSON_BYTES_MAX) -> str:
    return f"This value is too large: at most {size // 1024} KiB of JSON."


def json_depth(value: Any, stop_after: int = JSON_DEPTH_MAX) -> int:
    """How deep `value` nests (a scalar 0, `{}` or `[]` 1, `{"a": []}` 2), counted without
    recursion; the count stops once it passes `stop_after`, so a value a million levels deep
    costs no more than one just past the bound."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > stop_after:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def bounded_json(value: Any, depth: int = JSON_DEPTH_MAX, size: int = JSON_BYTES_MAX) -> Any:
    """`value` (parsed JSON) as it is, or ValueError when it nests deeper than `depth` or
    takes more than `size` bytes as compact JSON. The depth is checked first, so the size is
    measured only on a value that is safe to write."""
    if json_depth(value, depth) > depth:
        raise ValueError(too_deep_message(depth))
    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(written.encode()) > size:
        raise ValueError(too_big_message(size))
    return value


#: A free-form JSON object a request carries (`metadata`, `request_data`, a batch's row):
#: any keys and values, at most `JSON_DEPTH_MAX` levels deep and `JSON_BYTES_MAX` bytes.
JsonObject = Annotated[dict[str, Any], AfterValidator(bounded_json)]
#: Named texts a request carries (Send Call's `variables`, Bland's `analysis_schema` object):
#: one level deep by their type, at most `JSON_BYTES_MAX` bytes.
TextMap = Annotated[dict[str, str], AfterValidator(bounded_json)]

#: The times a request may name (a campaign's start and end, a post's date), in UTC.
MOMENT_MIN = datetime(2000, 1, 1, tzinfo=UTC)
MOMENT_MAX = datetime(2100, 1, 1, tzinfo=UTC)
MOMENT_RANGE = "Use a time between the years 2000 and 2099."


def sane_moment(value: datetime) -> datetime:
    """`value` when it lies between MOMENT_MIN and MOMENT_MAX (a time without an offset is
    read as UTC); ValueError otherwise. Compared, never converted, so no time overflows."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    if not MOMENT_MIN <= aware < MOMENT_MAX:
        raise ValueError(MOMENT_RANGE)
    return value


#: A time with its offset, within the sane range.
Moment = Annotated[AwareDatetime, AfterValidator(sane_moment)]
#: A time with or without an offset (read as UTC), within the sane range.
AnyMoment = Annotated[datetime, AfterValidator(sane_moment)]

#: A duration in whole minutes, strictly an integer (`true`, `"5"` and `5.0` are refused).
Minutes = Annotated[int, Strict()]
#: An amount of money in dollars, strictly a JSON number (the text "1e2" is refused).
StrictDollars = Annotated[float, Strict()]
#: Whole dollars, strictly an integer.
WholeDollars = Annotated[int, Strict()]


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

    async def params(page: int, per_page: int) -> PageRequest:
        return PageRequest(page, per_page)

    # Real objects, not the strings this module's annotations are (the bounds are this call's).
    params.__annotations__ = {
        "page": Page,
        "per_page": Annotated[int, Query(ge=1, le=most, description="Rows per page.")],
        "return": PageRequest,
    }
    params.__defaults__ = (1, default)
    return Depends(params)
