"""The sign-in queries: bearer tokens with their user, e-mail verification, password reset
links."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.db import WriteBehind
from callwright.models import ApiToken, PasswordResetToken, User

USER_KEYS = tuple(User.__table__.c.keys())
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


async def token_with_user(session: AsyncSession, token_id: int) -> Row[Any] | None:
    """The token's hash, expiry and last use with every column of its user (`USER_KEYS`), read
    in Core in one query."""
    connection = await session.connection()
    row: Row[Any] | None = (await connection.execute(_WITH_USER, {"token_id": token_id})).first()
    return row


def touch_token(touches: WriteBehind, token_id: int, used_at: datetime) -> None:
    """Note the token's last use, written behind the request."""
    touches.put(_TOUCH, token_id, {"token_id": token_id, "used_at": used_at})


async def delete_token(session: AsyncSession, token_id: int) -> None:
    await session.execute(delete(ApiToken).where(ApiToken.id == token_id))


async def delete_tokens(
    session: AsyncSession, user_id: int, *, except_id: int | None = None
) -> list[int]:
    """Delete the user's tokens (all, or all but `except_id`); the ids deleted."""
    query = delete(ApiToken).where(ApiToken.user_id == user_id)
    if except_id is not None:
        query = query.where(ApiToken.id != except_id)
    return list(await session.scalars(query.returning(ApiToken.id)))


async def live_tokens(
    session: AsyncSession, token_ids: Collection[int], now: datetime
) -> Sequence[Row[int, int, datetime, str]]:
    """(id, user_id, expires_at, role) of each of these tokens that has not expired."""
    rows = await session.execute(
        select(ApiToken.id, ApiToken.user_id, ApiToken.expires_at, User.role)
        .join(User, User.id == ApiToken.user_id)
        .where(ApiToken.id.in_(list(token_ids)), ApiToken.expires_at > now)
    )
    return rows.all()


async def verify_once(session: AsyncSession, user_id: int, now: datetime) -> bool:
    """Mark the address verified at `now` unless it is already: whether this call did."""
    changed = await session.execute(
        update(User)
        .where(User.id == user_id, User.email_verified_at.is_(None))
        .values(email_verified_at=now)
        .execution_options(synchronize_session=False)
    )
    return getattr(changed, "rowcount", 0) == 1


async def retire_reset_links(session: AsyncSession, user_id: int, now: datetime) -> None:
    """Mark the user's unused reset links used (only the newest link works)."""
    await session.execute(
        update(PasswordResetToken)
        .where(PasswordResetToken.user_id == user_id, PasswordResetToken.used_at.is_(None))
        .values(used_at=now)
    )


async def reset_link(session: AsyncSession, token_hash: str) -> PasswordResetToken | None:
    found: PasswordResetToken | None = await session.scalar(
        select(PasswordResetToken).where(PasswordResetToken.token_hash == token_hash)
    )
    return found


async def consume_reset_link(session: AsyncSession, link_id: int, now: datetime) -> bool:
    """Spend the link if it is unused and unexpired: one conditional UPDATE, so of requests
    presenting it at once one changes the row. Whether this one did."""
    consumed = await session.execute(
        update(PasswordResetToken)
        .where(
            PasswordResetToken.id == link_id,
            PasswordResetToken.used_at.is_(None),
            PasswordResetToken.expires_at > now,
        )
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    return getattr(consumed, "rowcount", 0) == 1
