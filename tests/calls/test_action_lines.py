"""An in-call action (a tool called, a transfer, keys pressed or heard) reported by the voice
agent: kept as the call's event (category "action"), published live with its details to the
owner and the admins, and written to the outbox as the `call.action` webhook."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.calls.events import CallEvents
from callwright.models import WebhookDelivery, WebhookEndpoint
from callwright.realtime.events import WEBHOOK_EVENT, LiveEvent, wire
from callwright.realtime.server import ADMIN_ROOM, user_room
from callwright.voice_agent.contract import ActionReport
from tests.calls.test_calls_api import add_call
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

TOOL = ActionReport(
    kind="tool",
    name="check_calendar",
    status="succeeded",
    summary="check_calendar answered in 312 ms",
    arguments={"day": "Tuesday"},
    result={"free": True},
    latency_ms=312,
)


async def test_an_action_is_kept_published_and_sent_as_a_webhook(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, user = await signed_in(app, "acts@example.com")
    call = await add_call(app, user.id, status="in-progress")
    async with app.state.db.sessionmaker() as session:
        session.add(
            WebhookEndpoint(
                user_id=user.id,
                url="https://hooks.example.com/c",
                events=["call.action"],
                secret="whsec_x",
            )
        )
        await session.commit()
    published: list[tuple[str, str, Any]] = []

    async def publish(room: str, event: LiveEvent) -> None:
        published.append((room, *wire(event)))

    hooks = app.state.calls.media.hooks(call.id)
    hooks.events = CallEvents(publish)
    # Put back after the test: the app is shared by the tests that follow.
    monkeypatch.setattr(app.state.calls.flows.life, "events", hooks.events)
    await hooks.action(TOOL)

    detail = {
        "kind": "tool",
        "name": "check_calendar",
        "status": "succeeded",
        "summary": "check_calendar answered in 312 ms",
        "arguments": {"day": "Tuesday"},
        "result": {"free": True},
        "latency_ms": 312,
    }
    live = {
        "callId": call.id,
        "message": "check_calendar answered in 312 ms",
        "category": "action",
        "completed": False,
        "action": detail,
    }
    assert published == [
        (ADMIN_ROOM, WEBHOOK_EVENT, live),
        (user_room(user.id), WEBHOOK_EVENT, live),
    ]
    async with client:
        events = (await client.api("GET", f"call/{call.id}/page")).json()["data"]["events"]
    assert [(e["category"], e["message"]) for e in events] == [
        ("action", "check_calendar answered in 312 ms")
    ]
    # The call's page shows the action itself: its arguments, status, result and latency.
    assert events[0]["action"] == detail
    async with app.state.db.sessionmaker() as session:
        rows = (
            await session.scalars(select(WebhookDelivery).where(WebhookDelivery.call_id == call.id))
        ).all()
    assert [row.event for row in rows] == ["call.action"]
    assert json.loads(rows[0].payload)["data"] == {"call_id": call.id, **detail}
