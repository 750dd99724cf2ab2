"""The developers page's rules: API keys (at most MAX_KEYS live per user, revocation), webhook
endpoints (at most MAX_ENDPOINTS, their secrets), the user's signing secret, and resending a
delivery."""

from __future__ import annotations

import base64
import secrets

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.developers import repository
from callwright.developers.keys import new_key
from callwright.developers.outbox import DELIVER_JOB
from callwright.developers.schemas import EndpointIn, EndpointUpdate
from callwright.developers.ssrf import PrivateTargets, TargetRefused, private_notice
from callwright.kit.db import on_commit
from callwright.kit.errors import ValidationFailed, or_404
from callwright.kit.jobs import JobQueue
from callwright.kit.ratelimit import RateLimiter
from callwright.kit.time import utcnow
from callwright.models import ApiKey, User, WebhookDelivery, WebhookEndpoint

#: Live API keys a user may hold.
MAX_KEYS = 10
#: Webhook endpoints a user may have.
MAX_ENDPOINTS = 10
#: Random bytes in a Standard Webhooks secret.
SECRET_BYTES = 24
#: Resends a user may ask for in a minute (each makes the server post to a URL at once).
RESENDS_PER_MINUTE = 10
TOO_MANY_RESENDS = "Too many resends. Try again in a minute."


def new_signing_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


# API keys


async def create_key(session: AsyncSession, user: User, name: str) -> tuple[ApiKey, str]:
    """A new key for `user` and the key itself (shown once)."""
    if await repository.count_live_keys(session, user.id) >= MAX_KEYS:
        raise ValidationFailed(
            {"name": [f"You can have at most {MAX_KEYS} API keys. Revoke one to create another."]}
        )
    key, prefix, key_hash = new_key()
    record = ApiKey(user_id=user.id, name=name, prefix=prefix, key_hash=key_hash)
    session.add(record)
    await session.flush()
    return record, key


async def revoke_key(session: AsyncSession, user: User, key_id: int) -> None:
    record = or_404(await repository.live_key(session, user.id, key_id), "API key not found.")
    record.revoked_at = utcnow()


# Endpoints


async def url_notice(url: str, rule: PrivateTargets, field: str = "url") -> str | None:
    """What saving `url` should say (it is on a private address), or a 422 on `field` when
    this server refuses private targets."""
    try:
        return await private_notice(url, rule)
    except TargetRefused as exc:
        raise ValidationFailed({field: [str(exc)]}) from None


async def create_endpoint(
    session: AsyncSession, user: User, data: EndpointIn, rule: PrivateTargets
) -> tuple[WebhookEndpoint, str | None]:
    """The new endpoint, and what to say about its URL (`url_notice`)."""
    if await repository.count_endpoints(session, user.id) >= MAX_ENDPOINTS:
        raise ValidationFailed(
            {"url": [f"You can have at most {MAX_ENDPOINTS} webhook endpoints."]}
        )
    notice = await url_notice(data.url, rule)
    endpoint = WebhookEndpoint(
        user_id=user.id,
        url=data.url,
        description=data.description.strip(),
        events=data.events,
        enabled=data.enabled,
        secret=new_signing_secret(),
    )
    session.add(endpoint)
    await session.flush()
    return endpoint, notice


async def find_endpoint(session: AsyncSession, user: User, endpoint_id: int) -> WebhookEndpoint:
    return or_404(
        await repository.endpoint_of(session, user.id, endpoint_id), "Webhook endpoint not found."
    )


async def update_endpoint(
    session: AsyncSession, user: User, endpoint_id: int, data: EndpointUpdate, rule: PrivateTargets
) -> tuple[WebhookEndpoint, str | None]:
    """The changed endpoint, and what to say about its new URL (`url_notice`)."""
    endpoint = await find_endpoint(session, user, endpoint_id)
    notice = None
    if data.url is not None:
        notice = await url_notice(data.url, rule)
        endpoint.url = data.url
    if data.description is not None:
        endpoint.description = data.description.strip()
    if data.events is not None:
        endpoint.events = data.events
    if data.enabled is not None and data.enabled != endpoint.enabled:
        endpoint.enabled = data.enabled
        if data.enabled:
            # Its owner turned it back on: a fresh start.
            endpoint.disabled_reason = None
            endpoint.failing_since = None
        else:
            await repository.cancel_pending(session, endpoint.id, utcnow())
    await session.flush()
    return endpoint, notice


async def delete_endpoint(session: AsyncSession, user: User, endpoint_id: int) -> None:
    endpoint = await find_endpoint(session, user, endpoint_id)
    await session.delete(endpoint)


# The signing secret of calls' own webhook URLs


async def signing_secret(session: AsyncSession, user: User) -> str:
    """The user's signing secret, created on first use."""
    if user.webhook_secret:
        return user.webhook_secret
    secret = await repository.signing_secret(session, user.id, new_signing_secret())
    assert secret is not None  # the user is signed in: their row exists
    user.webhook_secret = secret
    return secret


async def rotate_signing_secret(session: AsyncSession, user: User) -> str:
    user.webhook_secret = new_signing_secret()
    await session.flush()
    return user.webhook_secret


# Deliveries


async def find_delivery(session: AsyncSession, user: User, delivery_id: str) -> WebhookDelivery:
    return or_404(
        await repository.delivery_of(session, user.id, delivery_id), "Webhook delivery not found."
    )


async def resend(
    session: AsyncSession, jobs: JobQueue, limiter: RateLimiter, user: User, delivery_id: str
) -> WebhookDelivery:
    """A new attempt now: the delivery pending again, its job queued after the commit. At most
    RESENDS_PER_MINUTE a user (429 with Retry-After past it)."""
    delivery = await find_delivery(session, user, delivery_id)
    await limiter.hit("webhook-resend", str(user.id), RESENDS_PER_MINUTE, 60, TOO_MANY_RESENDS)
    if delivery.endpoint_id is not None:
        endpoint = await repository.endpoint(session, delivery.endpoint_id)
        if endpoint is not None and not endpoint.enabled:
            raise ValidationFailed(
                {"endpoint": ["This endpoint is disabled: enable it before resending."]}
            )
    delivery.status = "pending"
    delivery.next_attempt_at = utcnow()
    delivery.finished_at = None
    await session.flush()

    async def send() -> None:
        await jobs.send(DELIVER_JOB, delivery_id)

    on_commit(session, send)
    return delivery
