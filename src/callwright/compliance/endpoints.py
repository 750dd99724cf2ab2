"""The do-not-call lists' API: a signed-in user's own list (`/do-not-call`) and the admins'
global list (`/admin/do-not-call`), each listed, searched, added to one number at a time,
imported from a CSV file, exported as CSV, and removed from. docs/compliance.md."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, BinaryIO

from fastapi import APIRouter, File, Query, UploadFile
from fastapi.responses import StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.auth.deps import AdminUser, CurrentUser
from callwright.compliance import do_not_call
from callwright.compliance import repository as lists
from callwright.compliance.schemas import (
    DoNotCallAdded,
    DoNotCallIn,
    DoNotCallOut,
    DoNotCallPage,
    ImportOut,
    ImportReport,
    RefusedRow,
    Removed,
)
from callwright.kit.bounds import PageRequest, PathId, page_params
from callwright.kit.csv_export import CsvExport
from callwright.kit.db import Database, SessionDep
from callwright.kit.deps import DatabaseDep
from callwright.kit.errors import ValidationFailed, or_404
from callwright.kit.phone import list_number
from callwright.models.compliance import DoNotCall

router = APIRouter(tags=["compliance"])

#: Header names that mark the phone column (compared without case, spaces or underscores).
PHONE_HEADERS = {"phone", "phonenumber", "number", "tel", "telephone", "mobile"}
#: Rows written per transaction step while importing.
BATCH = 500
#: Refused rows reported one by one (all are counted).
REFUSED_SHOWN = 100
NOT_FOUND = "Do-not-call entry not found."
BAD_FILE = "The file must be a CSV text file (UTF-8) with a phone number column."
EXPORT_COLUMNS = ("phone_number", "source", "note", "call_id", "evidence", "created_at")

SearchParam = Annotated[str, Query(max_length=40, description="Digits of the number.")]


def entry_out(entry: DoNotCall) -> DoNotCallOut:
    return DoNotCallOut(
        id=entry.id,
        phone_number=entry.phone,
        source=entry.source,
        note=entry.note,
        call_id=entry.call_id,
        evidence=entry.evidence,
        created_at=entry.created_at,
    )


def _phone_column(header: list[str]) -> int | None:
    for index, name in enumerate(header):
        if "".join(c for c in name.lower() if c.isalnum()) in PHONE_HEADERS:
            return index
    return None


def _rows(raw: BinaryIO) -> Iterator[tuple[int, str]]:
    """(row number, the phone cell) for every row of the CSV file: the phone column is the one
    its header names, or the first column when the first row is a number (no header)."""
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
    reader = csv.reader(text)
    try:
        first = next(reader, None)
    except (UnicodeDecodeError, csv.Error):
        raise ValidationFailed({"file": [BAD_FILE]}) from None
    if first is None:
        return
    column = _phone_column(first)
    if column is None:
        if len(first) == 1 or _parses(first[0]):
            column = 0
            yield 1, first[0]
        else:
            raise ValidationFailed({"file": [BAD_FILE]})
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            yield reader.line_num, row[column] if column < len(row) else ""
    except (UnicodeDecodeError, csv.Error):
        raise ValidationFailed({"file": [BAD_FILE]}) from None


def _parses(value: str) -> bool:
    try:
        list_number(value)
    except ValueError:
        return False
    return True


async def import_numbers(session: AsyncSession, user_id: int | None, raw: BinaryIO) -> ImportReport:
    """Add every number of the CSV file `raw` to the list, a batch at a time (the file is read
    as a stream: its size is bounded by the request's, never held as a whole)."""
    added = already = refused_count = 0
    refused: list[RefusedRow] = []
    seen: set[str] = set()

    def refuse(row: int, value: str, reason: str) -> None:
        nonlocal refused_count
        refused_count += 1
        if len(refused) < REFUSED_SHOWN:
            refused.append(RefusedRow(row=row, value=value[:40], reason=reason))

    batch: list[str] = []

    async def flush() -> None:
        nonlocal added, already
        listed = await lists.listed_among(session, user_id, batch)
        already += len(listed)
        fresh = [p for p in batch if p not in listed]
        session.add_all(DoNotCall(user_id=user_id, phone=phone, source="import") for phone in fresh)
        await session.flush()
        added += len(fresh)
        batch.clear()

    for row, value in _rows(raw):
        try:
            phone = list_number(value)
        except ValueError as exc:
            refuse(row, value, str(exc))
            continue
        if phone in seen:
            refuse(row, value, "Duplicate of an earlier row.")
            continue
        seen.add(phone)
        batch.append(phone)
        if len(batch) >= BATCH:
            await flush()
    if batch:
        await flush()
    return ImportReport(
        added=added, already_listed=already, refused=refused, refused_count=refused_count
    )


async def _csv(db: Database, user_id: int | None) -> AsyncIterator[str]:
    """The list as CSV chunks. The body is sent after the request's own session has closed, so
    the rows are read on a session of its own, closed when the stream ends or is abandoned (a
    session left open here held a read lock that blocked PostgreSQL's TRUNCATE for ever)."""
    async with db.sessionmaker() as session:
        async for chunk in _csv_chunks(session, user_id):
            yield chunk


async def _csv_chunks(session: AsyncSession, user_id: int | None) -> AsyncIterator[str]:
    export = CsvExport()
    export.row(EXPORT_COLUMNS)
    async for entry in lists.stream(session, user_id):
        export.row(
            (
                entry.phone,
                entry.source,
                entry.note or "",
                entry.call_id or "",
                entry.evidence or "",
                entry.created_at.isoformat(),
            )
        )
        if export.size() > 64 * 1024:
            yield export.take()
    yield export.take()


def _download(db: Database, user_id: int | None, name: str) -> StreamingResponse:
    return StreamingResponse(
        _csv(db, user_id),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


async def _add(session: AsyncSession, user_id: int | None, body: DoNotCallIn) -> DoNotCallAdded:
    entry, created = await do_not_call.add(
        session, user_id=user_id, phone=body.phone_number, source="manual", note=body.note
    )
    return DoNotCallAdded(data=entry_out(entry), created=created)


async def _page(
    session: AsyncSession, user_id: int | None, search: str, paging: PageRequest
) -> DoNotCallPage:
    rows, total = await lists.page(
        session, user_id, search=search, page=paging.page, per_page=paging.per_page
    )
    return DoNotCallPage(data=[entry_out(e) for e in rows], pagination=paging.pagination(total))


async def _remove(session: AsyncSession, user_id: int | None, entry_id: int) -> Removed:
    entry = or_404(await lists.entry(session, user_id, entry_id), NOT_FOUND)
    await session.delete(entry)
    return Removed(message="Number removed from the do-not-call list.")


# A user's own list


@router.get("/do-not-call")
async def list_do_not_call(
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
    search: SearchParam = "",
) -> DoNotCallPage:
    """The user's do-not-call list, newest first; `search` matches digits of the number."""
    return await _page(session, user.id, search, paging)


@router.post("/do-not-call")
async def add_do_not_call(
    body: DoNotCallIn, user: CurrentUser, session: SessionDep
) -> DoNotCallAdded:
    """List a number: never dialled for this user again. Listed already: the entry as it is."""
    return await _add(session, user.id, body)


@router.post("/do-not-call/import")
async def import_do_not_call(
    user: CurrentUser, session: SessionDep, file: Annotated[UploadFile, File()]
) -> ImportOut:
    """Add the numbers of a CSV file (a `phone`/`phone_number` column, or numbers alone)."""
    return ImportOut(data=await import_numbers(session, user.id, file.file))


@router.get("/do-not-call/export")
async def export_do_not_call(user: CurrentUser, db: DatabaseDep) -> StreamingResponse:
    """The whole list as CSV."""
    return _download(db, user.id, "do-not-call.csv")


@router.delete("/do-not-call/{entry_id}")
async def remove_do_not_call(entry_id: PathId, user: CurrentUser, session: SessionDep) -> Removed:
    return await _remove(session, user.id, entry_id)


# The global list (admins)


@router.get("/admin/do-not-call")
async def list_global_do_not_call(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
    search: SearchParam = "",
) -> DoNotCallPage:
    """The global do-not-call list: its numbers are never dialled for anyone."""
    return await _page(session, None, search, paging)


@router.post("/admin/do-not-call")
async def add_global_do_not_call(
    body: DoNotCallIn, _admin: AdminUser, session: SessionDep
) -> DoNotCallAdded:
    return await _add(session, None, body)


@router.post("/admin/do-not-call/import")
async def import_global_do_not_call(
    _admin: AdminUser, session: SessionDep, file: Annotated[UploadFile, File()]
) -> ImportOut:
    return ImportOut(data=await import_numbers(session, None, file.file))


@router.get("/admin/do-not-call/export")
async def export_global_do_not_call(_admin: AdminUser, db: DatabaseDep) -> StreamingResponse:
    return _download(db, None, "global-do-not-call.csv")


@router.delete("/admin/do-not-call/{entry_id}")
async def remove_global_do_not_call(
    entry_id: PathId, _admin: AdminUser, session: SessionDep
) -> Removed:
    return await _remove(session, None, entry_id)
