"""The developers page's API (signed-in users, each on their own objects only): API keys,
webhook endpoints, the signing secret of calls' own webhooks, and the delivery log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query

from callwright.auth.deps import CurrentUser
from callwright.developers import repository, service
from callwright.developers.outbox import EVENTS
from callwright.developers.schemas import (
    ApiKeyCreated,
    ApiKeyIn,
    ApiKeyOut,
    ApiKeysPage,
    AttemptOut,
    DeliveriesPage,
    DeliveryDetail,
    DeliveryDetailResponse,
    DeliveryOut,
    Done,
    EndpointCreated,
    EndpointIn,
    EndpointOut,
    EndpointOutResponse,
    EndpointsPage,
    EndpointUpdate,
    SigningSecretOut,
)
from callwright.developers.ssrf import private_targets
from callwright.kit.bounds import DB_INT_MAX, PageRequest, PathId, page_params
from callwright.kit.db import SessionDep
from callwright.kit.deps import JobsDep, LimiterDep, SettingsDep
from callwright.kit.errors import ValidationFailed
from callwright.models import ApiKey, WebhookAttempt, WebhookDelivery, WebhookEndpoint

router = APIRouter(tags=["developers"])

DeliveryId = Annotated[str, Path(min_length=1, max_length=40)]
DeliveryStatus = Literal["pending", "delivered", "failed", "cancelled"]


def key_out(key: ApiKey) -> ApiKeyOut:
    return ApiKeyOut(
        id=key.id,
        name=key.name,
        prefix=key.prefix,
        created_at=key.created_at,
        last_used_at=key.last_used_at,
    )


def endpoint_out(endpoint: WebhookEndpoint) -> EndpointOut:
    return EndpointOut(
        id=endpoint.id,
        url=endpoint.url,
        description=endpoint.description,
        events=list(endpoint.events),
        enabled=endpoint.enabled,
        disabled_reason=endpoint.disabled_reason,
        failing_since=endpoint.failing_since,
        created_at=endpoint.created_at,
    )


def delivery_out(delivery: WebhookDelivery) -> DeliveryOut:
    return DeliveryOut(
        id=delivery.id,
        event=delivery.event,
        url=delivery.url,
        endpoint_id=delivery.endpoint_id,
        call_id=delivery.call_id,
        status=delivery.status,
        attempts=delivery.attempts,
        last_status_code=delivery.last_status_code,
        next_attempt_at=delivery.next_attempt_at if delivery.status == "pending" else None,
        created_at=delivery.created_at,
        finished_at=delivery.finished_at,
    )


# API keys


@router.get("/api-keys")
async def list_api_keys(
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> ApiKeysPage:
    """The user's live API keys, newest first (never the keys themselves)."""
    rows, total = await repository.live_keys_page(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return ApiKeysPage(data=[key_out(k) for k in rows], pagination=paging.pagination(total))


@router.post("/api-keys", status_code=201)
async def create_api_key(body: ApiKeyIn, user: CurrentUser, session: SessionDep) -> ApiKeyCreated:
    """A new key for the `/v1` API: `key` is shown this once (only its hash is kept)."""
    record, key = await service.create_key(session, user, body.name)
    return ApiKeyCreated(data=key_out(record), key=key)


@router.delete("/api-keys/{key_id}")
async def revoke_api_key(key_id: PathId, user: CurrentUser, session: SessionDep) -> Done:
    """Revoke a key: from now on it is refused (401)."""
    await service.revoke_key(session, user, key_id)
    return Done(message="API key revoked.")


# Webhook endpoints


@router.get("/webhook-endpoints")
async def list_webhook_endpoints(
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> EndpointsPage:
    rows, total = await repository.endpoints_page(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return EndpointsPage(data=[endpoint_out(e) for e in rows], pagination=paging.pagination(total))


@router.post("/webhook-endpoints", status_code=201)
async def create_webhook_endpoint(
    body: EndpointIn, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> EndpointCreated:
    """A new endpoint: `secret` (its signing secret) is shown this once. A URL on a private
    address is refused (422) where this server refuses those, else `notice` says it is
    private."""
    endpoint, notice = await service.create_endpoint(session, user, body, private_targets(settings))
    return EndpointCreated(data=endpoint_out(endpoint), secret=endpoint.secret, notice=notice)


@router.put("/webhook-endpoints/{endpoint_id}")
async def update_webhook_endpoint(
    endpoint_id: PathId,
    body: EndpointUpdate,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
) -> EndpointOutResponse:
    """Change an endpoint (fields left out stay). Enabling it clears why it was disabled;
    disabling it cancels its pending deliveries. A new URL is checked as on creation."""
    endpoint, notice = await service.update_endpoint(
        session, user, endpoint_id, body, private_targets(settings)
    )
    return EndpointOutResponse(data=endpoint_out(endpoint), notice=notice)


@router.delete("/webhook-endpoints/{endpoint_id}")
async def delete_webhook_endpoint(
    endpoint_id: PathId, user: CurrentUser, session: SessionDep
) -> Done:
    """Delete an endpoint and its delivery log."""
    await service.delete_endpoint(session, user, endpoint_id)
    return Done(message="Webhook endpoint deleted.")


# The signing secret of calls' own webhooks


@router.get("/developers/signing-secret")
async def get_signing_secret(user: CurrentUser, session: SessionDep) -> SigningSecretOut:
    """The secret that signs deliveries to each call's own `webhook` URL (created on first
    use)."""
    return SigningSecretOut(secret=await service.signing_secret(session, user))


@router.post("/developers/signing-secret/rotate")
async def rotate_signing_secret(user: CurrentUser, session: SessionDep) -> SigningSecretOut:
    """A new signing secret; the old one stops signing at once."""
    return SigningSecretOut(secret=await service.rotate_signing_secret(session, user))


# The delivery log


@router.get("/webhook-deliveries")
async def list_webhook_deliveries(
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
    status: DeliveryStatus | None = None,
    event: str | None = Query(None, max_length=40),
    endpoint_id: int | None = Query(None, ge=1, le=DB_INT_MAX),
) -> DeliveriesPage:
    """The user's deliveries, newest first, optionally of one status, event or endpoint."""
    if event is not None and event not in EVENTS:
        raise ValidationFailed({"event": [f"Unknown event: choose from {', '.join(EVENTS)}."]})
    rows, total = await repository.deliveries_page(
        session,
        user.id,
        status=status,
        event=event,
        endpoint_id=endpoint_id,
        page=paging.page,
        per_page=paging.per_page,
    )
    return DeliveriesPage(data=[delivery_out(d) for d in rows], pagination=paging.pagination(total))


@router.get("/webhook-deliveries/{delivery_id}")
async def get_webhook_delivery(
    delivery_id: DeliveryId, user: CurrentUser, session: SessionDep
) -> DeliveryDetailResponse:
    """One delivery with its payload and every attempt."""
    delivery = await service.find_delivery(session, user, delivery_id)
    attempts = await repository.attempts_of(session, delivery.id)
    return DeliveryDetailResponse(data=_detail(delivery, attempts))


@router.post("/webhook-deliveries/{delivery_id}/resend")
async def resend_webhook_delivery(
    delivery_id: DeliveryId,
    user: CurrentUser,
    session: SessionDep,
    jobs: JobsDep,
    limiter: LimiterDep,
) -> DeliveryDetailResponse:
    """A new attempt now (the same `webhook-id`, so receivers can drop repeats); at most 10 a
    minute (429 past it)."""
    delivery = await service.resend(session, jobs, limiter, user, delivery_id)
    attempts = await repository.attempts_of(session, delivery.id)
    return DeliveryDetailResponse(data=_detail(delivery, attempts))


def _detail(delivery: WebhookDelivery, attempts: Sequence[WebhookAttempt]) -> DeliveryDetail:
    return DeliveryDetail(
        **delivery_out(delivery).model_dump(),
        payload=delivery.payload,
        attempts_log=[
            AttemptOut(
                id=a.id,
                attempted_at=a.attempted_at,
                status_code=a.status_code,
                response_ms=a.response_ms,
                response_excerpt=a.response_excerpt,
                error=a.error,
            )
            for a in attempts
        ],
    )
