"""Bearer tokens `{id}|{secret}` (Sanctum's format); only sha256(secret) is stored."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from callwright.kit.db import WriteBehind
from callwright.kit.security import constant_time_equals, random_token, sha256_hex
from callwright.kit.time import utcnow
from callwright.models import ApiToken, User
from callwright.models.user import Role
from callwright.realtime.server import Identity, SocketControl, token_room, user_room

TOUCH_EVERY = timedelta(minutes=1)


async def issue(session: AsyncSession, user_id: int, ttl_minutes: int, name: str = "spa") -> str:
    secret = random_token(30)
    token = ApiToken(
        user_id=user_id,
        name=name,
        token_hash=sha256_hex(secret),
        expires_at=utcnow() + timedelta(minutes=ttl_minutes),
    )
    session.add(token)
    await session.flush()
    return f"{token.id}|{secret}"


async def resolve(
    session: AsyncSession, plaintext: str, touches: WriteBehind
) -> tuple[int, User] | None:
    """The id of the live token `plaintext` names and its user, read in one query; None when the
    token is malformed, unknown, has the wrong secret or has expired. Its last-used time (at most
    once a minute) goes to `touches`, written behind the request.

    Every request signed in runs this first, so it is read in Core (about 50 microseconds of CPU
    less than loading two ORM entities) and the user is put into `session` as the persistent
    object those columns describe (`make_transient_to_detached`, then `add`): the endpoint can
    change and flush it as if it had been loaded. Call it on a session that holds no user yet."""
    token_id, sep, secret = plaintext.partition("|")
    if not sep or not token_id.isdigit() or not secret or len(token_id) > 18:
        return None
    connection = await session.connection()
    row = (await connection.execute(_WITH_USER, {"token_id": int(token_id)})).first()
    if row is None:
        return None
    if not constant_time_equals(row.token_hash, sha256_hex(secret)):
        return None
    now = utcnow()
    if row.expires_at <= now:
        return None
    if row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY:
        touches.put(_TOUCH, row.token_id, {"token_id": row.token_id, "used_at": now})
    user = User(**{key: getattr(row, key) for key in _USER_KEYS})
    make_transient_to_detached(user)
    session.add(user)
    return row.token_id, user


_USER_KEYS = tuple(User.__table__.c.keys())
_WITH_USER = (
    select(
        ApiToken.id.label("token_id"),
        ApiToken.token_hash,
        ApiToken.expires_at,
        ApiToken.last_used_at,
        *User.__table__.c,
    )
    .join(User, User.id == ApiToken.user_id)
    .where(ApiToken.id == bindparam("token_id"))
)
_TOUCH = (
    update(ApiToken)
    .where(ApiToken.id == bindparam("token_id"))
    .values(last_used_at=bindparam("used_at"))
)


async def revoke(session: AsyncSession, token_id: int, sockets: SocketControl) -> None:
    """Revoke one token; its sockets are disconnected once the transaction commits."""
    await session.execute(delete(ApiToken).where(ApiToken.id == token_id))
    sockets.end_after_commit(session, [token_room(token_id)])


async def revoke_all(
    session: AsyncSession, user_id: int, sockets: SocketControl, *, except_id: int | None = None
) -> list[int]:
    """Revoke the user's tokens (all, or all but `except_id`); their sockets are disconnected
    once the transaction commits. Returns the ids revoked."""
    query = delete(ApiToken).where(ApiToken.user_id == user_id)
    if except_id is not None:
        query = query.where(ApiToken.id != except_id)
    revoked = list(await session.scalars(query.returning(ApiToken.id)))
    rooms = [token_room(i) for i in revoked]
    sockets.end_after_commit(session, rooms if except_id is not None else [user_room(user_id)])
    return revoked


async def identities(session: AsyncSession, token_ids: Collection[int]) -> dict[int, Identity]:
    """Who each of these tokens speaks for now, leaving out unknown and expired ones (the
    sockets' periodic re-check)."""
    if not token_ids:
        return {}
    rows = await session.execute(
        select(ApiToken.id, ApiToken.user_id, ApiToken.expires_at, User.role)
        .join(User, User.id == ApiToken.user_id)
        .where(ApiToken.id.in_(list(token_ids)), ApiToken.expires_at > utcnow())
    )
    return {
        row.id: Identity(
            user_id=row.user_id,
            is_admin=row.role == Role.ADMIN.value,
            token_id=row.id,
            expires_at=row.expires_at,
        )
        for row in rows
    }
