"""The API's response envelopes: `{"success": true, ...}` as the spec's client reads them.

A response model names its payload by subclassing one of these (the subclass's name is the
name the OpenAPI schema, and so the frontend's types, know it by):

    class StatsOut(Ok[StatsData]): ...             # {"success", "data"}
    class CallsPage(Paged[CallRecord]): ...        # {"success", "data": [...], "pagination"}
    class TestCallOut(Envelope):                   # {"success", and its own fields}
        callId: str
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel

from callwright.kit.pagination import Pagination

T = TypeVar("T")


class Envelope(BaseModel):
    success: bool = True


class Ok(Envelope, Generic[T]):
    data: T


class Paged(Envelope, Generic[T]):
    data: list[T]
    pagination: Pagination
