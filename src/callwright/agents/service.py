"""Saved agents: the rules (owner only, a cap per user). A call's order from one is built by
`calls.builder`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import repository as agents
from callwright.kit.errors import AppError, NotFound
from callwright.models import Agent

#: The most agents one user may keep.
AGENTS_MAX = 100


class TooManyAgents(AppError):
    status_code = 422

    def __init__(self) -> None:
        super().__init__(
            f"You can keep at most {AGENTS_MAX} agents. Delete one you no longer use to add "
            "another."
        )


async def owned(session: AsyncSession, user_id: int, agent_id: str) -> Agent:
    """The user's agent (another user's, or none, is 404)."""
    agent = await agents.owned(session, user_id, agent_id)
    if agent is None:
        raise NotFound("Agent not found.")
    return agent


async def create(session: AsyncSession, user_id: int, fields: Mapping[str, Any]) -> Agent:
    if await agents.count_for_user(session, user_id) >= AGENTS_MAX:
        raise TooManyAgents()
    return await agents.add(session, Agent(user_id=user_id, **fields))


async def update(session: AsyncSession, agent: Agent, fields: Mapping[str, Any]) -> Agent:
    for name, value in fields.items():
        setattr(agent, name, value)
    await session.flush()
    await session.refresh(agent)
    return agent


async def delete(session: AsyncSession, agent: Agent) -> None:
    await agents.delete(session, agent)
