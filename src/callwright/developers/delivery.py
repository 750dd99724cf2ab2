"""The webhook deliverer: the `DELIVER_JOB` (sign, post, log the attempt, schedule the retry)
and the sweep that re-queues due deliveries (`tasks.SWEEP_JOB`, sent on a timer).

A delivery is claimed with a conditional UPDATE that sets its lease, so two senders never
make the same attempt at once; a sender that dies lets it go when the lease passes and the
sweeper queues it again, so a restart loses nothing. Each attempt is logged. 2xx ends it;
410 Gone fails it and disables its endpoint; anything else (an error status, a timeout, a
refused target) is retried after the next wait of the schedule (jittered), then failed. An
endpoint whose deliveries have all failed for a day is disabled and its owner e-mailed."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import httpx
from sqlalchemy.ext.asyncio import AsyncSession
from standardwebhooks.webhooks import EmptyWebhookSecretError, Webhook

from callwright.config import Settings
from callwright.developers import repository
from callwright.developers.outbox import DELIVER_JOB
from callwright.developers.service import new_signing_secret
from callwright.developers.ssrf import Guard, TargetRefused, private_targets
from callwright.kit.db import Database
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.mail.service import Mailer
from callwright.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint

log = logging.getLogger(__name__)

USER_AGENT = "Callwright-Webhooks/1"
#: Redirects followed per attempt (each hop checked by the guard).
MAX_REDIRECTS = 3
#: Bytes of the answer kept on the attempt.
EXCERPT_BYTES = 500
#: An endpoint whose deliveries have all failed this long is disabled.
FAILING_LIMIT = timedelta(hours=24)
#: Deliveries the sweeper queues per pass.
SWEEP_BATCH = 500
#: How much longer than the longest attempt a sender holds a delivery (then the sweeper may
#: give it to another sender: one whose process died lets it go this late).
LEASE_MARGIN_SECONDS = 5
#: Each wait of the schedule is multiplied by a random factor in this range.
JITTER = (0.8, 1.2)


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    response_ms: int
    excerpt: str
    error: str | None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclass(frozen=True)
class Claimed:
    url: str
    payload: str
    secret: str
    #: A call's own webhook (no endpoint): Bland's shape, signed Bland's way too.
    bland: bool = False


def signed_headers(
    secret: str, msg_id: str, at: datetime, body: str, *, bland: bool = False
) -> dict[str, str]:
    """The Standard Webhooks headers of `body` (and the content type and user agent); with
    `bland` (a call's own webhook), Bland's `X-Webhook-Signature` too: the hex HMAC-SHA256 of
    the body, keyed with the signing secret as the dashboard shows it (docs/webhooks.md)."""
    headers = {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, at, body),
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }
    if bland:
        digest = hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()
        headers["x-webhook-signature"] = digest
    return headers


class Deliverer:
    def __init__(
        self,
        settings: Settings,
        db: Database,
        jobs: JobQueue,
        mailer: Mailer,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self.jobs = jobs
        self.mailer = mailer
        rule = private_targets(settings)
        self.guard = Guard.of(settings)
        #: Whether an attempt's log keeps a private target's answer (not when the operator
        #: allowed private targets on a server others reach: they could read its network).
        self.keep_private_bodies = rule.keep_bodies
        #: The waits before each retry, in seconds (tests shorten it).
        self.schedule: Sequence[float] = tuple(settings.webhook_retry_seconds)
        self.failing_limit = FAILING_LIMIT
        self.timeout = settings.webhook_timeout_seconds
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        #: Deliveries the sweeper queued (monotonic time) whose job has not run here yet.
        self._queued: dict[str, float] = {}

    @property
    def lease(self) -> timedelta:
        """How long a sender holds a delivery: longer than one attempt may take."""
        return timedelta(seconds=self.timeout * (MAX_REDIRECTS + 1) + LEASE_MARGIN_SECONDS)

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout),
                follow_redirects=False,
                trust_env=False,  # no proxy from the environment: it would undo the pinning
                # Connections are keyed by the pinned address: one kept open for a host could
                # carry another host's request on the same address without checking its TLS
                # certificate. Each attempt opens its own.
                limits=httpx.Limits(max_keepalive_connections=0),
                transport=self._transport,
            )
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # The job

    async def deliver(self, delivery_id: str) -> None:
        """One attempt of `delivery_id`, when it is due and no other sender holds it."""
        try:
            claimed = await self._claim(delivery_id)
            if claimed is None:
                return
            at = utcnow()
            outcome = await self.attempt(delivery_id, claimed, at)
            await self._record(delivery_id, at, outcome)
        finally:
            self._queued.pop(delivery_id, None)

    async def _claim(self, delivery_id: str) -> Claimed | None:
        # Never `return` inside `async for ... db.session()`: the unit of work would be left
        # open, neither committed nor rolled back.
        claimed: Claimed | None = None
        async for session in self.db.session():
            claimed = await self._take(session, delivery_id)
        return claimed

    async def _take(self, session: AsyncSession, delivery_id: str) -> Claimed | None:
        now = utcnow()
        if not await repository.claim(session, delivery_id, now, now + self.lease):
            return None
        delivery = await repository.delivery(session, delivery_id)
        if delivery is None:
            return None
        secret = await self._secret(session, delivery, now)
        if secret is None:
            return None
        return Claimed(
            url=delivery.url,
            payload=delivery.payload,
            secret=secret,
            bland=delivery.endpoint_id is None,
        )

    async def _secret(
        self, session: AsyncSession, delivery: WebhookDelivery, now: datetime
    ) -> str | None:
        """The secret that signs `delivery`, or None when it must not be sent (its endpoint
        was disabled: the delivery is cancelled)."""
        if delivery.endpoint_id is not None:
            endpoint = await repository.endpoint(session, delivery.endpoint_id)
            if endpoint is None or not endpoint.enabled:
                delivery.status = "cancelled"
                delivery.finished_at = now
                delivery.lease_until = None
                return None
            # Retries follow the endpoint when its owner changes its URL.
            delivery.url = endpoint.url
            return endpoint.secret
        return await repository.signing_secret(session, delivery.user_id, new_signing_secret())

    async def attempt(self, msg_id: str, claimed: Claimed, at: datetime) -> Outcome:
        """Sign and post the delivery, following redirects by hand (each hop checked)."""
        started = time.monotonic()
        try:
            headers = signed_headers(
                claimed.secret, msg_id, at, claimed.payload, bland=claimed.bland
            )
        except (ValueError, TypeError, EmptyWebhookSecretError) as exc:  # not a whsec_ secret
            return Outcome(None, 0, "", f"The signing secret is not usable: {exc}")
        body = claimed.payload.encode()

        def elapsed() -> int:
            return int((time.monotonic() - started) * 1000)

        url: str | httpx.URL = claimed.url
        try:
            async with asyncio.timeout(self.timeout * (MAX_REDIRECTS + 1)):
                for _hop in range(MAX_REDIRECTS + 1):
                    target = await self.guard.resolve(url)
                    pinned, host, extensions = target.pinned()
                    async with self.client().stream(
                        "POST", pinned, content=body, headers=headers | host, extensions=extensions
                    ) as response:
                        location = response.headers.get("location")
                        if response.is_redirect and location:
                            url = target.url.join(location)
                            continue
                        withheld = target.private is not None and not self.keep_private_bodies
                        excerpt = "" if withheld else await _excerpt(response)
                        return Outcome(response.status_code, elapsed(), excerpt, None)
            return Outcome(None, elapsed(), "", f"More than {MAX_REDIRECTS} redirects.")
        except TargetRefused as exc:
            return Outcome(None, elapsed(), "", str(exc))
        except TimeoutError:
            return Outcome(None, elapsed(), "", "Timed out.")
        except httpx.HTTPError as exc:
            return Outcome(None, elapsed(), "", f"{type(exc).__name__}: {exc}".rstrip(": "))

    async def _record(self, delivery_id: str, at: datetime, outcome: Outcome) -> None:
        async for session in self.db.session():
            await self._apply(session, delivery_id, at, outcome)

    async def _apply(
        self, session: AsyncSession, delivery_id: str, at: datetime, outcome: Outcome
    ) -> None:
        """The attempt logged and its outcome applied: delivered, failed or retried later."""
        delivery = await repository.delivery(session, delivery_id)
        if delivery is None:
            return
        now = utcnow()
        session.add(
            WebhookAttempt(
                delivery_id=delivery_id,
                attempted_at=at,
                status_code=outcome.status_code,
                response_ms=outcome.response_ms,
                response_excerpt=outcome.excerpt,
                error=outcome.error,
            )
        )
        delivery.attempts += 1
        delivery.last_status_code = outcome.status_code
        delivery.lease_until = None
        endpoint = (
            await repository.endpoint(session, delivery.endpoint_id)
            if delivery.endpoint_id is not None
            else None
        )
        if outcome.ok:
            delivery.status = "delivered"
            delivery.finished_at = now
            if endpoint is not None:
                endpoint.failing_since = None
            return
        if outcome.status_code == 410:
            delivery.status = "failed"
            delivery.finished_at = now
            if endpoint is not None:
                await self._disable(session, endpoint, "The endpoint answered 410 Gone.", now)
            return
        if delivery.attempts > len(self.schedule):
            delivery.status = "failed"
            delivery.finished_at = now
        else:
            wait = self.schedule[delivery.attempts - 1] * random.uniform(*JITTER)  # noqa: S311
            delivery.next_attempt_at = now + timedelta(seconds=wait)
        if endpoint is not None:
            if endpoint.failing_since is None:
                endpoint.failing_since = at
            elif endpoint.enabled and now - endpoint.failing_since >= self.failing_limit:
                await self._disable(
                    session, endpoint, "Every delivery to it failed for 24 hours.", now
                )

    async def _disable(
        self, session: AsyncSession, endpoint: WebhookEndpoint, reason: str, now: datetime
    ) -> None:
        """Turn `endpoint` off (its pending deliveries cancelled) and tell its owner."""
        endpoint.enabled = False
        endpoint.disabled_reason = reason
        await session.flush()
        await repository.cancel_pending(session, endpoint.id, now)
        owner = await repository.user(session, endpoint.user_id)
        log.warning("webhook endpoint %s disabled: %s", endpoint.id, reason)
        if owner is None:
            return
        await self.mailer.send_link_email(
            session,
            to=owner.email,
            kind="webhook-endpoint-disabled",
            subject="Your webhook endpoint was disabled",
            greeting=f"Hi {owner.name},",
            intro=f"We disabled your webhook endpoint {endpoint.url}. {reason} "
            "No more deliveries are attempted to it.",
            action="Review your webhook endpoints",
            link=f"{self.settings.app_url}/dashboard/developers",
            outro="Once it answers again, enable it on the developers page; failed deliveries "
            "can be resent from the delivery log.",
        )

    # The sweeper

    async def sweep(self) -> int:
        """Queue every due delivery no sender holds (retries, and those a stopped worker left);
        answers how many it queued."""
        ids: Sequence[str] = ()
        async for session in self.db.session():
            ids = await repository.due_ids(session, utcnow(), SWEEP_BATCH)
        # What this process queued and no job of its own has run yet is left alone for a while,
        # so a backlog (slow receivers) does not fill the queue with repeats every sweep.
        now = time.monotonic()
        wait = self.lease.total_seconds()
        self._queued = {i: t for i, t in self._queued.items() if now - t < wait}
        fresh = [i for i in ids if i not in self._queued]
        for delivery_id in fresh:
            self._queued[delivery_id] = now
            await self.jobs.send(DELIVER_JOB, delivery_id)
        return len(fresh)


async def _excerpt(response: httpx.Response) -> str:
    kept = b""
    async for chunk in response.aiter_bytes():
        kept += chunk
        if len(kept) >= EXCERPT_BYTES:
            break
    return kept[:EXCERPT_BYTES].decode("utf-8", errors="replace")
