"""The do-not-call lists' API shapes (a user's own list and the admins' global list)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.phone import ListNumber

NOTE_MAX = 500


class DoNotCallIn(BaseModel):
    phone_number: ListNumber = Field(max_length=40)
    note: str | None = Field(None, max_length=NOTE_MAX)


class DoNotCallOut(BaseModel):
    id: int
    phone_number: str
    #: How it got there: typed in, imported from a file, or heard as an opt-out in a call.
    source: Literal["manual", "import", "opt-out"]
    note: str | None
    #: For an opt-out: the call, and what the callee said.
    call_id: str | None
    evidence: str | None
    created_at: datetime


class DoNotCallPage(Paged[DoNotCallOut]):
    pass


class DoNotCallAdded(Ok[DoNotCallOut]):
    #: False when the number was listed already (the entry is the first one).
    created: bool


class RefusedRow(BaseModel):
    #: 1-based, the header row included.
    row: int
    value: str
    reason: str


class ImportReport(BaseModel):
    added: int
    already_listed: int
    #: Every refused row up to the first 100; `refused_count` counts them all.
    refused: list[RefusedRow]
    refused_count: int


class ImportOut(Ok[ImportReport]):
    pass


class Removed(Envelope):
    message: str
