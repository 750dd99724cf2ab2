"""Calling hours on every user's call: Send Call and `POST /v1/calls` are refused outside the
window in the callee's zone (with when it opens), a scheduled call is judged at its start time,
and nothing is held or stored for a refused call; the free test call is not a user's call."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.models import Call, User
from tests.factories import add_api_key, make_client, signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental, confirming the cleaning tomorrow at 3 pm."
SAN_FRANCISCO = "+14155550123"
#: 05:00 in San Francisco, 13:00 in London, 08:00 in New York (January: no daylight saving).
DAWN_IN_SF = datetime(2027, 1, 12, 13, 0, tzinfo=UTC)


@pytest.fixture
def lawful_hours(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The product's default window, at a fixed time: 13:00 UTC on 12 January 2027."""
    service = app.state.calls.service
    monkeypatch.setattr(service.settings, "calling_hours", "08:00-21:00")
    monkeypatch.setattr(service.settings, "default_timezone", "America/New_York")
    monkeypatch.setattr(service, "clock", lambda: DAWN_IN_SF)


async def stored(app: FastAPI, user_id: int) -> tuple[int, int]:
    """The user's calls and balance."""
    async with app.state.db.sessionmaker() as session:
        count = await session.scalar(select(func.count()).where(Call.user_id == user_id))
        user = await session.get(User, user_id)
        assert user is not None
        return int(count or 0), user.balance_cents


def send_call(user_id: int, phone: str) -> dict[str, Any]:
    return {
        "userId": user_id,
        "phone": phone,
        "prompt": PROMPT,
        "max_duration": 1,
        "voice": "joe",
        "waitGreeting": False,
        "temperature": 0.7,
        "interruption_threshold": 100,
        "background_audio": "null",
    }


@pytest.mark.usefixtures("lawful_hours")
async def test_send_call_is_refused_before_the_callees_morning(app: FastAPI) -> None:
    client, user = await signed_in(app, "early@example.com", balance_cents=5_000)
    async with client:
        refused = await client.api("POST", "send-call", json=send_call(user.id, SAN_FRANCISCO))
        assert refused.status_code == 400, refused.text
        message = (
            "Outside calling hours: +14155550123 may be called from 08:00 to 21:00 its local "
            "time (America/Los_Angeles); it is 05:00 there. The next window opens at "
            "2027-01-12 16:00 UTC."
        )
        assert refused.json()["message"] == message
        assert refused.json()["errors"] == {"phone_number": [message]}
        assert await stored(app, user.id) == (0, 5_000), "nothing stored, nothing held"
        # London is at lunch; a number that does not say where it rings is judged in the
        # default zone (08:00 in New York: open).
        for open_number in ("+442079460123", "+15551230000"):
            placed = await client.api("POST", "send-call", json=send_call(user.id, open_number))
            assert placed.status_code == 200, placed.text


@pytest.mark.usefixtures("lawful_hours")
async def test_the_default_zone_is_named_when_the_number_does_not_say(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.calls.service.settings, "default_timezone", "Asia/Tokyo")
    client, user = await signed_in(app, "tokyo@example.com", balance_cents=5_000)
    async with client:
        refused = await client.api("POST", "send-call", json=send_call(user.id, "+15551230000"))
    assert refused.status_code == 400
    assert refused.json()["message"] == (
        "Outside calling hours: +15551230000 may be called from 08:00 to 21:00 its local time "
        "(Asia/Tokyo: the number does not say where it rings); it is 22:00 there. The next "
        "window opens at 2027-01-12 23:00 UTC."
    )


@pytest.mark.usefixtures("lawful_hours")
async def test_the_api_refuses_in_blands_shape_and_judges_a_schedule_at_its_time(
    app: FastAPI,
) -> None:
    client, user = await signed_in(app, "api@example.com", balance_cents=5_000)
    await client.aclose()
    key = await add_api_key(app, user)
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"authorization": key}
    ) as api:
        now = await api.post("/v1/calls", json={"phone_number": SAN_FRANCISCO, "task": PROMPT})
        assert now.status_code == 400, now.text
        body = now.json()
        assert body["status"] == "error"
        assert body["message"].startswith("Outside calling hours: +14155550123")
        assert list(body["errors"]) == ["phone_number"]
        # At 09:00 in San Francisco (17:00 UTC) a call there may ring (another number: the
        # API takes one call per number every 10 seconds).
        later = await api.post(
            "/v1/calls",
            json={
                "phone_number": "+14155550124",
                "task": PROMPT,
                "start_time": "2027-01-12 17:00:00 +00:00",
            },
        )
        assert later.status_code == 200, later.text
        # At 22:00 there it may not.
        night = await api.post(
            "/v1/calls",
            json={
                "phone_number": "+14155550125",
                "task": PROMPT,
                "start_time": "2027-01-13 06:00:00 +00:00",
            },
        )
        assert night.status_code == 400, night.text
        assert "it is 22:00 there" in night.json()["message"]
    assert (await stored(app, user.id))[0] == 1


@pytest.mark.usefixtures("lawful_hours")
async def test_the_free_test_call_is_not_bound_by_calling_hours(app: FastAPI) -> None:
    """The visitor asks for it to ring their own phone, now."""
    async with make_client(app, ip="203.0.113.50") as visitor:
        response = await visitor.api("POST", "test-call", json={"phone_number": SAN_FRANCISCO})
    assert response.status_code == 200, response.text
