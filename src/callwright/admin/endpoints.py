from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from callwright.auth.deps import AdminUser
from callwright.kit.db import SessionDep
from callwright.kit.pagination import Pagination
from callwright.mail import repository as mail

router = APIRouter(prefix="/admin", tags=["admin"])


class OutboxMessage(BaseModel):
    id: int
    to: str
    subject: str
    kind: str
    link: str | None
    body_text: str
    status: str
    error: str | None
    created_at: datetime
    sent_at: datetime | None


class OutboxPage(BaseModel):
    success: bool = True
    data: list[OutboxMessage]
    pagination: Pagination


@router.get("/mail-outbox")
async def mail_outbox(
    _admin: AdminUser,
    session: SessionDep,
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 10,
    to: Annotated[str | None, Query(max_length=254)] = None,
) -> OutboxPage:
    """Every e-mail the app has sent or stored, newest first (the outbox of the embedded default)."""
    total = await mail.count(session, to_address=to)
    rows = await mail.latest(session, limit=per_page, offset=(page - 1) * per_page, to_address=to)
    return OutboxPage(
        data=[
            OutboxMessage(
                id=m.id,
                to=m.to_address,
                subject=m.subject,
                kind=m.kind,
                link=m.link,
                body_text=m.body_text,
                status=m.status,
                error=m.error,
                created_at=m.created_at,
                sent_at=m.sent_at,
            )
            for m in rows
        ],
        pagination=Pagination.of(page=page, per_page=per_page, total=total),
    )
