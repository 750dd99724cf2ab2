"""The admin back-office API (spec section 7): statistics and charts, users and balances, every
call, reports, and the e-mail outbox. Every route needs the admin role (401 anonymous, 403 user).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from callwright.admin import analytics
from callwright.admin import repository as admin
from callwright.admin.schemas import (
    AddUserIn,
    AdminCall,
    AdminCallsPage,
    AdminStats,
    AdminStatsOut,
    AdminUserOut,
    BalanceData,
    BalanceIn,
    BalanceResponse,
    CallUser,
    Charts,
    ChartsOut,
    ReportOut,
    ReportsPage,
    TopUser,
    TopUsersOut,
    UpdateUserIn,
    UserResponse,
    UsersPage,
)
from callwright.auth import tokens
from callwright.auth.deps import AdminUser, CurrentTokenId
from callwright.auth.schemas import Message
from callwright.billing.deps import BillingDep
from callwright.calls.outcomes import outcome_of
from callwright.calls.schemas import play_url
from callwright.kit.bounds import PageRequest, PathId, page_params
from callwright.kit.db import Database, SessionDep
from callwright.kit.deps import DatabaseDep
from callwright.kit.envelope import Paged
from callwright.kit.errors import AppError, ValidationFailed, or_404
from callwright.kit.money import dollars, money
from callwright.kit.security import hash_password_async
from callwright.kit.sqltime import TzOffset
from callwright.kit.time import utcnow
from callwright.mail import repository as mail
from callwright.models import Call, User
from callwright.realtime.deps import SocketsDep
from callwright.realtime.server import user_room
from callwright.users import repository as users

router = APIRouter(prefix="/admin", tags=["admin"])

EMAIL_TAKEN = "Email already exists"


async def _mark(db: Database) -> datetime | None:
    return await analytics.refresh(db.sessionmaker)


@router.get("/stats")
async def stats(_admin: AdminUser, session: SessionDep, db: DatabaseDep) -> AdminStatsOut:
    """The eight overall statistics. Durations in minutes, money in dollars, the success rate
    (successful calls, `outcomes.SUCCESSFUL`, over all calls) in percent; active users called
    in the last 30 days."""
    o = await analytics.overall(session, await _mark(db))
    minutes = o.total_seconds / 60
    return AdminStatsOut(
        data=AdminStats(
            totalCalls=o.total_calls,
            totalUsers=o.total_users,
            totalUsedBalance=dollars(o.used_cents),
            totalCallDuration=round(minutes, 1),
            avgCallDuration=round(minutes / o.total_calls, 1) if o.total_calls else 0,
            successRate=round(o.successful * 100 / o.total_calls, 1) if o.total_calls else 0,
            totalActiveUsers=o.active_users,
            avgCallsPerUser=round(o.total_calls / o.total_users, 1) if o.total_users else 0,
        )
    )


@router.get("/analytics")
async def charts(
    _admin: AdminUser, session: SessionDep, db: DatabaseDep, tz_offset: TzOffset = 0
) -> ChartsOut:
    """The nine Call Analysis charts: 30 days of calls, minutes and recording share; duration
    buckets, statuses, recorded or not, weekdays and hours of day over every call."""
    data = await analytics.charts(session, await _mark(db), tz_offset)
    return ChartsOut(data=Charts.model_validate(data))


@router.get("/top-users")
async def top_users(
    _admin: AdminUser, session: SessionDep, limit: Annotated[int, Query(ge=1, le=50)] = 5
) -> TopUsersOut:
    rows = await admin.top_users(session, limit)
    return TopUsersOut(
        data=[TopUser(id=u.id, name=u.name, email=u.email, call_count=n) for u, n in rows]
    )


@router.get("/users")
async def list_users(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(7)],
    q: Annotated[str | None, Query(max_length=254)] = None,
) -> UsersPage:
    """Users by name; `q` keeps those whose name or e-mail contains it."""
    q = (q or "").strip() or None
    rows, total = await admin.users_page(session, q=q, page=paging.page, per_page=paging.per_page)
    return UsersPage(
        data=[AdminUserOut.of(u) for u in rows],
        pagination=paging.pagination(total),
    )


def _email_taken() -> AppError:
    return AppError(EMAIL_TAKEN, 400, errors={"email": [EMAIL_TAKEN]})


async def _email_free(session: SessionDep, email: str, user_id: int | None = None) -> None:
    other = await users.by_email(session, email)
    if other is not None and other.id != user_id:
        raise _email_taken()


@router.post("/add-user", status_code=201)
async def add_user(
    body: AddUserIn, admin_user: AdminUser, session: SessionDep, billing: BillingDep
) -> UserResponse:
    """Create an account (verified: an admin vouches for it) with an opening balance, recorded
    in the ledger as a top-up by this admin."""
    await _email_free(session, body.email)
    try:
        user = await users.add(
            session,
            User(
                name=body.name,
                email=body.email,
                password_hash=await hash_password_async(body.password),
                role=body.role,
                balance_cents=0,
                email_verified_at=utcnow(),
            ),
        )
    except users.EmailTaken:  # taken by a concurrent request since the look-up
        raise _email_taken() from None
    if body.balance > 0:
        await billing.top_up(
            session, user.id, body.balance, by=admin_user.id, note="opening balance"
        )
    return UserResponse(message="Added user successfuly.", data=AdminUserOut.of(user))


async def _user(session: SessionDep, user_id: int) -> User:
    return or_404(await users.get(session, user_id), "User not found.")


@router.put("/users/{user_id}")
async def update_user(
    user_id: PathId,
    body: UpdateUserIn,
    admin_user: AdminUser,
    token_id: CurrentTokenId,
    session: SessionDep,
    sockets: SocketsDep,
    billing: BillingDep,
) -> UserResponse:
    """Change only the fields sent. A new balance is written as a ledger adjustment by this
    admin; an admin cannot take away their own admin role."""
    # (Not in the docstring, which is the published API description.) A new password ends the
    # user's sessions (all but this admin's own, when they change their own) and their sockets;
    # a new role ends their sockets, which reconnect with the rooms of the new role.
    user = await _user(session, user_id)
    changed = False
    if body.email is not None and body.email != user.email:
        await _email_free(session, body.email, user.id)
        user.email = body.email
        try:
            await users.flush(session)
        except users.EmailTaken:  # taken by a concurrent request since the look-up
            raise _email_taken() from None
        changed = True
    if body.name is not None and body.name != user.name:
        user.name = body.name
        changed = True
    if body.role is not None and body.role != user.role:
        if user.id == admin_user.id:
            raise ValidationFailed({"role": ["You cannot remove your own admin role."]})
        user.role = body.role
        sockets.end_after_commit(session, [user_room(user.id)])
        changed = True
    if body.password is not None:
        user.password_hash = await hash_password_async(body.password)
        keep = token_id if user.id == admin_user.id else None
        await tokens.revoke_all(session, user.id, sockets, except_id=keep)
        changed = True
    if body.balance is not None and body.balance != user.balance_cents:
        await billing.set_balance(session, user.id, body.balance, by=admin_user.id)
        changed = True
    if not changed:
        return UserResponse(message="No changes detected.", data=AdminUserOut.of(user))
    await session.flush()
    return UserResponse(message="User updated successfully", data=AdminUserOut.of(user))


@router.put("/users/{user_id}/balance")
async def add_balance(
    user_id: PathId,
    body: BalanceIn,
    admin_user: AdminUser,
    session: SessionDep,
    billing: BillingDep,
) -> BalanceResponse:
    """Add `amount` dollars: a ledger top-up by this admin; the user's open pages get a
    balance-update event once it commits."""
    user = await _user(session, user_id)
    balance = await billing.top_up(
        session, user.id, body.amount, by=admin_user.id, note="top-up by an admin"
    )
    return BalanceResponse(
        message=f"Added ${money(body.amount)} to user balance",
        data=BalanceData(user_id=user.id, balance=dollars(balance), added=dollars(body.amount)),
    )


@router.delete("/users/{user_id}")
async def delete_user(
    user_id: PathId, admin_user: AdminUser, session: SessionDep, sockets: SocketsDep
) -> Message:
    """Delete an account (see admin.repository.delete_user for what happens to its data).
    Refused for your own account and while the user has a call under way."""
    # Its tokens go with it (the foreign key cascades); its sockets end once that commits.
    user = await _user(session, user_id)
    if user.id == admin_user.id:
        raise AppError("You cannot delete your own account.", 409)
    if await admin.open_calls(session, user.id):
        raise AppError("This user has a call in progress. Try again when it has ended.", 409)
    await admin.delete_user(session, user)
    sockets.end_after_commit(session, [user_room(user.id)])
    return Message(message="User deleted successfully")


def _call_out(call: Call, user: User | None) -> AdminCall:
    url = play_url(call)
    return AdminCall(
        call_id=call.id,
        kind=call.kind,
        user=CallUser(id=user.id, name=user.name, email=user.email) if user else None,
        from_=call.from_number,
        to=call.to_number,
        status=call.status,
        outcome=outcome_of(call.end_reason),
        answered_by=call.answered_by,
        call_length=call.duration_seconds or 0,
        created_at=call.created_at,
        cost=dollars(call.cost_cents) if call.cost_cents is not None else None,
        record_url=url,
        recording_url=url,
    )


@router.get("/calls")
async def all_calls(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
    q: Annotated[str | None, Query(max_length=100)] = None,
    sort: Annotated[
        str,
        Query(
            pattern=r"^-?(created_at|call_id|user|from|to|call_length|status|cost)$",
            description="A column, '-' first for descending.",
        ),
    ] = admin.DEFAULT_CALL_SORT,
) -> AdminCallsPage:
    """Every call (test calls too), newest first unless sorted. `q` matches the user's name or
    e-mail (contains), the status (equals), the call id (starts with) or a number (starts
    with)."""
    q = (q or "").strip() or None
    rows, total = await admin.calls_page(
        session, q=q, sort=sort, page=paging.page, per_page=paging.per_page
    )
    return AdminCallsPage(
        calls=[_call_out(c, u) for c, u in rows],
        pagination=paging.pagination(total),
    )


@router.get("/reports")
async def reports(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
) -> ReportsPage:
    rows, total = await admin.reports_page(session, page=paging.page, per_page=paging.per_page)
    return ReportsPage(
        reports=[
            ReportOut(
                id=r.id,
                call_id=r.call_id,
                user_id=r.user_id,
                username=u.name if u else None,
                email=u.email if u else None,
                reason=r.reason,
                status=r.status,
                created_at=r.created_at,
            )
            for r, u in rows
        ],
        pagination=paging.pagination(total),
    )


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


class OutboxPage(Paged[OutboxMessage]):
    pass


@router.get("/mail-outbox")
async def mail_outbox(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
    to: Annotated[str | None, Query(max_length=254)] = None,
) -> OutboxPage:
    """Every e-mail the app has sent or stored, newest first (the outbox of the embedded default)."""
    rows, total = await mail.outbox_page(
        session, to_address=to, page=paging.page, per_page=paging.per_page
    )
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
        pagination=paging.pagination(total),
    )
