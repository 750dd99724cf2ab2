"""Flows: the rules (owner only, a cap per user, publishing only a draft without problems, each
publish a new numbered version). docs/flows.md."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.flows import repository as flows
from callwright.flows.schemas import STARTER_KEYS, FlowExport
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.models import Flow, FlowVersion
from callwright.voice_agent.flow_graph import FlowGraph, SayNode, problems

#: The most flows one user may keep.
FLOWS_MAX = 200
NOT_FOUND = "Flow not found."
VERSION_NOT_FOUND = "Flow version not found."
PUBLISHED_MEANWHILE = "The flow was published at the same moment. Reload it and publish again."
#: What a new flow without a starter or a graph holds.
BLANK = FlowGraph(
    start_node_id="start",
    nodes=[SayNode(id="start", kind="say", name="Greeting", text="Hello!")],
)


class TooManyFlows(AppError):
    status_code = 422

    def __init__(self) -> None:
        super().__init__(
            f"You can keep at most {FLOWS_MAX} flows. Delete one you no longer use to add another."
        )


def stored(graph: FlowGraph) -> dict[str, Any]:
    """A graph as the database keeps it (plain JSON, every default written out)."""
    return graph.model_dump(mode="json")


@cache
def starters() -> dict[str, FlowExport]:
    """The starter flows by key (each a `callwright-flow/1` file in flows/starters/)."""
    folder = resources.files("callwright.flows") / "starters"
    return {
        key: FlowExport.model_validate(json.loads((folder / f"{key}.json").read_text()))
        for key in STARTER_KEYS
    }


async def owned(session: AsyncSession, user_id: int, flow_id: str) -> Flow:
    """The user's flow (another user's, or none, is 404)."""
    flow = await flows.owned(session, user_id, flow_id)
    if flow is None:
        raise NotFound(NOT_FOUND)
    return flow


async def create(
    session: AsyncSession,
    user_id: int,
    *,
    name: str,
    description: str,
    graph: FlowGraph | None = None,
    starter: str | None = None,
) -> Flow:
    """A new flow whose draft is `graph`, the starter `starter`'s, or the blank one."""
    if await flows.count_for_user(session, user_id) >= FLOWS_MAX:
        raise TooManyFlows()
    draft = graph or (starters()[starter].graph if starter else BLANK)
    flow = Flow(user_id=user_id, name=name, description=description, draft=stored(draft))
    await flows.add(session, flow)
    return flow


async def update(
    session: AsyncSession, flow: Flow, *, name: str, description: str, draft: FlowGraph
) -> Flow:
    flow.name, flow.description, flow.draft = name, description, stored(draft)
    await session.flush()
    await session.refresh(flow)
    return flow


def refusal(found: int) -> str:
    return f"Fix {found} problem{'s' if found != 1 else ''} before publishing"


def refuse_problems(graph: FlowGraph) -> None:
    """422 (400 under `/v1`) with each problem under `draft`, when `graph` has any."""
    found = problems(graph)
    if found:
        raise ValidationFailed({"draft": [p.message for p in found]}, refusal(len(found)))


async def publish(session: AsyncSession, user_id: int, flow_id: str) -> Flow:
    """The draft copied into a new version (the newest + 1), which becomes the published one;
    refused (422, each problem under `draft`) while the draft has problems."""
    flow = await flows.owned(session, user_id, flow_id, for_update=True)
    if flow is None:
        raise NotFound(NOT_FOUND)
    refuse_problems(FlowGraph.model_validate(flow.draft))
    number = await flows.newest_version(session, flow.id) + 1
    row = FlowVersion(flow_id=flow.id, version=number, graph=flow.draft)
    if not await flows.add_version(session, row):
        raise AppError(PUBLISHED_MEANWHILE, 409)
    flow.published_version = number
    await session.flush()
    await session.refresh(flow)
    return flow


async def version(session: AsyncSession, flow: Flow, number: int) -> FlowVersion:
    found = await flows.version(session, flow.id, number)
    if found is None:
        raise NotFound(VERSION_NOT_FOUND)
    return found


async def published_graph(session: AsyncSession, flow: Flow) -> dict[str, Any] | None:
    """The published version's graph as stored (None before the first publish)."""
    if flow.published_version is None:
        return None
    found = await flows.version(session, flow.id, flow.published_version)
    return None if found is None else found.graph


async def delete(session: AsyncSession, flow: Flow) -> None:
    await flows.delete(session, flow)
