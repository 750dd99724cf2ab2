"""Queries for saved agents (always within one owner)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import Agent, AgentTool, AgentVersion


async def page_for_user(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[Agent], int]:
    """The user's agents, the most recently changed first."""
    query = (
        select(Agent)
        .where(Agent.user_id == user_id)
        .order_by(Agent.updated_at.desc(), Agent.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def count_for_user(session: AsyncSession, user_id: int) -> int:
    total = await session.scalar(
        select(func.count()).select_from(Agent).where(Agent.user_id == user_id)
    )
    return int(total or 0)


async def owned(session: AsyncSession, user_id: int, agent_id: str) -> Agent | None:
    return await session.scalar(select(Agent).where(Agent.id == agent_id, Agent.user_id == user_id))


async def add(session: AsyncSession, agent: Agent) -> Agent:
    session.add(agent)
    await session.flush()
    return agent


async def delete(session: AsyncSession, agent: Agent) -> None:
    await session.delete(agent)
    await session.flush()


async def tools(session: AsyncSession, agent_id: str) -> Sequence[AgentTool]:
    """The agent's custom tools, in the order they were added."""
    rows = await session.scalars(
        select(AgentTool).where(AgentTool.agent_id == agent_id).order_by(AgentTool.id)
    )
    return rows.all()


async def tool(session: AsyncSession, agent_id: str, tool_id: int) -> AgentTool | None:
    return await session.scalar(
        select(AgentTool).where(AgentTool.id == tool_id, AgentTool.agent_id == agent_id)
    )


async def add_tool(session: AsyncSession, tool: AgentTool) -> AgentTool:
    session.add(tool)
    await session.flush()
    await session.refresh(tool)
    return tool


async def delete_tool(session: AsyncSession, tool: AgentTool) -> None:
    await session.delete(tool)
    await session.flush()


async def latest_version(session: AsyncSession, agent_id: str) -> AgentVersion | None:
    """The agent's newest version (None: none kept yet)."""
    return await session.scalar(
        select(AgentVersion)
        .where(AgentVersion.agent_id == agent_id)
        .order_by(AgentVersion.version.desc())
        .limit(1)
    )


async def versions_page(
    session: AsyncSession, agent_id: str, *, page: int, per_page: int
) -> tuple[Sequence[AgentVersion], int]:
    """The agent's versions, the newest first."""
    query = (
        select(AgentVersion)
        .where(AgentVersion.agent_id == agent_id)
        .order_by(AgentVersion.version.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)
