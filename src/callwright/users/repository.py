from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.db import unique_violation
from callwright.models import User

#: How the database names the rules that keep an e-mail address to one account (the column's
#: unique constraint and the case-insensitive index; SQLite names a column `table.column`).
EMAIL_UNIQUES = frozenset({"uq_users_email", "uq_users_email_lower", "users.email"})


class EmailTaken(Exception):
    """Another account has this e-mail address (found by the database: a concurrent request
    may have taken it after the caller looked). The unit of work must be rolled back."""


async def get(session: AsyncSession, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def by_email(session: AsyncSession, email: str) -> User | None:
    return await session.scalar(select(User).where(func.lower(User.email) == email.lower()))


async def by_google_sub(session: AsyncSession, sub: str) -> User | None:
    return await session.scalar(select(User).where(User.google_sub == sub))


async def add(session: AsyncSession, user: User) -> User:
    session.add(user)
    await flush(session)
    return user


async def flush(session: AsyncSession) -> None:
    """Write pending user changes; EmailTaken when the database refuses the address."""
    try:
        await session.flush()
    except IntegrityError as exc:
        if unique_violation(exc) in EMAIL_UNIQUES:
            raise EmailTaken from exc
        raise
