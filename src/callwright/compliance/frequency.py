"""The frequency cap: a user calls the same number at most N times in any 24 hours, across
single calls, the API and (later) campaigns. Counted from the calls' queue times, so a call
refused by any rule before it was stored does not count."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.compliance import repository
from callwright.kit.errors import AppError

WINDOW = timedelta(hours=24)


class TooManyCallsToNumber(AppError):
    status_code = 429


async def check(session: AsyncSession, user_id: int, phone: str, cap: int, now: datetime) -> None:
    """Refuse (TooManyCallsToNumber, 429) the user's next call to `phone` when `cap` calls to it
    were queued in the 24 hours before `now`; `cap` 0 turns the rule off."""
    if cap <= 0:
        return
    since = now - WINDOW
    recent = await repository.queued_since(session, user_id, phone, since, cap)
    if len(recent) < cap:
        return
    again = min(t for t in recent if t is not None) + WINDOW
    times = "once" if cap == 1 else f"{cap} times"
    message = (
        f"This number has already been called {times} in the last 24 hours. "
        f"It can be called again after {again:%Y-%m-%d %H:%M} UTC."
    )
    raise TooManyCallsToNumber(message, errors={"phone_number": [message]})
