"""An agent's custom tools (docs/actions.md, Tools): list, add, replace, delete, and test one
against its endpoint with sample arguments. Header values are write-only: kept sealed, never
answered; a replacement that leaves a header's value out keeps the value kept."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from callwright.agents import repository as agents
from callwright.agents import service, tools
from callwright.agents.tools import (
    ToolDeleted,
    ToolIn,
    ToolList,
    ToolSaved,
    ToolTestIn,
    ToolTestOut,
    ToolTestResponse,
)
from callwright.auth.deps import CurrentUser
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.voice_agent.tool_runner import Reach, call_tool

router = APIRouter(tags=["agents"])

AgentId = Annotated[str, Path(max_length=36)]
ToolId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/agents/{agent_id}/tools")
async def list_tools(agent_id: AgentId, user: CurrentUser, session: SessionDep) -> ToolList:
    """The agent's tools, in the order they were added."""
    agent = await service.owned(session, user.id, agent_id)
    return ToolList(data=[tools.tool_out(t) for t in await agents.tools(session, agent.id)])


@router.post("/agents/{agent_id}/tools", status_code=201)
async def add_tool(
    agent_id: AgentId, body: ToolIn, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> ToolSaved:
    agent = await service.owned(session, user.id, agent_id)
    tool = await tools.save(session, agent, body, settings.secret_key)
    await service.current_version(session, agent)  # its tools are part of a version
    return ToolSaved(message="Tool added", data=tools.tool_out(tool))


@router.put("/agents/{agent_id}/tools/{tool_id}")
async def replace_tool(
    agent_id: AgentId,
    tool_id: ToolId,
    body: ToolIn,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
) -> ToolSaved:
    agent = await service.owned(session, user.id, agent_id)
    tool = await tools.owned_tool(session, agent, tool_id)
    tool = await tools.save(session, agent, body, settings.secret_key, tool)
    await service.current_version(session, agent)
    return ToolSaved(message="Tool saved", data=tools.tool_out(tool))


@router.delete("/agents/{agent_id}/tools/{tool_id}")
async def delete_tool(
    agent_id: AgentId, tool_id: ToolId, user: CurrentUser, session: SessionDep
) -> ToolDeleted:
    agent = await service.owned(session, user.id, agent_id)
    await agents.delete_tool(session, await tools.owned_tool(session, agent, tool_id))
    await service.current_version(session, agent)
    return ToolDeleted(message="Tool deleted")


@router.post("/agents/{agent_id}/tools/{tool_id}/test")
async def test_tool(
    agent_id: AgentId,
    tool_id: ToolId,
    body: ToolTestIn,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
) -> ToolTestResponse:
    """Call the tool's endpoint with sample arguments, as a call would (the same runner, the
    same request-forgery rules, its timeout), and show what it answered."""
    agent = await service.owned(session, user.id, agent_id)
    tool = await tools.owned_tool(session, agent, tool_id)
    tools.checked_arguments(tool.parameters, body.arguments)
    spec = tools.spec(tools.stored(tool), settings.secret_key)
    answer = await call_tool(spec, body.arguments, body.variables, Reach.of(settings))
    return ToolTestResponse(
        data=ToolTestOut(
            status=answer.status,
            status_code=answer.status_code,
            latency_ms=answer.latency_ms,
            excerpt=answer.excerpt,
            error=answer.error,
        )
    )
