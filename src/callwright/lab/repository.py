"""The agent lab's queries (docs/lab.md): an agent's scenarios, its runs and their results."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import LabResult, LabRun, LabScenario


async def scenarios(session: AsyncSession, agent_id: str) -> list[LabScenario]:
    """The agent's suite, in the order the scenarios were added."""
    return list(
        await session.scalars(
            select(LabScenario)
            .where(LabScenario.agent_id == agent_id)
            .order_by(LabScenario.created_at, LabScenario.id)
        )
    )


async def scenario_count(session: AsyncSession, agent_id: str) -> int:
    count = await session.scalar(
        select(func.count(LabScenario.id)).where(LabScenario.agent_id == agent_id)
    )
    return int(count or 0)


async def runs_page(
    session: AsyncSession, agent_id: str, *, page: int, per_page: int
) -> tuple[Sequence[LabRun], int]:
    """The agent's runs, the newest first."""
    query = (
        select(LabRun)
        .where(LabRun.agent_id == agent_id)
        .order_by(LabRun.created_at.desc(), LabRun.id)
    )
    return await paged(session, query, page=page, per_page=per_page)


async def results(session: AsyncSession, run_id: str, status: str | None = None) -> list[LabResult]:
    """The run's results in the suite's order (only those in `status`, when given)."""
    query = select(LabResult).where(LabResult.run_id == run_id)
    if status is not None:
        query = query.where(LabResult.status == status)
    return list(await session.scalars(query.order_by(LabResult.position)))


async def calls_since(session: AsyncSession, user_id: int, since: datetime) -> int:
    """The lab calls the user's runs started since `since` placed (one per result)."""
    count = await session.scalar(
        select(func.count(LabResult.id))
        .join(LabRun, LabRun.id == LabResult.run_id)
        .where(LabRun.user_id == user_id, LabRun.created_at >= since)
    )
    return int(count or 0)
