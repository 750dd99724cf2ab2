"""The signed-in user's saved agents: list, create, read, replace, delete. A user reaches only
their own agents (another user's id answers 404)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from callwright.agents import repository as agents
from callwright.agents import service
from callwright.agents.schemas import (
    AgentDeleted,
    AgentIn,
    AgentOut,
    AgentResponse,
    AgentSaved,
    AgentsPage,
    AgentSummary,
    AgentVersionOut,
    AgentVersionsPage,
    DerivedFlow,
    DerivedFlowResponse,
)
from callwright.agents.settings import CALL_SETTINGS
from callwright.agents.variables import placeholders
from callwright.auth.deps import CurrentUser
from callwright.config import Settings
from callwright.developers import service as developers
from callwright.developers.ssrf import private_targets
from callwright.flows import service as flows
from callwright.flows.endpoints import flow_out
from callwright.flows.schemas import DESCRIPTION_MAX, FlowSaved
from callwright.kit.bounds import PageRequest, page_params
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.models import Agent

router = APIRouter(tags=["agents"])

AgentId = Annotated[str, Path(max_length=36)]


def _fields(agent: Agent) -> dict[str, Any]:
    return {
        name: getattr(agent, name)
        for name in ("id", "name", "voice", "language", "created_at", "updated_at")
    } | {
        "variables": placeholders(
            agent.prompt, agent.first_sentence, agent.voicemail_message, agent.disclosure
        )
    }


def agent_out(agent: Agent) -> AgentOut:
    settings = {name: getattr(agent, name) for name in CALL_SETTINGS}
    settings["dispositions"] = agent.dispositions or []
    settings["analysis_schema"] = agent.analysis_schema or []
    settings["flow_id"] = agent.flow_id
    return AgentOut.model_validate(_fields(agent) | settings)


@router.get("/agents")
async def list_agents(
    user: CurrentUser, session: SessionDep, paging: Annotated[PageRequest, page_params(20)]
) -> AgentsPage:
    """The user's agents, the most recently changed first."""
    rows, total = await agents.page_for_user(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return AgentsPage(
        data=[AgentSummary.model_validate(_fields(a)) for a in rows],
        pagination=paging.pagination(total),
    )


@router.post("/agents", status_code=201)
async def create_agent(
    body: AgentIn, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> AgentSaved:
    """A new agent. A `webhook_url` on a private address is refused (422) where this server
    refuses those, else `notice` says it is private."""
    notice = await _webhook_notice(body, settings)
    agent = await service.create(session, user.id, body.model_dump())
    return AgentSaved(message="Agent created successfully", data=agent_out(agent), notice=notice)


async def _webhook_notice(body: AgentIn, settings: Settings) -> str | None:
    if not body.webhook_url:
        return None
    return await developers.url_notice(body.webhook_url, private_targets(settings), "webhook_url")


@router.get("/agents/{agent_id}")
async def get_agent(agent_id: AgentId, user: CurrentUser, session: SessionDep) -> AgentResponse:
    return AgentResponse(data=agent_out(await service.owned(session, user.id, agent_id)))


@router.put("/agents/{agent_id}")
async def update_agent(
    agent_id: AgentId, body: AgentIn, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> AgentSaved:
    agent = await service.owned(session, user.id, agent_id)
    notice = await _webhook_notice(body, settings)
    agent = await service.update(session, agent, body.model_dump())
    return AgentSaved(message="Agent updated successfully", data=agent_out(agent), notice=notice)


@router.get("/agents/{agent_id}/versions")
async def list_versions(
    agent_id: AgentId,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> AgentVersionsPage:
    """The agent's versions, the newest first: every save that changed its settings is one
    (docs/lab.md, "Versions")."""
    agent = await service.owned(session, user.id, agent_id)
    await service.current_version(session, agent)  # an agent saved before versions were kept
    rows, total = await agents.versions_page(
        session, agent.id, page=paging.page, per_page=paging.per_page
    )
    return AgentVersionsPage(
        data=[
            AgentVersionOut(
                version=v.version,
                created_at=v.created_at,
                settings=service.shown_settings(v.settings),
            )
            for v in rows
        ],
        pagination=paging.pagination(total),
    )


@router.delete("/agents/{agent_id}")
async def delete_agent(agent_id: AgentId, user: CurrentUser, session: SessionDep) -> AgentDeleted:
    await service.delete(session, await service.owned(session, user.id, agent_id))
    return AgentDeleted(message="Agent deleted successfully")


@router.get("/agents/{agent_id}/derived-flow")
async def get_derived_flow(
    agent_id: AgentId, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> DerivedFlowResponse:
    """The flow the offline brain follows for the agent's prompt (docs/flows.md, "The prompt
    agent as a flow"). `offline` is true when no LLM is configured: then this is what the
    agent's calls really do."""
    agent = await service.owned(session, user.id, agent_id)
    graph = service.derived_graph(agent)
    return DerivedFlowResponse(data=DerivedFlow(graph=graph, offline=not settings.llm_base_url))


@router.post("/agents/{agent_id}/derived-flow", status_code=201)
async def edit_derived_flow(agent_id: AgentId, user: CurrentUser, session: SessionDep) -> FlowSaved:
    """ "Edit as flow": a new flow of the user's, "<agent name> (from prompt)", whose draft is
    the derived flow. The agent keeps its prompt until the flow is published and picked."""
    agent = await service.owned(session, user.id, agent_id)
    flow = await flows.create(
        session,
        user.id,
        name=service.derived_flow_name(agent),
        description=f"Made from the prompt of the agent '{agent.name}'"[:DESCRIPTION_MAX],
        graph=service.derived_graph(agent),
    )
    return FlowSaved(message="Flow created from the prompt", data=flow_out(flow, None))
