from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.models import User


async def get(session: AsyncSession, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def by_email(session: AsyncSession, email: str) -> User | None:
    return await session.scalar(select(User).where(func.lower(User.email) == email.lower()))


async def by_google_sub(session: AsyncSession, sub: str) -> User | None:
    return await session.scalar(select(User).where(User.google_sub == sub))


async def add(session: AsyncSession, user: User) -> User:
    session.add(user)
    await session.flush()
    return user
