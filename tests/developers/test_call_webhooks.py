"""A whole sandbox call reports to a receiver on loopback: the user's endpoint and the call's
own `webhook` URL each get the lifecycle's events, signed (the endpoint's secret, the user's
signing secret) and verified with `standardwebhooks`, though the receiver answered 500 to each
one's first attempt."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from callwright.developers.delivery import Deliverer
from callwright.developers.service import new_signing_secret
from callwright.kit.serving import free_port, serving
from callwright.models import User, WebhookDelivery, WebhookEndpoint
from tests.factories import add_user
from tests.live import Live

pytestmark = pytest.mark.asyncio

BUSY = "+15005550002"


class Receiver:
    """Verifies with the secret of the path it was posted to; 500 to each delivery's first
    attempt, then 200."""

    def __init__(self, secrets: dict[str, str]) -> None:
        self.secrets = secrets
        self.seen: set[str] = set()
        self.got: dict[str, list[dict[str, Any]]] = {path: [] for path in secrets}

    async def handle(self, request: Request) -> Response:
        path = request.url.path
        body = (await request.body()).decode()
        try:
            payload = Webhook(self.secrets[path]).verify(body, dict(request.headers))
        except (KeyError, WebhookVerificationError):
            return PlainTextResponse("bad signature", status_code=400)
        msg_id = request.headers["webhook-id"]
        if msg_id not in self.seen:
            self.seen.add(msg_id)
            return PlainTextResponse("try again", status_code=500)
        self.got[path].append(payload)
        return PlainTextResponse("ok")


async def test_a_finished_call_reports_to_both_targets_through_500s(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    deliverer: Deliverer = live.app.state.deliverer
    monkeypatch.setattr(deliverer, "schedule", (0.05,) * 5)
    user = await add_user(live.app, email="lifecycle@example.com", balance_cents=10_000)
    endpoint_secret, user_secret = new_signing_secret(), new_signing_secret()
    receiver = Receiver({"/endpoint": endpoint_secret, "/call": user_secret})
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    async with live.app.state.db.sessionmaker() as session:
        owner = await session.get(User, user.id)
        assert owner is not None
        owner.webhook_secret = user_secret
        session.add(
            WebhookEndpoint(
                user_id=user.id,
                url=f"{base}/endpoint",
                events=["call.queued", "call.ended", "call.analyzed"],
                secret=endpoint_secret,
            )
        )
        await session.commit()

    app = Starlette(routes=[Route("/{path:path}", receiver.handle, methods=["POST"])])
    async with serving(app, port):
        call_id = await live.place(BUSY, user_id=user.id, webhook_url=f"{base}/call")
        done = await live.wait_finalized(call_id, within=60)
        assert done.status == "busy"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while True:
            await live.app.state.jobs.drain()
            async with live.app.state.db.sessionmaker() as session:
                statuses = (
                    await session.scalars(
                        select(WebhookDelivery.status).where(WebhookDelivery.call_id == call_id)
                    )
                ).all()
            # call.queued, call.ended and call.analyzed to the endpoint; the call object once
            # to the call's own webhook.
            if len(statuses) >= 4 and set(statuses) == {"delivered"}:
                break
            assert loop.time() < deadline, statuses
            await asyncio.sleep(0.1)
            await deliverer.sweep()

    endpoint_events = [p["type"] for p in receiver.got["/endpoint"]]
    assert sorted(endpoint_events) == ["call.analyzed", "call.ended", "call.queued"]
    analyzed = next(p for p in receiver.got["/endpoint"] if p["type"] == "call.analyzed")
    assert analyzed["data"]["call_id"] == call_id
    assert analyzed["data"]["summary"]
    # The call's own webhook: Bland's shape, the call object once (after its 500).
    (own,) = receiver.got["/call"]
    assert (own["call_id"], own["status"]) == (call_id, "busy")
    assert "summary" in own
