"""Carrier status webhooks: verified, parsed, applied through the state machine. The path names
the carrier (`/webhooks/{carrier}/...`): an install has its own and, beside a real one, the
sandbox for the lab's calls (telephony.registry), each verifying its own signatures."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from callwright.calls.deps import CallsDep
from callwright.calls.transfers import CallTransfers
from callwright.kit.errors import AppError, NotFound
from callwright.telephony.base import WebhookRequest

router = APIRouter(tags=["webhooks"], include_in_schema=False)


@router.post("/webhooks/{carrier}/status")
async def status_callback(carrier: str, request: Request, domain: CallsDep) -> Response:
    engine = domain.flows
    sender = engine.carriers.named(carrier)
    if sender is None:
        raise NotFound("Unknown carrier.")
    body = await request.body()
    form = await request.form()
    # Verify against the URL the carrier was given (behind a proxy, request.url may differ).
    query = f"?{request.url.query}" if request.url.query else ""
    url = engine.status_callback_url(sender.name) + query
    hook = WebhookRequest(
        url=url,
        headers={k.lower(): v for k, v in request.headers.items()},
        form=[(k, str(v)) for k, v in form.multi_items()],
        body=body,
    )
    if not sender.verify_webhook(hook):
        raise AppError("Invalid webhook signature.", 403)
    update = sender.parse_status(hook)
    if update is not None:
        await engine.on_status(update, sender.name)
    return Response(status_code=204)


#: A transfer's steps the carrier posts: the person's leg ended, a warm transfer's whisper.
TRANSFER_STEPS = ("result", "whisper")


@router.post("/webhooks/{carrier}/transfer/{call_id}/{step}")
async def transfer_callback(
    carrier: str, call_id: str, step: str, request: Request, domain: CallsDep
) -> Response:
    """A transfer's result (`<Dial action>`) or a warm transfer's whisper (`<Number url>`),
    signed like the status callbacks (calls/transfers.py); answered with the carrier's TwiML."""
    engine = domain.flows
    sender = engine.carriers.named(carrier)
    if sender is None or step not in TRANSFER_STEPS:
        raise NotFound("Unknown carrier.")
    transfers = CallTransfers(engine, sender)
    body = await request.body()
    form = await request.form()
    hook = WebhookRequest(
        url=transfers.url(call_id, step),
        headers={k.lower(): v for k, v in request.headers.items()},
        form=[(k, str(v)) for k, v in form.multi_items()],
        body=body,
    )
    if not sender.verify_webhook(hook):
        raise AppError("Invalid webhook signature.", 403)
    if step == "whisper":
        answer = await transfers.whisper(call_id)
    else:
        result = sender.parse_transfer(hook)
        if result is None:
            raise AppError("Not a transfer result.", 400)
        answer = await transfers.finished(call_id, result)
    return Response(answer.body, media_type=answer.media_type)
