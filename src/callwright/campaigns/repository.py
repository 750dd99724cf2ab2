"""Every campaign query: the user's campaigns, the dialler's (the active ones, one locked for a
tick, its due contacts), their contacts (loaded, listed, counted, exported) and their calls (listed,
counted, what they cost)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Text, cast, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import Call, Campaign, CampaignContact

# Campaigns


async def campaign_of(session: AsyncSession, user_id: int, campaign_id: str) -> Campaign | None:
    """The user's campaign with this id."""
    found: Campaign | None = await session.scalar(
        select(Campaign).where(Campaign.id == campaign_id, Campaign.user_id == user_id)
    )
    return found


async def campaigns_page(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[Campaign], int]:
    """The user's campaigns, newest first."""
    query = select(Campaign).where(Campaign.user_id == user_id)
    ordered = query.order_by(Campaign.created_at.desc(), Campaign.id)
    return await paged(session, ordered, page=page, per_page=per_page)


async def newest(session: AsyncSession, user_id: int, limit: int) -> Sequence[Campaign]:
    """The user's latest `limit` campaigns, newest first."""
    found = await session.scalars(
        select(Campaign)
        .where(Campaign.user_id == user_id)
        .order_by(Campaign.created_at.desc(), Campaign.id)
        .limit(limit)
    )
    return found.all()


async def active_ids(session: AsyncSession) -> list[str]:
    """The campaigns that may dial: scheduled or running."""
    ids = await session.scalars(
        select(Campaign.id).where(Campaign.state.in_(("scheduled", "running")))
    )
    return list(ids)


async def locked(session: AsyncSession, campaign_id: str) -> Campaign | None:
    """The campaign, its row locked (`FOR UPDATE`) until the transaction ends."""
    found: Campaign | None = await session.scalar(
        select(Campaign).where(Campaign.id == campaign_id).with_for_update()
    )
    return found


# Calls


async def first_calls(session: AsyncSession, campaign_id: str, limit: int) -> Sequence[Call]:
    """The campaign's first `limit` calls, oldest first."""
    found = await session.scalars(
        select(Call)
        .where(Call.campaign_id == campaign_id)
        .order_by(Call.created_at, Call.id)
        .limit(limit)
    )
    return found.all()


async def call_count(session: AsyncSession, campaign_id: str) -> int:
    found = await session.scalar(select(func.count()).where(Call.campaign_id == campaign_id))
    return int(found or 0)


async def queued_since(session: AsyncSession, campaign_id: str, since: datetime) -> int:
    """How many of the campaign's calls were queued after `since`."""
    found = await session.scalar(
        select(func.count()).where(Call.campaign_id == campaign_id, Call.queued_at > since)
    )
    return int(found or 0)


async def spent_cents(session: AsyncSession, campaign_id: str) -> int:
    """What the campaign's calls were charged, and hold while in progress."""
    spent = await session.scalar(
        select(func.coalesce(func.sum(func.coalesce(Call.cost_cents, Call.hold_cents)), 0)).where(
            Call.campaign_id == campaign_id
        )
    )
    return int(spent or 0)


async def analyses(session: AsyncSession, call_ids: Sequence[str]) -> list[tuple[str, str]]:
    """(call id, analysis JSON) of those of these calls that have an analysis."""
    if not call_ids:
        return []
    rows = await session.execute(
        select(Call.id, Call.analysis).where(Call.id.in_(call_ids), Call.analysis.is_not(None))
    )
    return [(call_id, text) for call_id, text in rows if text]


# Contacts


async def delete_contacts(session: AsyncSession, campaign_id: str) -> None:
    await session.execute(delete(CampaignContact).where(CampaignContact.campaign_id == campaign_id))


async def add_contacts(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """One multi-row statement (no objects, no ids read back): added as ORM objects, SQLite
    inserted them one statement a row, 16x slower end to end."""
    await session.execute(insert(CampaignContact), rows)


async def set_contact_settings(
    session: AsyncSession, campaign_id: str, by_row: dict[int, dict[str, Any]]
) -> None:
    """Give the contacts of these file rows their own call settings (a batch row's actions)."""
    for file_row, settings in by_row.items():
        await session.execute(
            update(CampaignContact)
            .where(CampaignContact.campaign_id == campaign_id, CampaignContact.file_row == file_row)
            .values(call_settings=settings)
        )


async def has_contacts(session: AsyncSession, campaign_id: str) -> bool:
    found = await session.scalar(
        select(CampaignContact.id).where(CampaignContact.campaign_id == campaign_id).limit(1)
    )
    return found is not None


async def due_contacts(
    session: AsyncSession, campaign_id: str, now: datetime, limit: int
) -> Sequence[CampaignContact]:
    """Up to `limit` of the campaign's pending contacts due by `now`: those never tried first,
    then by when they are due."""
    found = await session.scalars(
        select(CampaignContact)
        .where(
            CampaignContact.campaign_id == campaign_id,
            CampaignContact.status == "pending",
            (CampaignContact.next_attempt_at.is_(None)) | (CampaignContact.next_attempt_at <= now),
        )
        .order_by(
            CampaignContact.next_attempt_at.is_not(None),
            CampaignContact.next_attempt_at,
            CampaignContact.id,
        )
        .limit(limit)
    )
    return found.all()


async def contacts_in(
    session: AsyncSession, campaign_id: str, status: str
) -> Sequence[CampaignContact]:
    """The campaign's contacts in `status`."""
    found = await session.scalars(
        select(CampaignContact).where(
            CampaignContact.campaign_id == campaign_id, CampaignContact.status == status
        )
    )
    return found.all()


async def count(session: AsyncSession, campaign_id: str, *statuses: str) -> int:
    """The campaign's contacts in any of `statuses`."""
    found = await session.scalar(
        select(func.count()).where(
            CampaignContact.campaign_id == campaign_id, CampaignContact.status.in_(statuses)
        )
    )
    return int(found or 0)


async def status_counts(
    session: AsyncSession, campaign_id: str
) -> list[tuple[str, str | None, int]]:
    """(status, last outcome, contacts) of the campaign's contacts."""
    rows = await session.execute(
        select(CampaignContact.status, CampaignContact.outcome, func.count())
        .where(CampaignContact.campaign_id == campaign_id)
        .group_by(CampaignContact.status, CampaignContact.outcome)
    )
    return [(status, outcome, int(n)) for status, outcome, n in rows]


async def zone_groups(
    session: AsyncSession, campaign_id: str, most: int
) -> list[tuple[str | None, int]]:
    """The contacts still to call, counted by the zones they are called in (the `most`
    biggest groups)."""
    rows = await session.execute(
        select(CampaignContact.timezone, func.count())
        .where(
            CampaignContact.campaign_id == campaign_id,
            CampaignContact.status.in_(("pending", "calling")),
        )
        .group_by(CampaignContact.timezone)
        .order_by(func.count().desc())
        .limit(most)
    )
    return [(str(names) if names else None, int(n)) for names, n in rows]


async def contacts_page(
    session: AsyncSession,
    campaign_id: str,
    *,
    status: str | None,
    outcome: str | None,
    search: str,
    page: int,
    per_page: int,
) -> tuple[Sequence[CampaignContact], int]:
    """The campaign's contacts in file order, by status or last outcome, the number's digits or
    a variable's text containing `search`."""
    query = select(CampaignContact).where(CampaignContact.campaign_id == campaign_id)
    if status:
        query = query.where(CampaignContact.status == status)
    if outcome:
        query = query.where(CampaignContact.outcome == outcome)
    if search.strip():
        needle = f"%{search.strip()}%"
        query = query.where(
            or_(
                CampaignContact.phone.like(needle),
                cast(CampaignContact.variables, Text).like(needle),
            )
        )
    ordered = query.order_by(CampaignContact.file_row)
    return await paged(session, ordered, page=page, per_page=per_page)


async def contacts_after(
    session: AsyncSession, campaign_id: str, after: int, limit: int
) -> Sequence[CampaignContact]:
    """Up to `limit` of the campaign's contacts whose id comes after `after`, by id."""
    found = await session.scalars(
        select(CampaignContact)
        .where(CampaignContact.campaign_id == campaign_id, CampaignContact.id > after)
        .order_by(CampaignContact.id)
        .limit(limit)
    )
    return found.all()
