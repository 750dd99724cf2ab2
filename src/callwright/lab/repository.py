"""The agent lab's queries (docs/lab.md): a suite's scenarios (an agent's, or a flow's on its
own: `agent_id` None and `flow_id` given), its runs and their results."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import LabResult, LabRun, LabScenario, User


def _suite(
    model: type[LabScenario] | type[LabRun], agent_id: str | None, flow_id: str | None
) -> ColumnElement[bool]:
    """An agent's rows, or (no agent) the flow's own suite's."""
    if agent_id is not None:
        return model.agent_id == agent_id
    return and_(model.agent_id.is_(None), model.flow_id == flow_id)


async def scenarios(
    session: AsyncSession, agent_id: str | None, flow_id: str | None = None
) -> list[LabScenario]:
    """The suite's scenarios, in the order they were added."""
    return list(
        await session.scalars(
            select(LabScenario)
            .where(_suite(LabScenario, agent_id, flow_id))
            .order_by(LabScenario.created_at, LabScenario.id)
        )
    )


async def scenario_count(
    session: AsyncSession, agent_id: str | None, flow_id: str | None = None
) -> int:
    count = await session.scalar(
        select(func.count(LabScenario.id)).where(_suite(LabScenario, agent_id, flow_id))
    )
    return int(count or 0)


async def runs_page(
    session: AsyncSession,
    agent_id: str | None,
    flow_id: str | None = None,
    *,
    page: int,
    per_page: int,
) -> tuple[Sequence[LabRun], int]:
    """The suite's runs, the newest first."""
    query = (
        select(LabRun)
        .where(_suite(LabRun, agent_id, flow_id))
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


async def lock_user(session: AsyncSession, user_id: int) -> None:
    """The user's row locked (`FOR UPDATE`, on PostgreSQL) until the transaction ends."""
    await session.scalar(select(User.id).where(User.id == user_id).with_for_update())
