"""Calling hours on every user's call, on the product's default window (08:00-21:00 in the
callee's zone) at injected clocks.

On the sandbox carrier (the embedded default) every callee is simulated: Send Call and
`POST /v1/calls` place the call at any hour, and say once, in the user's own zone, what a real
carrier would have done. With the Twilio carrier (here pointed at the sandbox's Twilio dialect)
the rule binds in full: the call is refused with the next opening in the user's zone, a
scheduled call is judged at its start time, nothing is held or stored for a refused call, and
Send Call may schedule it for the opening. The free test call is not a user's call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.config import Settings
from callwright.main import create_app
from callwright.models import Call, CallEvent, User
from callwright.sandbox.network import sandbox_credentials
from tests.factories import ApiClient, add_api_key, make_client, signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental, confirming the cleaning tomorrow at 3 pm."
SAN_FRANCISCO = "+14155550123"
#: The README's demo number: a `+1 555` number, judged in the default zone (New York); only
#: the sandbox carrier dials it.
DEMO = "+15551230000"
#: A real New York number, and a toll-free one that does not say where it rings (for Twilio).
NEW_YORK = "+12125550123"
TOLL_FREE = "+18002752273"
#: 05:00 in San Francisco, 13:00 in London, 08:00 in New York (January: no daylight saving).
DAWN_IN_SF = datetime(2027, 1, 12, 13, 0, tzinfo=UTC)
#: 04:00 in New York, 10:00 in Berlin: a weekday morning in Europe.
EUROPEAN_MORNING = datetime(2027, 1, 12, 9, 0, tzinfo=UTC)


@pytest.fixture
async def twilio_app(migrated: Settings, app: FastAPI) -> AsyncIterator[FastAPI]:
    """The app on the Twilio carrier, its REST API the sandbox's Twilio dialect (the same
    database as `app`, which the suite wipes before each test)."""
    sid, token = sandbox_credentials(migrated.secret_key)
    settings = migrated.model_copy(
        update={
            "carrier": "twilio",
            "twilio_api_url": f"{migrated.sandbox_base_url}/sandbox/twilio",
            "twilio_account_sid": sid,
            "twilio_auth_token": token,
            "twilio_from_number": "+18885550199",
        }
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


def at(application: FastAPI, moment: datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's calls judged at `moment` (the default window and zone, as a user gets them)."""
    service = application.state.calls.service
    assert service.settings.calling_hours == "08:00-21:00", "the product's default"
    assert service.settings.default_timezone == "America/New_York", "the product's default"
    monkeypatch.setattr(service, "clock", lambda: moment)


async def stored(app: FastAPI, user_id: int) -> tuple[int, int]:
    """The user's calls and balance."""
    async with app.state.db.sessionmaker() as session:
        count = await session.scalar(select(func.count()).where(Call.user_id == user_id))
        user = await session.get(User, user_id)
        assert user is not None
        return int(count or 0), user.balance_cents


async def compliance_events(app: FastAPI, call_id: str) -> list[str]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.scalars(
            select(CallEvent.message).where(
                CallEvent.call_id == call_id, CallEvent.category == "compliance"
            )
        )
        return list(rows)


def send_call(user_id: int, phone: str, **more: Any) -> dict[str, Any]:
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
        **more,
    }


def api_client(app: FastAPI, key: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    return httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"authorization": key}
    )


async def berlin_user(app: FastAPI, email: str) -> tuple[ApiClient, User]:
    """A new user who reads times in Berlin, and a client carrying their token."""
    client, user = await signed_in(app, email, balance_cents=5_000)
    async with client:
        zone = await client.api("PUT", "user/timezone", json={"timezone": "Europe/Berlin"})
        assert zone.status_code == 200, zone.text
        assert zone.json()["data"]["timezone"] == "Europe/Berlin"
    again = make_client(app)
    again.token = client.token
    return again, user


# --- the sandbox carrier: the embedded default -------------------------------------------------


@pytest.mark.parametrize(
    ("moment", "notice"),
    [
        (
            EUROPEAN_MORNING,
            "Outside calling hours in America/New_York (it is 04:00 there); with a real carrier "
            "this call would wait until 14:00 your time (Europe/Berlin). The sandbox's callees "
            "are simulated, so it rings now.",
        ),
        (
            datetime(2027, 1, 12, 3, 30, tzinfo=UTC),  # 22:30 the evening before in New York
            "Outside calling hours in America/New_York (it is 22:30 there); with a real carrier "
            "this call would wait until 14:00 your time (Europe/Berlin). The sandbox's callees "
            "are simulated, so it rings now.",
        ),
        (
            datetime(2027, 1, 13, 2, 30, tzinfo=UTC),  # 21:30 in New York, 03:30 in Berlin
            "Outside calling hours in America/New_York (it is 21:30 there); with a real carrier "
            "this call would wait until 14:00 your time (Europe/Berlin). The sandbox's callees "
            "are simulated, so it rings now.",
        ),
        (datetime(2027, 1, 12, 15, 0, tzinfo=UTC), None),  # 10:00 in New York: open
    ],
)
async def test_the_readmes_demo_call_rings_at_any_hour_on_the_sandbox(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, moment: datetime, notice: str | None
) -> None:
    at(app, moment, monkeypatch)
    client, user = await berlin_user(app, "europe@example.com")
    async with client:
        placed = await client.api("POST", "send-call", json=send_call(user.id, DEMO))
    assert placed.status_code == 200, placed.text
    assert placed.json()["notice"] == notice
    assert placed.json()["scheduled_for"] is None
    events = await compliance_events(app, placed.json()["callId"])
    assert events == ([notice] if notice else []), "said once, in the call's events"


async def test_a_v1_call_to_a_sandbox_number_rings_at_4am_in_new_york(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(app, EUROPEAN_MORNING, monkeypatch)
    _, user = await berlin_user(app, "curl@example.com")
    key = await add_api_key(app, user)
    async with api_client(app, key) as api:
        placed = await api.post("/v1/calls", json={"phone_number": DEMO, "task": PROMPT})
    assert placed.status_code == 200, placed.text
    assert placed.json()["status"] == "success"
    assert "would wait until 14:00 your time (Europe/Berlin)" in placed.json()["notice"]


async def test_a_user_without_a_zone_reads_utc(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(app, EUROPEAN_MORNING, monkeypatch)
    client, user = await signed_in(app, "nozone@example.com", balance_cents=5_000)
    async with client:
        profile = await client.api("GET", "user/profile")
        assert profile.json()["data"]["timezone"] is None
        placed = await client.api("POST", "send-call", json=send_call(user.id, DEMO))
        bad = await client.api("PUT", "user/timezone", json={"timezone": "Mars/Olympus"})
    assert "would wait until 13:00 UTC." in placed.json()["notice"]
    assert bad.status_code == 422
    assert bad.json()["errors"]["timezone"] == [
        "'Mars/Olympus' is not a known time zone (e.g. Europe/Berlin)."
    ]


async def test_the_free_test_call_is_not_bound_by_calling_hours(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The visitor asks for it to ring their own phone, now."""
    at(app, DAWN_IN_SF, monkeypatch)
    async with make_client(app, ip="203.0.113.50") as visitor:
        response = await visitor.api("POST", "test-call", json={"phone_number": SAN_FRANCISCO})
    assert response.status_code == 200, response.text


# --- a real carrier: Twilio --------------------------------------------------------------------


async def test_twilio_refuses_a_call_at_4am_in_new_york_with_the_opening_in_the_users_zone(
    app: FastAPI, twilio_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(twilio_app, EUROPEAN_MORNING, monkeypatch)
    client, user = await berlin_user(twilio_app, "real@example.com")
    async with client:
        refused = await client.api("POST", "send-call", json=send_call(user.id, NEW_YORK))
        assert refused.status_code == 400, refused.text
        body = refused.json()
        assert body["message"] == (
            "Outside calling hours: +12125550123 may be called from 08:00 to 21:00 its local "
            "time (America/New_York); it is 04:00 there. The next window opens at 2027-01-12 "
            "14:00 your time (Europe/Berlin; 2027-01-12 13:00 UTC)."
        )
        assert body["errors"] == {"phone_number": [body["message"]]}
        assert body["next_open_at"] == "2027-01-12T13:00:00+00:00"
        assert await stored(twilio_app, user.id) == (0, 5_000), "nothing stored, nothing held"
        # "Call when the window opens": the same call, scheduled for the opening.
        scheduled = await client.api(
            "POST", "send-call", json=send_call(user.id, NEW_YORK, start_at=body["next_open_at"])
        )
        assert scheduled.status_code == 200, scheduled.text
        assert scheduled.json()["scheduled_for"] == "2027-01-12T13:00:00Z"
        assert scheduled.json()["notice"] is None
        # A time in the past, or too far ahead, is refused.
        for when in ("2020-01-01T00:00:00+00:00", "2027-03-01T13:00:00+00:00"):
            wrong = await client.api(
                "POST", "send-call", json=send_call(user.id, NEW_YORK, start_at=when)
            )
            assert wrong.status_code == 422, wrong.text
            assert list(wrong.json()["errors"]) == ["start_at"]
    assert (await stored(twilio_app, user.id))[0] == 1


async def test_twilio_refuses_send_call_before_the_callees_morning(
    app: FastAPI, twilio_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(twilio_app, DAWN_IN_SF, monkeypatch)
    client, user = await signed_in(twilio_app, "early@example.com", balance_cents=5_000)
    async with client:
        refused = await client.api("POST", "send-call", json=send_call(user.id, SAN_FRANCISCO))
        assert refused.status_code == 400, refused.text
        message = (
            "Outside calling hours: +14155550123 may be called from 08:00 to 21:00 its local "
            "time (America/Los_Angeles); it is 05:00 there. The next window opens at "
            "2027-01-12 16:00 UTC."
        )
        assert refused.json()["message"] == message
        assert await stored(twilio_app, user.id) == (0, 5_000), "nothing stored, nothing held"
        # London is at lunch; a number that does not say where it rings is judged in the
        # default zone (08:00 in New York: open).
        for open_number in ("+442079460123", TOLL_FREE):
            placed = await client.api("POST", "send-call", json=send_call(user.id, open_number))
            assert placed.status_code == 200, placed.text


async def test_twilio_names_the_default_zone_when_the_number_does_not_say(
    app: FastAPI, twilio_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(twilio_app, DAWN_IN_SF, monkeypatch)
    # An operator whose callees are mostly in Japan (this test's reason to change the zone).
    monkeypatch.setattr(twilio_app.state.calls.service.settings, "default_timezone", "Asia/Tokyo")
    client, user = await signed_in(twilio_app, "tokyo@example.com", balance_cents=5_000)
    async with client:
        refused = await client.api("POST", "send-call", json=send_call(user.id, TOLL_FREE))
    assert refused.status_code == 400
    assert refused.json()["message"] == (
        "Outside calling hours: +18002752273 may be called from 08:00 to 21:00 its local time "
        "(Asia/Tokyo: the number does not say where it rings); it is 22:00 there. The next "
        "window opens at 2027-01-12 23:00 UTC."
    )


async def test_twilio_api_refuses_in_blands_shape_and_judges_a_schedule_at_its_time(
    app: FastAPI, twilio_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(twilio_app, DAWN_IN_SF, monkeypatch)
    _, user = await berlin_user(twilio_app, "api@example.com")
    key = await add_api_key(twilio_app, user)
    async with api_client(twilio_app, key) as api:
        now = await api.post("/v1/calls", json={"phone_number": SAN_FRANCISCO, "task": PROMPT})
        assert now.status_code == 400, now.text
        body = now.json()
        assert body["status"] == "error"
        assert body["message"].startswith("Outside calling hours: +14155550123")
        assert body["message"].endswith(
            "The next window opens at 2027-01-12 17:00 your time (Europe/Berlin; "
            "2027-01-12 16:00 UTC)."
        )
        assert body["next_open_at"] == "2027-01-12T16:00:00+00:00"
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
    assert (await stored(twilio_app, user.id))[0] == 1
