"""Bearer tokens `{id}|{secret}` (Sanctum's format); only sha256(secret) is stored."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from callwright.auth import repository
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
    row = await repository.token_with_user(session, int(token_id))
    if row is None:
        return None
    if not constant_time_equals(row.token_hash, sha256_hex(secret)):
        return None
    now = utcnow()
    if row.expires_at <= now:
        return None
    if row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY:
        repository.touch_token(touches, row.token_id, now)
    user = User(**{key: getattr(row, key) for key in repository.USER_KEYS})
    make_transient_to_detached(user)
    session.add(user)
    return row.token_id, user


async def revoke(session: AsyncSession, token_id: int, sockets: SocketControl) -> None:
    """Revoke one token; its sockets are disconnected once the transaction commits."""
    await repository.delete_token(session, token_id)
    sockets.end_after_commit(session, [token_room(token_id)])


async def revoke_all(
    session: AsyncSession, user_id: int, sockets: SocketControl, *, except_id: int | None = None
) -> list[int]:
    """Revoke the user's tokens (all, or all but `except_id`); their sockets are disconnected
    once the transaction commits. Returns the ids revoked."""
    revoked = await repository.delete_tokens(session, user_id, except_id=except_id)
    rooms = [token_room(i) for i in revoked]
    sockets.end_after_commit(session, rooms if except_id is not None else [user_room(user_id)])
    return revoked


async def identities(session: AsyncSession, token_ids: Collection[int]) -> dict[int, Identity]:
    """Who each of these tokens speaks for now, leaving out unknown and expired ones (the
    sockets' periodic re-check)."""
    if not token_ids:
        return {}
    rows = await repository.live_tokens(session, token_ids, utcnow())
    return {
        row.id: Identity(
            user_id=row.user_id,
            is_admin=row.role == Role.ADMIN.value,
            token_id=row.id,
            expires_at=row.expires_at,
        )
        for row in rows
    }
