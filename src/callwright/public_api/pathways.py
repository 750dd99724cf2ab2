"""`/v1/pathway` in Bland's dialect (docs/api.md, "Pathways"): a pathway is a Callwright flow
(docs/flows.md), its nodes and edges read and written by `pathway_graph`. Create, list, read,
update (the draft), delete, create a version (the nodes and edges become the draft and are
published as the next version, refused with each problem while the draft has any) and read a
version (0: the published one). The key's owner reaches only their own flows."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from callwright.developers.keys import ApiKeyCaller
from callwright.flows import repository as flows
from callwright.flows import service
from callwright.flows.schemas import DESCRIPTION_MAX, NAME_MAX
from callwright.kit.bounds import DB_INT_MAX, PageRequest, page_params
from callwright.kit.db import SessionDep
from callwright.kit.errors import NotFound, ValidationFailed
from callwright.kit.validation import Label
from callwright.models import Flow
from callwright.public_api.pathway_graph import read, write
from callwright.voice_agent.flow_graph import MAX_EDGES, MAX_NODES, FlowGraph, problems

router = APIRouter(prefix="/v1", tags=["Call API (v1)"])

PATHWAY_NOT_FOUND = "Pathway not found."
PathwayId = Annotated[str, Path(max_length=36)]
VersionNumber = Annotated[int, Path(ge=0, le=DB_INT_MAX)]
BlandNodes = list[dict[str, Any]]


class PathwayCreateIn(BaseModel):
    name: Annotated[Label, Field(max_length=NAME_MAX)]
    description: str | None = Field(None, max_length=DESCRIPTION_MAX)
    #: Callwright's: nodes and edges at once (Bland creates an empty pathway, then updates it).
    nodes: BlandNodes | None = Field(None, max_length=MAX_NODES)
    edges: BlandNodes | None = Field(None, max_length=MAX_EDGES)


class PathwayUpdateIn(BaseModel):
    name: Annotated[Label, Field(max_length=NAME_MAX)] | None = None
    description: str | None = Field(None, max_length=DESCRIPTION_MAX)
    nodes: BlandNodes | None = Field(None, max_length=MAX_NODES)
    edges: BlandNodes | None = Field(None, max_length=MAX_EDGES)


class PathwayVersionIn(BaseModel):
    name: str | None = Field(None, max_length=NAME_MAX)
    #: Required (checked once the pathway is known to be the caller's).
    nodes: BlandNodes | None = Field(None, max_length=MAX_NODES)
    edges: BlandNodes = Field(default_factory=list, max_length=MAX_EDGES)


class PathwayOut(BaseModel):
    pathway_id: str
    name: str
    description: str | None
    nodes: BlandNodes
    edges: BlandNodes
    #: Callwright's: the published version (null: none yet), what blocks publishing.
    published_version: int | None
    problems: list[str]
    created_at: datetime
    updated_at: datetime


class PathwayCreated(BaseModel):
    status: Literal["success"] = "success"
    pathway_id: str


class PathwayUpdated(BaseModel):
    status: Literal["success"] = "success"
    message: str = "Pathway updated successfully"
    pathway_data: PathwayOut


class PathwayDeleted(BaseModel):
    status: Literal["success"] = "success"
    message: str = "Pathway deleted successfully"


class PathwayVersionCreated(BaseModel):
    created_at: datetime
    id: str
    name: str
    version_number: int


class PathwayVersionCreatedOut(BaseModel):
    status: Literal["success"] = "success"
    message: str = "Version created successfully"
    data: PathwayVersionCreated


class PathwayVersionOut(BaseModel):
    name: str
    nodes: BlandNodes
    edges: BlandNodes
    version_number: int
    is_latest: bool


def pathway_out(flow: Flow) -> PathwayOut:
    graph = FlowGraph.model_validate(flow.draft)
    nodes, edges = write(graph)
    return PathwayOut(
        pathway_id=flow.id,
        name=flow.name,
        description=flow.description or None,
        nodes=nodes,
        edges=edges,
        published_version=flow.published_version,
        problems=[p.message for p in problems(graph)],
        created_at=flow.created_at,
        updated_at=flow.updated_at,
    )


async def _owned(session: SessionDep, caller: ApiKeyCaller, pathway_id: str) -> Flow:
    flow = await flows.owned(session, caller.user.id, pathway_id)
    if flow is None:
        raise NotFound(PATHWAY_NOT_FOUND)
    return flow


@router.get("/pathway")
async def list_pathways(
    caller: ApiKeyCaller, session: SessionDep, paging: Annotated[PageRequest, page_params(100)]
) -> list[PathwayOut]:
    """The key owner's pathways (flows), the most recently changed first."""
    rows, _total = await flows.page_for_user(
        session, caller.user.id, page=paging.page, per_page=paging.per_page
    )
    return [pathway_out(flow) for flow, _published in rows]


@router.post("/pathway/create")
async def create_pathway(
    body: PathwayCreateIn, caller: ApiKeyCaller, session: SessionDep
) -> PathwayCreated:
    """A new pathway: blank (one greeting), or from `nodes` and `edges`."""
    graph = read(body.nodes, body.edges or []) if body.nodes else None
    flow = await service.create(
        session, caller.user.id, name=body.name, description=body.description or "", graph=graph
    )
    return PathwayCreated(pathway_id=flow.id)


@router.get("/pathway/{pathway_id}")
async def get_pathway(
    pathway_id: PathwayId, caller: ApiKeyCaller, session: SessionDep
) -> PathwayOut:
    """The pathway's draft, as Bland's nodes and edges."""
    return pathway_out(await _owned(session, caller, pathway_id))


@router.post("/pathway/{pathway_id}")
async def update_pathway(
    pathway_id: PathwayId, body: PathwayUpdateIn, caller: ApiKeyCaller, session: SessionDep
) -> PathwayUpdated:
    """Saves what is given (name, description, nodes and edges) into the draft."""
    flow = await _owned(session, caller, pathway_id)
    draft = FlowGraph.model_validate(flow.draft)
    if body.nodes is not None:
        draft = read(body.nodes, body.edges or [], [v.model_dump() for v in draft.variables])
    description = flow.description if body.description is None else body.description.strip()
    flow = await service.update(
        session, flow, name=body.name or flow.name, description=description, draft=draft
    )
    return PathwayUpdated(pathway_data=pathway_out(flow))


@router.delete("/pathway/{pathway_id}")
async def delete_pathway(
    pathway_id: PathwayId, caller: ApiKeyCaller, session: SessionDep
) -> PathwayDeleted:
    await service.delete(session, await _owned(session, caller, pathway_id))
    return PathwayDeleted()


@router.post("/pathway/{pathway_id}/version")
async def create_pathway_version(
    pathway_id: PathwayId, body: PathwayVersionIn, caller: ApiKeyCaller, session: SessionDep
) -> PathwayVersionCreatedOut:
    """`nodes` and `edges` become the draft, published as the next version (a 400 with each
    problem under `draft` while there are any; the draft is then not changed)."""
    flow = await _owned(session, caller, pathway_id)
    if not body.nodes:
        raise ValidationFailed({"nodes": ["The nodes field is required."]})
    draft = FlowGraph.model_validate(flow.draft)
    graph = read(body.nodes, body.edges, [v.model_dump() for v in draft.variables])
    service.refuse_problems(graph)
    await service.update(session, flow, name=flow.name, description=flow.description, draft=graph)
    flow = await service.publish(session, caller.user.id, flow.id)
    number = flow.published_version or 0
    version = await service.version(session, flow, number)
    created = PathwayVersionCreated(
        created_at=version.published_at,
        id=str(number),
        name=body.name or flow.name,
        version_number=number,
    )
    return PathwayVersionCreatedOut(data=created)


@router.get("/pathway/{pathway_id}/version/{version_id}")
async def get_pathway_version(
    pathway_id: PathwayId, version_id: VersionNumber, caller: ApiKeyCaller, session: SessionDep
) -> PathwayVersionOut:
    """A published version (0: the one calls run by default)."""
    flow = await _owned(session, caller, pathway_id)
    number = flow.published_version if version_id == 0 else version_id
    if number is None:
        raise NotFound("This pathway has no published version yet.")
    version = await service.version(session, flow, number)
    nodes, edges = write(FlowGraph.model_validate(version.graph))
    return PathwayVersionOut(
        name=flow.name,
        nodes=nodes,
        edges=edges,
        version_number=version.version,
        is_latest=version.version == await flows.newest_version(session, flow.id),
    )
