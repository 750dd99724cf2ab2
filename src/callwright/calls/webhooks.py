"""Carrier status webhooks: verified, parsed, applied through the state machine."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from callwright.calls.deps import CallsDep
from callwright.kit.errors import AppError, NotFound
from callwright.telephony.base import WebhookRequest

router = APIRouter(tags=["webhooks"], include_in_schema=False)


@router.post("/webhooks/{carrier}/status")
async def status_callback(carrier: str, request: Request, domain: CallsDep) -> Response:
    engine = domain.flows
    if carrier != engine.carrier.name:
        raise NotFound("Unknown carrier.")
    body = await request.body()
    form = await request.form()
    # Verify against the URL the carrier was given (behind a proxy, request.url may differ).
    url = engine.status_callback_url() + (f"?{request.url.query}" if request.url.query else "")
    hook = WebhookRequest(
        url=url,
        headers={k.lower(): v for k, v in request.headers.items()},
        form=[(k, str(v)) for k, v in form.multi_items()],
        body=body,
    )
    if not engine.carrier.verify_webhook(hook):
        raise AppError("Invalid webhook signature.", 403)
    update = engine.carrier.parse_status(hook)
    if update is not None:
        await engine.on_status(update)
    return Response(status_code=204)
