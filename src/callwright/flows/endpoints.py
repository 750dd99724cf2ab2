"""The signed-in user's conversation flows (docs/flows.md): list, create (blank, from a starter,
from a graph, or imported from a file), read, save the draft, publish, versions, export, delete.
A user reaches only their own flows (another user's id answers 404)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse

from callwright.auth.deps import CurrentUser
from callwright.flows import repository as flows
from callwright.flows import service
from callwright.flows.schemas import (
    FlowCreate,
    FlowDeleted,
    FlowExport,
    FlowId,
    FlowOut,
    FlowResponse,
    FlowSaved,
    FlowsPage,
    FlowStarter,
    FlowStarters,
    FlowSummary,
    FlowUpdate,
    FlowVersionOut,
    FlowVersionResponse,
    FlowVersionsPage,
    FlowVersionSummary,
)
from callwright.kit.bounds import DB_INT_MAX, PageRequest, page_params
from callwright.kit.db import SessionDep
from callwright.models import Flow
from callwright.voice_agent.flow_graph import FlowGraph, problems

router = APIRouter(tags=["flows"])

FlowIdParam = Annotated[str, Path(max_length=36)]
VersionParam = Annotated[int, Path(ge=1, le=DB_INT_MAX)]


def _changed(flow: Flow, published: dict[str, Any] | None) -> bool:
    return published is None or published != flow.draft


def summary(flow: Flow, published: dict[str, Any] | None) -> FlowSummary:
    return FlowSummary(
        id=flow.id,
        name=flow.name,
        description=flow.description,
        published_version=flow.published_version,
        has_unpublished_changes=_changed(flow, published),
        node_count=len(flow.draft.get("nodes", [])),
        created_at=flow.created_at,
        updated_at=flow.updated_at,
    )


def flow_out(flow: Flow, published: dict[str, Any] | None) -> FlowOut:
    draft = FlowGraph.model_validate(flow.draft)
    return FlowOut(
        **summary(flow, published).model_dump(exclude={"node_count"}),
        draft=draft,
        problems=problems(draft),
    )


@router.get("/flows")
async def list_flows(
    user: CurrentUser, session: SessionDep, paging: Annotated[PageRequest, page_params(20)]
) -> FlowsPage:
    """The user's flows, the most recently changed first."""
    rows, total = await flows.page_for_user(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return FlowsPage(
        data=[summary(flow, published) for flow, published in rows],
        pagination=paging.pagination(total),
    )


@router.get("/flows/starters")
async def list_starters(user: CurrentUser) -> FlowStarters:
    """The starter flows a new flow may begin from (POST /flows with `starter`)."""
    return FlowStarters(
        data=[
            FlowStarter(key=key, name=starter.name, description=starter.description)
            for key, starter in service.starters().items()
        ]
    )


@router.post("/flows", status_code=201)
async def create_flow(body: FlowCreate, user: CurrentUser, session: SessionDep) -> FlowSaved:
    """A new flow: blank (one greeting), from a starter, or from a graph."""
    flow = await service.create(
        session,
        user.id,
        name=body.name,
        description=body.description or "",
        graph=body.graph,
        starter=body.starter,
    )
    return FlowSaved(message="Flow created successfully", data=flow_out(flow, None))


@router.post("/flows/import", status_code=201)
async def import_flow(body: FlowExport, user: CurrentUser, session: SessionDep) -> FlowSaved:
    """A new flow from an exported file (`format` "callwright-flow/1")."""
    flow = await service.create(
        session, user.id, name=body.name, description=body.description or "", graph=body.graph
    )
    return FlowSaved(message="Flow imported successfully", data=flow_out(flow, None))


@router.get("/flows/{flow_id}")
async def get_flow(flow_id: FlowIdParam, user: CurrentUser, session: SessionDep) -> FlowResponse:
    flow = await service.owned(session, user.id, flow_id)
    return FlowResponse(data=flow_out(flow, await service.published_graph(session, flow)))


@router.put("/flows/{flow_id}")
async def update_flow(
    flow_id: FlowIdParam, body: FlowUpdate, user: CurrentUser, session: SessionDep
) -> FlowSaved:
    """Saves the name, the description and the draft (a draft with problems saves; publishing
    refuses it)."""
    flow = await service.owned(session, user.id, flow_id)
    flow = await service.update(
        session, flow, name=body.name, description=body.description or "", draft=body.draft
    )
    published = await service.published_graph(session, flow)
    return FlowSaved(message="Flow saved successfully", data=flow_out(flow, published))


@router.post("/flows/{flow_id}/publish")
async def publish_flow(flow_id: FlowIdParam, user: CurrentUser, session: SessionDep) -> FlowSaved:
    """The draft becomes the next published version; 422 with each problem under `draft`
    while it has any."""
    flow = await service.publish(session, user.id, flow_id)
    message = f"Version {flow.published_version} published"
    return FlowSaved(message=message, data=flow_out(flow, flow.draft))


@router.get("/flows/{flow_id}/versions")
async def list_versions(
    flow_id: FlowIdParam,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> FlowVersionsPage:
    """The flow's published versions, the newest first."""
    flow = await service.owned(session, user.id, flow_id)
    rows, total = await flows.versions_page(
        session, flow.id, page=paging.page, per_page=paging.per_page
    )
    return FlowVersionsPage(
        data=[
            FlowVersionSummary(
                version=row.version,
                published_at=row.published_at,
                node_count=len(row.graph.get("nodes", [])),
            )
            for row in rows
        ],
        pagination=paging.pagination(total),
    )


@router.get("/flows/{flow_id}/versions/{version}")
async def get_version(
    flow_id: FlowIdParam, version: VersionParam, user: CurrentUser, session: SessionDep
) -> FlowVersionResponse:
    flow = await service.owned(session, user.id, flow_id)
    row = await service.version(session, flow, version)
    return FlowVersionResponse(
        data=FlowVersionOut(
            version=row.version,
            published_at=row.published_at,
            graph=FlowGraph.model_validate(row.graph),
        )
    )


def _filename(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]
    return f"{slug or 'flow'}.flow.json"


@router.get("/flows/{flow_id}/export", response_model=FlowExport)
async def export_flow(flow_id: FlowIdParam, user: CurrentUser, session: SessionDep) -> JSONResponse:
    """The flow's draft as a `callwright-flow/1` JSON file (POST /flows/import takes it)."""
    flow = await service.owned(session, user.id, flow_id)
    document = FlowExport(
        name=flow.name, description=flow.description, graph=FlowGraph.model_validate(flow.draft)
    )
    return JSONResponse(
        document.model_dump(mode="json"),
        headers={"content-disposition": f'attachment; filename="{_filename(flow.name)}"'},
    )


@router.delete("/flows/{flow_id}")
async def delete_flow(flow_id: FlowIdParam, user: CurrentUser, session: SessionDep) -> FlowDeleted:
    """The flow and all its versions."""
    flow = await service.owned(session, user.id, flow_id)
    await service.delete(session, flow)
    return FlowDeleted(message="Flow deleted successfully", data=FlowId(id=flow_id))
