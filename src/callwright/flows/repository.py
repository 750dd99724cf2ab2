"""Queries for flows and their published versions (always within one owner). The flow runner's
calls reach a flow through `owned` and a pinned version through `version`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.db import unique_violation
from callwright.kit.pagination import paged, paged_rows
from callwright.models import Flow, FlowVersion

#: What the database names the one-number-per-version rule by (PostgreSQL; SQLite).
VERSION_UNIQUES = {"uq_flow_versions_flow_version", "flow_versions.flow_id, flow_versions.version"}


async def page_for_user(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[tuple[Flow, dict[str, Any] | None]], int]:
    """The user's flows, the most recently changed first, each with its published version's
    graph (None before the first publish)."""
    query = (
        select(Flow, FlowVersion.graph)
        .outerjoin(
            FlowVersion,
            and_(FlowVersion.flow_id == Flow.id, FlowVersion.version == Flow.published_version),
        )
        .where(Flow.user_id == user_id)
        .order_by(Flow.updated_at.desc(), Flow.id.desc())
    )
    counted = select(Flow.id).where(Flow.user_id == user_id)
    rows, total = await paged_rows(session, query, page=page, per_page=per_page, counted=counted)
    return [(flow, graph) for flow, graph in rows], total


async def count_for_user(session: AsyncSession, user_id: int) -> int:
    total = await session.scalar(
        select(func.count()).select_from(Flow).where(Flow.user_id == user_id)
    )
    return int(total or 0)


async def owned(
    session: AsyncSession, user_id: int, flow_id: str, *, for_update: bool = False
) -> Flow | None:
    """The user's flow (None: none, or another user's); `for_update` locks its row (PostgreSQL)
    until the transaction ends, so two publishes of one flow take turns."""
    query = select(Flow).where(Flow.id == flow_id, Flow.user_id == user_id)
    if for_update:
        query = query.with_for_update()
    return await session.scalar(query)


async def version(session: AsyncSession, flow_id: str, version: int | None) -> FlowVersion | None:
    """Version `version` of the flow; None: the published one (None when never published)."""
    query = select(FlowVersion).where(FlowVersion.flow_id == flow_id)
    if version is None:
        query = query.join(Flow, Flow.id == FlowVersion.flow_id).where(
            FlowVersion.version == Flow.published_version
        )
    else:
        query = query.where(FlowVersion.version == version)
    return await session.scalar(query)


async def newest_version(session: AsyncSession, flow_id: str) -> int:
    """The highest version number the flow has published (0: none)."""
    found = await session.scalar(
        select(func.max(FlowVersion.version)).where(FlowVersion.flow_id == flow_id)
    )
    return int(found or 0)


async def versions_page(
    session: AsyncSession, flow_id: str, *, page: int, per_page: int
) -> tuple[Sequence[FlowVersion], int]:
    """The flow's published versions, the newest first."""
    query = (
        select(FlowVersion)
        .where(FlowVersion.flow_id == flow_id)
        .order_by(FlowVersion.version.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def add(session: AsyncSession, row: Flow | FlowVersion) -> None:
    session.add(row)
    await session.flush()
    await session.refresh(row)


async def add_version(session: AsyncSession, row: FlowVersion) -> bool:
    """Writes a published version; False when the flow already has that number (a publish
    that ran at the same moment took it)."""
    session.add(row)
    try:
        await session.flush()
    except IntegrityError as exc:
        if unique_violation(exc) in VERSION_UNIQUES:
            return False
        raise
    return True


async def delete(session: AsyncSession, flow: Flow) -> None:
    await session.delete(flow)
    await session.flush()
