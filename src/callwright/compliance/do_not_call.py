"""The do-not-call lists' two questions every dialler asks, and the one write an opt-out makes.
A user's list and the global list both apply to each of the user's calls."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.compliance import repository
from callwright.kit.errors import AppError
from callwright.models.compliance import DoNotCall

Source = Literal["manual", "import", "opt-out"]


async def listed(session: AsyncSession, user_id: int | None, phone: str) -> DoNotCall | None:
    """The entry that keeps `phone` (E.164) from being dialled for `user_id`: on the user's own
    list or on the global one (the user's own first); None when neither lists it."""
    rows = await repository.binding(session, user_id, phone)
    return min(rows, key=lambda e: e.user_id is None, default=None)


async def add(
    session: AsyncSession,
    *,
    user_id: int | None,
    phone: str,
    source: Source,
    note: str | None = None,
    call_id: str | None = None,
    evidence: str | None = None,
) -> tuple[DoNotCall, bool]:
    """Put `phone` (E.164) on `user_id`'s list (None: the global list). Answers the entry and
    whether it is new; a number already listed keeps its first entry (and its evidence)."""
    existing = await repository.on_list_entry(session, user_id, phone)
    if existing is not None:
        return existing, False
    entry = DoNotCall(
        user_id=user_id,
        phone=phone,
        source=source,
        note=note,
        call_id=call_id,
        evidence=evidence,
    )
    try:
        async with session.begin_nested():
            session.add(entry)
    except IntegrityError:
        # Added by a concurrent writer between the select and the insert.
        raced = await repository.on_list_entry(session, user_id, phone)
        if raced is None:
            raise
        return raced, False
    return entry, True


#: Why a listed number is not dialled.
ON_YOUR_LIST = "This number is on your do-not-call list."
ON_GLOBAL_LIST = "This number is on the global do-not-call list."


class OnDoNotCallList(AppError):
    """A call to a number a do-not-call list holds."""


def why_not(entry: DoNotCall) -> str:
    return ON_GLOBAL_LIST if entry.user_id is None else ON_YOUR_LIST


async def check(session: AsyncSession, user_id: int | None, phone: str) -> None:
    """Refuse (OnDoNotCallList) a call for `user_id` (None: a call nobody owns, which only the
    global list binds) to a listed `phone`."""
    entry = await listed(session, user_id, phone)
    if entry is not None:
        message = why_not(entry)
        raise OnDoNotCallList(message, errors={"phone_number": [message]})
