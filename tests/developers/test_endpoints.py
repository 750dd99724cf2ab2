"""Webhook endpoints and the delivery log through the dashboard API: CRUD, the secret shown
once, events validated, at most ten, each user on their own objects only."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from callwright.developers.outbox import EVENTS
from callwright.developers.service import MAX_ENDPOINTS
from callwright.models import WebhookDelivery
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

URL = "https://hooks.example.com/callwright"


async def test_create_list_update_delete(app: FastAPI) -> None:
    client, _ = await signed_in(app, "crud@example.com")
    async with client:
        created = await client.api(
            "POST",
            "webhook-endpoints",
            json={"url": URL, "description": " CRM ", "events": ["call.analyzed", "call.ended"]},
        )
        assert created.status_code == 201, created.text
        body = created.json()
        secret = body["secret"]
        assert secret.startswith("whsec_")
        endpoint = body["data"]
        # Kept in the catalogue's order.
        assert endpoint["events"] == ["call.ended", "call.analyzed"]
        assert endpoint["description"] == "CRM"
        assert endpoint["enabled"] is True

        listed = (await client.api("GET", "webhook-endpoints")).json()
        assert listed["pagination"]["total"] == 1
        assert secret not in str(listed)

        changed = await client.api(
            "PUT",
            f"webhook-endpoints/{endpoint['id']}",
            json={"url": URL + "/v2", "events": ["call.queued"], "enabled": False},
        )
        assert changed.status_code == 200, changed.text
        data = changed.json()["data"]
        assert data["url"] == URL + "/v2"
        assert data["events"] == ["call.queued"]
        assert data["enabled"] is False
        assert data["description"] == "CRM"  # left out: unchanged

        deleted = await client.api("DELETE", f"webhook-endpoints/{endpoint['id']}")
        assert deleted.status_code == 200
        assert (await client.api("GET", "webhook-endpoints")).json()["data"] == []


async def test_every_event_by_default_and_none_is_refused(app: FastAPI) -> None:
    client, _ = await signed_in(app, "events@example.com")
    async with client:
        created = (await client.api("POST", "webhook-endpoints", json={"url": URL})).json()
        assert created["data"]["events"] == list(EVENTS)
        for events in ([], ["call.exploded"], "call.ended"):
            response = await client.api(
                "POST", "webhook-endpoints", json={"url": URL, "events": events}
            )
            assert response.status_code == 422, events
            assert "events" in response.json()["errors"]
        bad_put = await client.api(
            "PUT", f"webhook-endpoints/{created['data']['id']}", json={"events": []}
        )
        assert bad_put.status_code == 422


async def test_at_most_ten_endpoints(app: FastAPI) -> None:
    client, _ = await signed_in(app, "tenhooks@example.com")
    async with client:
        for n in range(MAX_ENDPOINTS):
            response = await client.api("POST", "webhook-endpoints", json={"url": f"{URL}/{n}"})
            assert response.status_code == 201
        over = await client.api("POST", "webhook-endpoints", json={"url": URL})
        assert over.status_code == 422
        assert "at most 10" in over.json()["message"]


async def test_another_user_cannot_touch_an_endpoint_or_its_deliveries(app: FastAPI) -> None:
    owner, owner_user = await signed_in(app, "hookowner@example.com")
    other, _ = await signed_in(app, "hookother@example.com")
    async with owner, other:
        endpoint = (await owner.api("POST", "webhook-endpoints", json={"url": URL})).json()["data"]
        async with app.state.db.sessionmaker() as session:
            [delivery_id] = await app.state.outbox.emit(
                session, user_id=owner_user.id, event="call.ended", data={"call_id": "x"}
            )
            await session.commit()
        path = f"webhook-endpoints/{endpoint['id']}"
        assert (await other.api("PUT", path, json={"enabled": False})).status_code == 404
        assert (await other.api("DELETE", path)).status_code == 404
        assert (await other.api("GET", "webhook-endpoints")).json()["data"] == []
        assert (await other.api("GET", f"webhook-deliveries/{delivery_id}")).status_code == 404
        resend = await other.api("POST", f"webhook-deliveries/{delivery_id}/resend")
        assert resend.status_code == 404
        assert (await other.api("GET", "webhook-deliveries")).json()["data"] == []
        # The owner still has both.
        assert (await owner.api("GET", path.split("/")[0])).json()["pagination"]["total"] == 1
        assert (await owner.api("GET", f"webhook-deliveries/{delivery_id}")).status_code == 200


async def test_the_delivery_log_pages_and_filters(app: FastAPI) -> None:
    client, user = await signed_in(app, "log@example.com")
    async with client:
        first = (
            await client.api(
                "POST", "webhook-endpoints", json={"url": URL + "/a", "events": ["call.ended"]}
            )
        ).json()["data"]
        await client.api("POST", "webhook-endpoints", json={"url": URL + "/b"})
        async with app.state.db.sessionmaker() as session:
            for event in ("call.queued", "call.ended", "call.ended"):
                await app.state.outbox.emit(session, user_id=user.id, event=event, data={})
            await session.commit()
            await session.execute(
                update(WebhookDelivery)
                .where(WebhookDelivery.event == "call.queued")
                .values(status="failed")
            )
            await session.commit()
        everything = (await client.api("GET", "webhook-deliveries?per_page=2")).json()
        assert everything["pagination"]["total"] == 5  # call.queued: b; call.ended: a and b, twice
        assert len(everything["data"]) == 2
        created = [d["created_at"] for d in everything["data"]]
        assert created == sorted(created, reverse=True)
        ended = (await client.api("GET", "webhook-deliveries?event=call.ended")).json()
        assert ended["pagination"]["total"] == 4
        failed = (await client.api("GET", "webhook-deliveries?status=failed")).json()
        assert [d["event"] for d in failed["data"]] == ["call.queued"]
        assert failed["data"][0]["next_attempt_at"] is None
        to_first = (await client.api("GET", f"webhook-deliveries?endpoint_id={first['id']}")).json()
        assert to_first["pagination"]["total"] == 2
        bad = await client.api("GET", "webhook-deliveries?status=lost")
        assert bad.status_code == 422
        assert (await client.api("GET", "webhook-deliveries?event=nope")).status_code == 422
        missing = await client.api("GET", "webhook-deliveries/msg_nope")
        assert missing.status_code == 404
