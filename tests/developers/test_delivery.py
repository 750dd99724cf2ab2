"""Webhook deliveries end to end: written by the outbox, signed the Standard Webhooks way,
verified by a real receiver on loopback, retried with the (shortened) schedule, every attempt
logged; 410 disables the endpoint, a day of failures too (its owner is e-mailed); a delivery is
sent by one sender at a time; the log and resend through the API."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI

from callwright.config import Settings
from callwright.developers.delivery import EXCERPT_BYTES, USER_AGENT, Deliverer
from callwright.kit.serving import free_port
from callwright.main import create_app
from callwright.models import WebhookDelivery, WebhookEndpoint
from tests.calls.test_calls_api import add_call
from tests.developers.receiver import Receiver, receiving
from tests.factories import ApiClient, outbox, signed_in

pytestmark = pytest.mark.asyncio

FAST = (0.01, 0.01, 0.01)


@pytest.fixture
def deliverer(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> Deliverer:
    found: Deliverer = app.state.deliverer
    monkeypatch.setattr(found, "schedule", FAST)
    return found


async def emit(app: FastAPI, user_id: int, event: str = "call.ended", **kwargs: Any) -> list[str]:
    """Emit `event` the way the calls domain does: in a unit of work, the jobs after commit."""
    ids: list[str] = []
    async for session in app.state.db.session():
        ids = await app.state.outbox.emit(
            session, user_id=user_id, event=event, data={"call_id": "c1", "price": 0.09}, **kwargs
        )
    return ids


async def post_call(app: FastAPI, user_id: int, url: str) -> list[str]:
    """A call's own webhook, the way the call's life writes it (Bland's shape), jobs after commit."""
    call = await add_call(app, user_id)
    ids: list[str] = []
    async for session in app.state.db.session():
        ids = await app.state.outbox.post_call(
            session,
            user_id=user_id,
            call_id=call.id,
            url=url,
            data={"call_id": "c1", "price": 0.09},
        )
    return ids


async def emit_unqueued(app: FastAPI, user_id: int, event: str, call_id: str) -> list[str]:
    """Deliveries written and committed without the after-commit work: no job is queued (as
    when a process stops right after its commit)."""
    async with app.state.db.sessionmaker() as session:
        ids: list[str] = await app.state.outbox.emit(
            session, user_id=user_id, event=event, data={"call_id": call_id}
        )
        await session.commit()
    return ids


async def settle(app: FastAPI, ids: Sequence[str], within: float = 5) -> list[WebhookDelivery]:
    """Run the jobs and the sweeper until none of `ids` is pending."""
    deliverer: Deliverer = app.state.deliverer
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        await app.state.jobs.drain()
        async with app.state.db.sessionmaker() as session:
            rows = [await session.get(WebhookDelivery, i) for i in ids]
        found = [r for r in rows if r is not None]
        if all(r.status != "pending" for r in found):
            return found
        assert loop.time() < deadline, [(r.id, r.status, r.attempts) for r in found]
        await asyncio.sleep(0.03)
        await deliverer.sweep()


async def add_endpoint(client: ApiClient, url: str, **fields: Any) -> dict[str, Any]:
    response = await client.api("POST", "webhook-endpoints", json={"url": url, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_retried_after_500s_until_delivered_and_every_attempt_logged(
    app: FastAPI, deliverer: Deliverer
) -> None:
    client, user = await signed_in(app, "hooks@example.com")
    async with client, receiving(Receiver(answers=[500, 503])) as receiver:
        created = await add_endpoint(client, receiver.url + "/hook", events=["call.ended"])
        receiver.secret = created["secret"]
        assert created["secret"].startswith("whsec_")
        [delivery_id] = await emit(app, user.id)
        [done] = await settle(app, [delivery_id])

        assert done.status == "delivered"
        assert done.attempts == 3
        assert len(receiver.received) == 3
        assert all(r.verified is not None for r in receiver.received)
        assert {r.headers["webhook-id"] for r in receiver.received} == {delivery_id}
        first = receiver.received[0]
        assert first.headers["user-agent"] == USER_AGENT
        assert first.headers["content-type"] == "application/json"
        assert first.headers["webhook-signature"].startswith("v1,")
        assert first.verified["type"] == "call.ended"
        assert first.verified["data"] == {"call_id": "c1", "price": 0.09}

        detail = (await client.api("GET", f"webhook-deliveries/{delivery_id}")).json()["data"]
        assert detail["status"] == "delivered"
        assert json.loads(detail["payload"])["type"] == "call.ended"
        codes = [a["status_code"] for a in detail["attempts_log"]]
        assert codes == [500, 503, 200]
        for attempt in detail["attempts_log"]:
            assert attempt["response_excerpt"].startswith("answered")
            assert len(attempt["response_excerpt"].encode()) <= EXCERPT_BYTES
            assert attempt["response_ms"] >= 0
        # It succeeded: the endpoint is not failing.
        endpoint = (await client.api("GET", "webhook-endpoints")).json()["data"][0]
        assert endpoint["failing_since"] is None
        assert endpoint["enabled"] is True


async def test_a_calls_own_webhook_is_signed_with_the_users_signing_secret(
    app: FastAPI, deliverer: Deliverer
) -> None:
    client, user = await signed_in(app, "callhook@example.com")
    async with client, receiving() as receiver:
        # Created on first use; the same on every read.
        receiver.secret = (await client.api("GET", "developers/signing-secret")).json()["secret"]
        assert receiver.secret.startswith("whsec_")
        again_read = (await client.api("GET", "developers/signing-secret")).json()["secret"]
        assert again_read == receiver.secret
        [delivery_id] = await post_call(app, user.id, receiver.url + "/call")
        [done] = await settle(app, [delivery_id])
        assert done.status == "delivered"
        assert done.endpoint_id is None
        assert done.event == "call.ended"
        request = receiver.received[0]
        from standardwebhooks.webhooks import Webhook

        # Bland's shape: the call object itself, no envelope; signed both ways.
        payload = Webhook(receiver.secret).verify(request.body, request.headers)
        assert payload == {"call_id": "c1", "price": 0.09}
        body = request.body if isinstance(request.body, bytes) else request.body.encode()
        bland = hmac.new(receiver.secret.encode(), body, hashlib.sha256).hexdigest()
        assert request.headers["x-webhook-signature"] == bland

        rotated = (await client.api("POST", "developers/signing-secret/rotate")).json()["secret"]
        assert rotated != receiver.secret
        receiver.secret = rotated
        [again] = await post_call(app, user.id, receiver.url + "/call")
        await settle(app, [again])
        assert receiver.received[-1].verified is not None


async def test_410_fails_the_delivery_and_disables_the_endpoint(
    app: FastAPI, deliverer: Deliverer
) -> None:
    client, user = await signed_in(app, "gone@example.com")
    async with client, receiving(Receiver(answers=[410])) as receiver:
        created = await add_endpoint(client, receiver.url + "/gone")
        receiver.secret = created["secret"]
        [delivery_id] = await emit(app, user.id)
        [done] = await settle(app, [delivery_id])
        assert done.status == "failed"
        assert done.attempts == 1
        endpoint = (await client.api("GET", "webhook-endpoints")).json()["data"][0]
        assert endpoint["enabled"] is False
        assert "410" in endpoint["disabled_reason"]
        [mail] = await outbox(app, "gone@example.com")
        assert mail.kind == "webhook-endpoint-disabled"
        assert receiver.url + "/gone" in mail.body_text
        # A disabled endpoint gets no more deliveries.
        assert await emit(app, user.id) == []
        # Enabled again by its owner: a fresh start.
        turned_on = await client.api(
            "PUT", f"webhook-endpoints/{endpoint['id']}", json={"enabled": True}
        )
        assert turned_on.json()["data"]["disabled_reason"] is None
        assert len(await emit(app, user.id)) == 1


async def test_the_schedule_runs_out_and_the_delivery_fails(
    app: FastAPI, deliverer: Deliverer
) -> None:
    client, user = await signed_in(app, "fails@example.com")
    async with client, receiving(Receiver(answers=[500] * 10)) as receiver:
        created = await add_endpoint(client, receiver.url + "/down")
        receiver.secret = created["secret"]
        [delivery_id] = await emit(app, user.id)
        [done] = await settle(app, [delivery_id])
        assert done.status == "failed"
        assert done.attempts == len(FAST) + 1
        assert done.finished_at is not None
        endpoint = (await client.api("GET", "webhook-endpoints")).json()["data"][0]
        assert endpoint["failing_since"] is not None
        assert endpoint["enabled"] is True  # not a day yet

        # Resend: a new attempt now, this time answered.
        receiver.answers.clear()
        resent = await client.api("POST", f"webhook-deliveries/{delivery_id}/resend")
        assert resent.status_code == 200, resent.text
        assert resent.json()["data"]["status"] == "pending"
        [again] = await settle(app, [delivery_id])
        assert again.status == "delivered"
        assert again.attempts == len(FAST) + 2
        endpoint = (await client.api("GET", "webhook-endpoints")).json()["data"][0]
        assert endpoint["failing_since"] is None


async def test_an_endpoint_failing_for_a_day_is_disabled_and_its_owner_emailed(
    app: FastAPI, deliverer: Deliverer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deliverer, "failing_limit", timedelta(0))
    client, user = await signed_in(app, "daylong@example.com")
    async with client, receiving(Receiver(answers=[500] * 10)) as receiver:
        created = await add_endpoint(client, receiver.url + "/down")
        receiver.secret = created["secret"]
        ids = await emit(app, user.id) + await emit(app, user.id, event="call.analyzed")
        done = await settle(app, ids)
        # A failure found it failing "for a day": disabled, its pending deliveries cancelled.
        assert [d.status for d in done] == ["cancelled", "cancelled"]
        async with app.state.db.sessionmaker() as session:
            endpoint = await session.get(WebhookEndpoint, created["data"]["id"])
        assert endpoint is not None
        assert endpoint.enabled is False
        assert endpoint.disabled_reason is not None
        assert "24 hours" in endpoint.disabled_reason
        mails = await outbox(app, "daylong@example.com")
        assert [m.kind for m in mails] == ["webhook-endpoint-disabled"]
        assert "/dashboard/developers" in (mails[0].link or "")
        # Resending to a disabled endpoint is refused until it is enabled again.
        refused = await client.api("POST", f"webhook-deliveries/{ids[0]}/resend")
        assert refused.status_code == 422


async def test_two_senders_never_make_the_same_attempt(app: FastAPI, deliverer: Deliverer) -> None:
    client, user = await signed_in(app, "race@example.com")
    async with client, receiving() as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        receiver.secret = created["secret"]
        [delivery_id] = await emit_unqueued(app, user.id, "call.queued", "c2")
        await asyncio.gather(*(deliverer.deliver(delivery_id) for _ in range(5)))
        assert len(receiver.received) == 1
        [done] = await settle(app, [delivery_id])
        assert done.status == "delivered"
        assert done.attempts == 1


async def test_the_sweeper_sends_what_no_job_was_queued_for(
    app: FastAPI, deliverer: Deliverer
) -> None:
    """A delivery whose job was lost (the process stopped before it ran) is picked up."""
    client, user = await signed_in(app, "sweep@example.com")
    async with client, receiving() as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        receiver.secret = created["secret"]
        ids = await emit_unqueued(app, user.id, "call.started", "c3")
        assert await deliverer.sweep() == 1
        [done] = await settle(app, ids)
        assert done.status == "delivered"
        assert len(receiver.verified()) == 1


async def test_events_reach_only_subscribed_enabled_endpoints(
    app: FastAPI, deliverer: Deliverer
) -> None:
    client, user = await signed_in(app, "subs@example.com")
    async with client, receiving() as receiver:
        ended = await add_endpoint(client, receiver.url + "/ended", events=["call.ended"])
        await add_endpoint(client, receiver.url + "/analyzed", events=["call.analyzed"])
        await add_endpoint(client, receiver.url + "/off", enabled=False)
        ids = await emit(app, user.id, event="call.ended")
        assert len(ids) == 1
        receiver.secret = ended["secret"]
        await settle(app, ids)
        assert [r.path for r in receiver.verified()] == ["/ended"]


async def test_a_receiving_process_sweeps_by_itself(app: FastAPI, migrated: Settings) -> None:
    """With the sweep on (its job sent every CALLWRIGHT_WEBHOOK_SWEEP_SECONDS by the scheduler),
    a process with the embedded worker sends a delivery nobody queued a job for, with no test
    driving it."""
    client, user = await signed_in(app, "selfsweep@example.com")
    async with client, receiving() as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        receiver.secret = created["secret"]
        ids = await emit_unqueued(app, user.id, "call.ended", "c4")
        other = create_app(migrated.model_copy(update={"webhook_sweep_seconds": 1}))
        async with other.router.lifespan_context(other):
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while not receiver.verified():
                assert loop.time() < deadline
                await asyncio.sleep(0.05)
            await other.state.jobs.drain()
        async with app.state.db.sessionmaker() as session:
            done = await session.get(WebhookDelivery, ids[0])
        assert done is not None
        assert done.status == "delivered"


async def test_retries_follow_the_endpoints_new_url(app: FastAPI, deliverer: Deliverer) -> None:
    client, user = await signed_in(app, "moved@example.com")
    async with client, receiving(Receiver(answers=[500])) as receiver:
        created = await add_endpoint(client, receiver.url + "/old")
        receiver.secret = created["secret"]
        [delivery_id] = await emit(app, user.id)
        await app.state.jobs.drain()  # the first attempt: 500 at /old
        moved = await client.api(
            "PUT", f"webhook-endpoints/{created['data']['id']}", json={"url": receiver.url + "/new"}
        )
        assert moved.status_code == 200
        [done] = await settle(app, [delivery_id])
        assert done.status == "delivered"
        assert done.url == receiver.url + "/new"
        assert [r.path for r in receiver.received] == ["/old", "/new"]


class SentJobs:
    """A job queue that only records what it was sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, ...]] = []

    async def send(self, name: str, *args: str) -> None:
        self.sent.append((name, *args))


async def test_the_sweeper_does_not_queue_a_delivery_again_while_its_job_waits(
    app: FastAPI, migrated: Settings
) -> None:
    _, user = await signed_in(app, "backlog@example.com")
    jobs = SentJobs()
    sweeper = Deliverer(migrated, app.state.db, jobs, app.state.mailer)  # type: ignore[arg-type]
    async with app.state.db.sessionmaker() as session:
        [delivery_id] = await app.state.outbox.post_call(
            session,
            user_id=user.id,
            call_id=(await add_call(app, user.id)).id,
            url=f"http://127.0.0.1:{free_port()}/",
            data={},
        )
        await session.commit()
    assert await sweeper.sweep() == 1
    assert await sweeper.sweep() == 0  # its job has not run yet: no repeat in the queue
    assert jobs.sent == [("webhooks.deliver", delivery_id)]
    # Its job runs here; nobody listens there, so it is due again at once: queued again.
    sweeper.schedule = (0.0,)
    await sweeper.deliver(delivery_id)
    async with app.state.db.sessionmaker() as session:
        tried = await session.get(WebhookDelivery, delivery_id)
    assert tried is not None
    assert tried.attempts == 1
    assert tried.status == "pending"
    assert await sweeper.sweep() == 1
    await sweeper.close()


async def test_the_deliverer_creates_the_signing_secret_the_page_then_shows(
    app: FastAPI, deliverer: Deliverer
) -> None:
    from standardwebhooks.webhooks import Webhook

    client, user = await signed_in(app, "firstuse@example.com")
    async with client, receiving() as receiver:
        # The receiver does not know the secret yet: it answers 400, and the delivery retries.
        [delivery_id] = await post_call(app, user.id, receiver.url + "/call")
        await app.state.jobs.drain()
        secret = (await client.api("GET", "developers/signing-secret")).json()["secret"]
        first = receiver.received[0]
        assert Webhook(secret).verify(first.body, first.headers)["call_id"] == "c1"
        receiver.secret = secret
        [done] = await settle(app, [delivery_id])
        assert done.status == "delivered"
        assert done.attempts == 2
