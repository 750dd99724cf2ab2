"""The webhook outbox: `Outbox.emit` writes one delivery row per target in the caller's
transaction (so an event is never reported for a change that rolled back, and a restart loses
none), and sends the delivery job for each after the commit. The deliverer
(`DELIVER_JOB`, developers/) signs and posts them, retries and logs every attempt.

Targets: each of the user's enabled endpoints subscribed to the event, and the call's own
`webhook` URL (for `call.*` events), which is signed with the user's signing secret."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.developers import repository
from callwright.kit.db import on_commit
from callwright.kit.jobs import JobQueue
from callwright.kit.security import random_token
from callwright.kit.time import utcnow
from callwright.models import WebhookDelivery

#: Deliver one webhook delivery by id (sent after the commit that wrote it; retries too).
DELIVER_JOB = "webhooks.deliver"

#: Every event an endpoint can subscribe to.
EVENTS = (
    "call.queued",
    "call.started",
    "call.action",
    "call.ended",
    "call.analyzed",
    "campaign.started",
    "campaign.paused",
    "campaign.completed",
)


def new_delivery_id() -> str:
    """The `webhook-id`: `msg_` and 27 URL-safe characters."""
    return "msg_" + random_token(20)


def envelope(event: str, data: Mapping[str, Any], at: datetime) -> str:
    """The body: Standard Webhooks' recommended `{type, timestamp, data}`."""
    return json.dumps(
        {"type": event, "timestamp": at.isoformat(), "data": data},
        separators=(",", ":"),
        default=str,
    )


class Outbox:
    def __init__(self, jobs: JobQueue) -> None:
        self.jobs = jobs

    async def emit(
        self,
        session: AsyncSession,
        *,
        user_id: int,
        event: str,
        data: Mapping[str, Any],
        call_id: str | None = None,
    ) -> list[str]:
        """Write the deliveries of `event` for `user_id`'s subscribed endpoints (answers their
        ids), in Standard Webhooks' envelope."""
        if event not in EVENTS:
            raise ValueError(f"unknown webhook event {event!r}")
        now = utcnow()
        endpoints = await repository.enabled_endpoints(session, user_id)
        targets: list[tuple[int | None, str]] = [
            (endpoint.id, endpoint.url) for endpoint in endpoints if event in endpoint.events
        ]
        return await self._write(
            session, user_id, event, envelope(event, data, now), targets, call_id, now
        )

    async def post_call(
        self,
        session: AsyncSession,
        *,
        user_id: int,
        call_id: str,
        url: str,
        data: Mapping[str, Any],
    ) -> list[str]:
        """Write the call's own `webhook` delivery, in Bland's shape: the call object itself
        (no envelope), once, when the call is over (signed with `X-Webhook-Signature` too:
        delivery.signed_headers). Its event in the delivery log is `call.ended`."""
        body = json.dumps(data, separators=(",", ":"), default=str)
        return await self._write(
            session, user_id, "call.ended", body, [(None, url)], call_id, utcnow()
        )

    async def _write(
        self,
        session: AsyncSession,
        user_id: int,
        event: str,
        body: str,
        targets: list[tuple[int | None, str]],
        call_id: str | None,
        now: datetime,
    ) -> list[str]:
        ids: list[str] = []
        for endpoint_id, url in targets:
            delivery = WebhookDelivery(
                id=new_delivery_id(),
                user_id=user_id,
                endpoint_id=endpoint_id,
                call_id=call_id,
                url=url,
                event=event,
                payload=body,
                status="pending",
                attempts=0,
                next_attempt_at=now,
                created_at=now,
            )
            session.add(delivery)
            ids.append(delivery.id)
        if ids:
            await session.flush()
            queued = list(ids)

            async def send() -> None:
                for delivery_id in queued:
                    await self.jobs.send(DELIVER_JOB, delivery_id)

            on_commit(session, send)
        return ids
