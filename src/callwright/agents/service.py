"""Saved agents: the rules (owner only, a cap per user). A call's order from one is built by
`calls.builder`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import repository as agents
from callwright.agents import tools as agent_tools
from callwright.compliance import disclosure
from callwright.flows.schemas import NAME_MAX
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.models import Agent, AgentVersion
from callwright.voice_agent.derived_flow import TooManyQuestions, derived_flow
from callwright.voice_agent.flow_graph import FlowGraph
from callwright.voice_agent.policy import OfflinePolicy

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


#: An agent's columns that are not its settings (what a version keeps is the rest).
_NOT_SETTINGS = frozenset({"id", "user_id", "created_at", "updated_at"})


#: A version's key for the agent's custom tools, as calls keep them (header values sealed);
#: left out when it has none, so the versions of an agent without tools are its columns alone.
TOOLS_KEY = "tools"


def settings_of(agent: Agent) -> dict[str, Any]:
    """The agent's columns as a version keeps them: every column but its id, owner and times."""
    return {
        column.key: getattr(agent, column.key)
        for column in Agent.__table__.columns
        if column.key not in _NOT_SETTINGS
    }


async def version_settings(session: AsyncSession, agent: Agent) -> dict[str, Any]:
    """What a version of the agent keeps: its columns, and its custom tools (`TOOLS_KEY`)."""
    settings = settings_of(agent)
    rows = await agents.tools(session, agent.id)
    if rows:
        settings[TOOLS_KEY] = [agent_tools.stored(tool) for tool in rows]
    return settings


def shown_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A version's settings as the API shows them: its tools' headers by name only (their
    values are secrets, sealed in the version, never shown)."""
    if TOOLS_KEY not in settings:
        return dict(settings)
    tools = [{**tool, "headers": sorted(tool.get("headers", {}))} for tool in settings[TOOLS_KEY]]
    return {**settings, TOOLS_KEY: tools}


async def current_version(session: AsyncSession, agent: Agent) -> AgentVersion:
    """The agent's version for its settings now (its custom tools too): the newest kept when
    they are the same, else a new one numbered after it (an agent saved before versions were
    kept gets its first)."""
    settings = await version_settings(session, agent)
    latest = await agents.latest_version(session, agent.id)
    if latest is not None and latest.settings == settings:
        return latest
    version = AgentVersion(
        agent_id=agent.id, version=(latest.version + 1) if latest else 1, settings=settings
    )
    session.add(version)
    await session.flush()
    return version


async def create(session: AsyncSession, user_id: int, fields: Mapping[str, Any]) -> Agent:
    if await agents.count_for_user(session, user_id) >= AGENTS_MAX:
        raise TooManyAgents()
    agent = await agents.add(session, Agent(user_id=user_id, **fields))
    await current_version(session, agent)
    return agent


async def update(session: AsyncSession, agent: Agent, fields: Mapping[str, Any]) -> Agent:
    """Saves the changed settings; a change is the agent's next version."""
    for name, value in fields.items():
        setattr(agent, name, value)
    await session.flush()
    await session.refresh(agent)
    await current_version(session, agent)
    return agent


async def delete(session: AsyncSession, agent: Agent) -> None:
    await agents.delete(session, agent)


def derived_graph(agent: Agent) -> FlowGraph:
    """The flow the offline brain follows for the agent's prompt (voice_agent.derived_flow),
    with the agent's first sentence, disclosure, voicemail message and transfer settings, as
    its calls give them to the policy. A prompt with more questions than a flow holds: 422
    naming `prompt`."""
    departments = tuple(agent.transfer_list or {})
    policy = OfflinePolicy(
        agent.prompt,
        first_sentence=agent.first_sentence or None,
        voicemail_text=agent.voicemail_message or None,
        disclosure=disclosure.spoken(agent.disclosure),
        can_transfer=bool(agent.transfer_number or departments),
        departments=departments,
    )
    try:
        return derived_flow(
            policy,
            leave_voicemail=agent.voicemail_action != "hangup",
            transfer_mode=agent.transfer_mode or "cold",
        )
    except TooManyQuestions as exc:
        raise ValidationFailed({"prompt": [str(exc)]}) from None


def derived_flow_name(agent: Agent) -> str:
    """The name of the flow "Edit as flow" makes: "<agent name> (from prompt)", cut to fit."""
    suffix = " (from prompt)"
    return agent.name[: NAME_MAX - len(suffix)].rstrip() + suffix
