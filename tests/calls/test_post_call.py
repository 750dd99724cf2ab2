"""After every finished call with an owner: the analysis with the call's settings is stored and
reported as `call.analyzed` to the owner's subscribed endpoints, and the call's own webhook
gets the call object (Bland's shape, its summary in it), whether or not anyone answered; the dashboard's analyze button uses the same settings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.analysis import Analysis
from callwright.developers.outbox import DELIVER_JOB
from callwright.kit.time import utcnow
from callwright.models import Call, WebhookDelivery, WebhookEndpoint
from tests.factories import add_user, finished_call, signed_in

TALK = [
    ("assistant", "Hi, this is Sam from Acme Tours. How many people will join the tour?"),
    ("user", "Four of us. Yes, we'd love to come."),
]
SETTINGS: dict[str, Any] = {
    "dispositions": ["INTERESTED", "NOT_INTERESTED", "NO_ANSWER"],
    "analysis_schema": [{"name": "party_size", "type": "number", "description": "people"}],
    "call_metadata": {"crm_id": "lead-7"},
    "variables": {"name": "Dana"},
    "webhook_url": "https://hooks.example.invalid/calls",
}


@pytest.fixture
def deliverer(app: FastAPI) -> None:
    """The deliver job the outbox sends after commit is the webhook deliverer's (another
    part); where it is not registered, a no-op stands in so the send does not fail."""
    if app.state.jobs.broker.find_task(DELIVER_JOB) is None:

        async def deliver(_delivery_id: str) -> None:
            return None

        app.state.jobs.register(DELIVER_JOB, deliver)


async def _deliveries(app: FastAPI, call_id: str) -> list[WebhookDelivery]:
    """The call's `call.analyzed` deliveries (its `call.ended` ones are the lifecycle's), and
    the call's own webhook (sent once the analysis is stored)."""
    async with app.state.db.sessionmaker() as session:
        query = select(WebhookDelivery).where(
            WebhookDelivery.call_id == call_id,
            (WebhookDelivery.event == "call.analyzed") | WebhookDelivery.endpoint_id.is_(None),
        )
        return list((await session.scalars(query.order_by(WebhookDelivery.url))).all())


async def _stored(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
        assert call is not None
        return call


@pytest.mark.usefixtures("deliverer")
async def test_a_finished_call_is_analysed_and_reported(app: FastAPI) -> None:
    user = await add_user(app, email="hook@example.com")
    async with app.state.db.sessionmaker() as session:
        session.add_all(
            [
                WebhookEndpoint(
                    user_id=user.id,
                    url="https://crm.example.invalid/in",
                    events=["call.analyzed"],
                    secret="whsec_x",
                ),
                WebhookEndpoint(
                    user_id=user.id,
                    url="https://other.example.invalid/in",
                    events=["call.queued"],
                    secret="whsec_y",
                ),
            ]
        )
        await session.commit()
    call_id = await finished_call(app, user.id, TALK, **SETTINGS)
    await app.state.calls.flows.finalize(call_id)
    await app.state.jobs.drain()

    stored = await _stored(app, call_id)
    assert stored.analysis
    analysis = Analysis.from_json(stored.analysis)
    assert (analysis.disposition_tag, analysis.values()) == ("INTERESTED", {"party_size": 4})
    deliveries = await _deliveries(app, call_id)
    assert [(d.url, d.event) for d in deliveries] == [
        ("https://crm.example.invalid/in", "call.analyzed"),  # the subscribed endpoint
        ("https://hooks.example.invalid/calls", "call.ended"),  # the call's own webhook
    ]
    own = json.loads(deliveries[1].payload)  # Bland's shape: the call object, summary in it
    assert (own["call_id"], own["summary"]) == (call_id, analysis.summary)
    assert own["variables"]["name"] == "Dana"
    body = json.loads(deliveries[0].payload)
    assert body["type"] == "call.analyzed"
    assert body["data"] == {
        "call_id": call_id,
        "summary": analysis.summary,
        "disposition_tag": "INTERESTED",
        "analysis": {"party_size": 4},
        "outcome": "INTERESTED",  # the agent's own disposition
        "sentiment": "positive",
        "metadata": {"crm_id": "lead-7"},
        "variables": {"name": "Dana"},
    }


@pytest.mark.usefixtures("deliverer")
async def test_a_call_nobody_answered_is_reported_too(app: FastAPI) -> None:
    user = await add_user(app, email="noans@example.com")
    call_id = await finished_call(app, user.id, [], answered=False, **SETTINGS)
    await app.state.calls.flows.finalize(call_id)
    await app.state.jobs.drain()
    (own,) = await _deliveries(app, call_id)  # no endpoint subscribed: the call's own webhook
    data = json.loads(own.payload)
    assert (data["call_id"], data["status"], data["call_length"]) == (call_id, "no-answer", 0)
    stored = Analysis.from_json((await _stored(app, call_id)).analysis or "{}")
    assert (stored.outcome, stored.disposition_tag) == ("NO_ANSWER", "NO_ANSWER")
    assert stored.values() == {"party_size": None}


async def test_the_public_test_call_is_not_analysed(app: FastAPI) -> None:
    call_id = await finished_call(app, None, TALK, kind="test", **SETTINGS)
    await app.state.calls.flows.finalize(call_id)
    await app.state.jobs.drain()
    assert (await _stored(app, call_id)).analysis is None
    assert await _deliveries(app, call_id) == []


async def test_the_dashboards_analyze_uses_the_calls_settings(app: FastAPI) -> None:
    client, user = await signed_in(app, "dash-an@example.com")
    call_id = await finished_call(app, user.id, TALK, finalized_at=utcnow(), **SETTINGS)
    async with client:
        response = await client.api("POST", f"analyze-call/{call_id}")
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        details = (await client.api("GET", f"call-details/{call_id}")).json()["data"]
    assert data["disposition_tag"] == "INTERESTED"
    assert data["fields"] == {"party_size": {"value": 4, "line": 2}}
    assert details["analysis"] == data
