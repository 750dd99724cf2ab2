"""Every query of the developer platform: API keys, webhook endpoints, deliveries, attempts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import ApiKey, User, WebhookAttempt, WebhookDelivery, WebhookEndpoint

# API keys


async def live_keys_page(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[ApiKey], int]:
    query = select(ApiKey).where(ApiKey.user_id == user_id, ApiKey.revoked_at.is_(None))
    ordered = query.order_by(ApiKey.created_at.desc(), ApiKey.id.desc())
    return await paged(session, ordered, page=page, per_page=per_page)


async def count_live_keys(session: AsyncSession, user_id: int) -> int:
    total = await session.scalar(
        select(func.count())
        .select_from(ApiKey)
        .where(ApiKey.user_id == user_id, ApiKey.revoked_at.is_(None))
    )
    return int(total or 0)


async def key_and_owner(session: AsyncSession, key_hash: str) -> tuple[ApiKey, User] | None:
    """The live (unrevoked) key with this hash, and its owner."""
    row = (
        await session.execute(
            select(ApiKey, User)
            .join(User, User.id == ApiKey.user_id)
            .where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
        )
    ).first()
    return None if row is None else (row[0], row[1])


async def touch_key(session: AsyncSession, key_id: int, now: datetime) -> None:
    await session.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=now))


async def live_key(session: AsyncSession, user_id: int, key_id: int) -> ApiKey | None:
    key: ApiKey | None = await session.scalar(
        select(ApiKey).where(
            ApiKey.id == key_id, ApiKey.user_id == user_id, ApiKey.revoked_at.is_(None)
        )
    )
    return key


# Endpoints


async def enabled_endpoints(session: AsyncSession, user_id: int) -> Sequence[WebhookEndpoint]:
    """The user's enabled webhook endpoints."""
    return (
        await session.scalars(
            select(WebhookEndpoint).where(
                WebhookEndpoint.user_id == user_id, WebhookEndpoint.enabled.is_(True)
            )
        )
    ).all()


async def endpoints_page(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[WebhookEndpoint], int]:
    query = (
        select(WebhookEndpoint)
        .where(WebhookEndpoint.user_id == user_id)
        .order_by(WebhookEndpoint.created_at.desc(), WebhookEndpoint.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def count_endpoints(session: AsyncSession, user_id: int) -> int:
    total = await session.scalar(
        select(func.count()).select_from(WebhookEndpoint).where(WebhookEndpoint.user_id == user_id)
    )
    return int(total or 0)


async def endpoint_of(
    session: AsyncSession, user_id: int, endpoint_id: int
) -> WebhookEndpoint | None:
    endpoint: WebhookEndpoint | None = await session.scalar(
        select(WebhookEndpoint).where(
            WebhookEndpoint.id == endpoint_id, WebhookEndpoint.user_id == user_id
        )
    )
    return endpoint


async def cancel_pending(session: AsyncSession, endpoint_id: int, now: datetime) -> None:
    """Its pending deliveries cancelled (the endpoint was disabled)."""
    await session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.endpoint_id == endpoint_id, WebhookDelivery.status == "pending")
        .values(status="cancelled", finished_at=now)
    )


# Deliveries


async def deliveries_page(
    session: AsyncSession,
    user_id: int,
    *,
    status: str | None,
    event: str | None,
    endpoint_id: int | None,
    page: int,
    per_page: int,
) -> tuple[Sequence[WebhookDelivery], int]:
    where = [WebhookDelivery.user_id == user_id]
    if status:
        where.append(WebhookDelivery.status == status)
    if event:
        where.append(WebhookDelivery.event == event)
    if endpoint_id is not None:
        where.append(WebhookDelivery.endpoint_id == endpoint_id)
    query = (
        select(WebhookDelivery)
        .where(*where)
        .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def delivery_of(
    session: AsyncSession, user_id: int, delivery_id: str
) -> WebhookDelivery | None:
    delivery: WebhookDelivery | None = await session.scalar(
        select(WebhookDelivery).where(
            WebhookDelivery.id == delivery_id, WebhookDelivery.user_id == user_id
        )
    )
    return delivery


async def attempts_of(session: AsyncSession, delivery_id: str) -> Sequence[WebhookAttempt]:
    rows = await session.scalars(
        select(WebhookAttempt)
        .where(WebhookAttempt.delivery_id == delivery_id)
        .order_by(WebhookAttempt.attempted_at, WebhookAttempt.id)
    )
    return rows.all()


async def due_ids(session: AsyncSession, now: datetime, limit: int) -> Sequence[str]:
    """Pending deliveries whose time has come and that no sender holds."""
    rows = await session.scalars(
        select(WebhookDelivery.id)
        .where(
            WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now),
        )
        .order_by(WebhookDelivery.next_attempt_at)
        .limit(limit)
    )
    return rows.all()


async def claim(session: AsyncSession, delivery_id: str, now: datetime, until: datetime) -> bool:
    """Take the delivery for one attempt (until `until`): True for the one sender that won."""
    result = await session.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.id == delivery_id,
            WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now),
        )
        .values(lease_until=until)
        .execution_options(synchronize_session=False)
    )
    return getattr(result, "rowcount", 0) == 1


async def delivery(session: AsyncSession, delivery_id: str) -> WebhookDelivery | None:
    return await session.get(WebhookDelivery, delivery_id)


async def user(session: AsyncSession, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def signing_secret(session: AsyncSession, user_id: int, fresh: str) -> str | None:
    """The user's signing secret, set to `fresh` first when they have none (a conditional
    update: of two first uses at once, both get the secret that was stored)."""
    await session.execute(
        update(User)
        .where(User.id == user_id, User.webhook_secret.is_(None))
        .values(webhook_secret=fresh)
        .execution_options(synchronize_session=False)
    )
    secret: str | None = await session.scalar(select(User.webhook_secret).where(User.id == user_id))
    return secret


async def endpoint(session: AsyncSession, endpoint_id: int) -> WebhookEndpoint | None:
    return await session.get(WebhookEndpoint, endpoint_id)
