from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import EmailMessage


async def add(session: AsyncSession, message: EmailMessage) -> EmailMessage:
    session.add(message)
    await session.flush()
    return message


async def get(session: AsyncSession, message_id: int) -> EmailMessage | None:
    return await session.get(EmailMessage, message_id)


def _newest_first(to_address: str | None) -> Select[EmailMessage]:
    """Every message (only those to `to_address` when given), newest first."""
    query = select(EmailMessage).order_by(EmailMessage.id.desc())
    if to_address:
        query = query.where(EmailMessage.to_address == to_address.lower())
    return query


async def latest(
    session: AsyncSession, *, limit: int, to_address: str | None = None
) -> Sequence[EmailMessage]:
    return (await session.scalars(_newest_first(to_address).limit(limit))).all()


async def outbox_page(
    session: AsyncSession, *, to_address: str | None, page: int, per_page: int
) -> tuple[Sequence[EmailMessage], int]:
    """The outbox, newest first (only the messages to `to_address` when given)."""
    return await paged(session, _newest_first(to_address), page=page, per_page=per_page)


async def pending_ids(session: AsyncSession) -> list[int]:
    query = (
        select(EmailMessage.id).where(EmailMessage.status == "pending").order_by(EmailMessage.id)
    )
    return list((await session.scalars(query)).all())
