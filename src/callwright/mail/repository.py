from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.models import EmailMessage


async def add(session: AsyncSession, message: EmailMessage) -> EmailMessage:
    session.add(message)
    await session.flush()
    return message


async def get(session: AsyncSession, message_id: int) -> EmailMessage | None:
    return await session.get(EmailMessage, message_id)


async def latest(
    session: AsyncSession, *, limit: int, offset: int = 0, to_address: str | None = None
) -> Sequence[EmailMessage]:
    query = select(EmailMessage).order_by(EmailMessage.id.desc()).limit(limit).offset(offset)
    if to_address:
        query = query.where(EmailMessage.to_address == to_address.lower())
    return (await session.scalars(query)).all()


async def count(session: AsyncSession, *, to_address: str | None = None) -> int:
    query = select(func.count()).select_from(EmailMessage)
    if to_address:
        query = query.where(EmailMessage.to_address == to_address.lower())
    return (await session.scalar(query)) or 0


async def pending_ids(session: AsyncSession) -> list[int]:
    query = (
        select(EmailMessage.id).where(EmailMessage.status == "pending").order_by(EmailMessage.id)
    )
    return list((await session.scalars(query)).all())
