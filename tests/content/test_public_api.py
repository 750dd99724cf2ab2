"""The public site's API: posts, the contact and enterprise forms, the free test call with its
limits, and the admins' test-call prompt and counters."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.config import Settings
from callwright.content import repository as content
from callwright.content.seed_posts import POSTS, seed_posts
from callwright.models import Call, FormSubmission, Post
from tests.conftest import make_client
from tests.factories import ARABIC_INDIC, DEVANAGARI, FULLWIDTH, in_digits, signed_in

pytestmark = pytest.mark.asyncio

ENTERPRISE: dict[str, Any] = {
    "name": "Grace Hopper",
    "email": "Grace@Example.com",
    "website": "https://example.com/about",
    "use_case": "Appointment reminders for 40 clinics",
    "phone_calls_per_month": 500,
    "entity_type": "agency",
    "message": "We would like a demo next week.",
}


async def _seed(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session:
        await seed_posts(session)
        await session.commit()


async def test_posts_page_four_newest_first_then_load_more(app: FastAPI) -> None:
    await _seed(app)
    async with make_client(app) as client:
        first = (await client.api("GET", "posts")).json()
        second = (await client.api("GET", "posts?page=2")).json()
    assert first["success"] is True
    titles = [p["title"] for p in first["data"]["posts"]]
    newest = sorted(POSTS, key=lambda p: p["date"], reverse=True)
    assert titles == [p["title"] for p in newest[:4]]
    assert first["data"]["pagination"] == {
        "current_page": 1,
        "last_page": 2,
        "per_page": 4,
        "total": len(POSTS),
    }
    assert [p["title"] for p in second["data"]["posts"]] == [newest[4]["title"]]
    post = first["data"]["posts"][0]
    assert set(post) >= {"id", "title", "description", "content", "admin_name", "post_date"}


async def test_seeding_posts_happens_once(app: FastAPI) -> None:
    await _seed(app)
    async with app.state.db.sessionmaker() as session:
        for post in (await session.scalars(select(Post))).all():
            await session.delete(post)
        await session.commit()
    await _seed(app)  # the admins deleted them: they stay deleted
    async with app.state.db.sessionmaker() as session:
        assert (await session.scalars(select(Post))).all() == []


async def test_one_post_and_not_found(app: FastAPI) -> None:
    await _seed(app)
    async with make_client(app) as client:
        listing = (await client.api("GET", "posts?per_page=1")).json()
        post_id = listing["data"]["posts"][0]["id"]
        one = await client.api("GET", f"posts/{post_id}")
        missing = await client.api("GET", "posts/999999")
    assert one.status_code == 200
    assert one.json()["data"]["id"] == post_id
    assert missing.status_code == 404
    assert missing.json()["message"] == "Post not found"


async def test_post_html_is_sanitised_on_the_way_out(app: FastAPI) -> None:
    """Even a row written around the API (an old import, a manual fix) is served clean."""
    async with app.state.db.sessionmaker() as session:
        post = Post(
            title="t",
            description="d",
            content='<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:x()">l</a>',
        )
        session.add(post)
        await session.commit()
        post_id = post.id
    async with make_client(app) as client:
        body = (await client.api("GET", f"posts/{post_id}")).json()
    assert body["data"]["content"] == '<p>Hi</p><a rel="noopener noreferrer nofollow">l</a>'


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"email": "", "phone": "+1 555", "message": "Hi"}, "email", "Email is required"),
        ({"email": "nope", "phone": "+1 555", "message": "Hi"}, "email", "Invalid email format"),
        (
            {"email": f"{'a' * 65}@example.com", "phone": "1", "message": "Hi"},
            "email",
            "Invalid email format",
        ),
        ({"email": "a@b.co", "phone": "", "message": "Hi"}, "phone", "Phone number is required"),
        (
            {"email": "a@b.co", "phone": "+1 (555)", "message": "Hi"},
            "phone",
            "Invalid phone number format",
        ),
        (
            {"email": "a@b.co", "phone": "555-1234", "message": "  "},
            "message",
            "Message is required",
        ),
        ({}, "email", "Email is required"),
    ],
)
async def test_contact_form_rules(
    app: FastAPI, payload: dict[str, str], field: str, message: str
) -> None:
    async with make_client(app) as client:
        response = await client.api("POST", "contact", json=payload)
    assert response.status_code == 422
    assert response.json()["errors"][field][0] == message


async def test_contact_form_is_stored_for_the_inbox(app: FastAPI) -> None:
    async with make_client(app) as client:
        response = await client.api(
            "POST",
            "contact",
            json={"email": "Ada@Example.com", "phone": "+1 555-0100", "message": "Tell me more"},
        )
    assert response.status_code == 200
    assert response.json()["success"] is True
    assert response.json()["message"].startswith("Thank you for your message!")
    async with app.state.db.sessionmaker() as session:
        row = (await session.scalars(select(FormSubmission))).one()
    assert (row.form_type, row.email, row.phone, row.message, row.is_read) == (
        "contact",
        "ada@example.com",
        "+1 555-0100",
        "Tell me more",
        False,
    )


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"name": " "}, "name", "Name is required"),
        ({"name": "x" * 256}, "name", "Name must be 255 characters or less"),
        ({"email": "x@"}, "email", "Invalid email format"),
        ({"website": ""}, "website", "Website is required"),
        (
            {"website": "example.com"},
            "website",
            "Invalid URL format (must start with http:// or https://)",
        ),
        (
            {"website": "https://exa mple.com"},
            "website",
            "Invalid URL format (must start with http:// or https://)",
        ),
        ({"use_case": ""}, "use_case", "Use case is required"),
        ({"phone_calls_per_month": None}, "phone_calls_per_month", "Phone calls are required"),
        ({"phone_calls_per_month": 24}, "phone_calls_per_month", "Must be at least 25 calls"),
        ({"phone_calls_per_month": "3e2"}, "phone_calls_per_month", "Must be a whole number"),
        ({"phone_calls_per_month": "-30"}, "phone_calls_per_month", "Must be a whole number"),
        ({"entity_type": "company"}, "entity_type", "Please select an option"),
        ({"message": ""}, "message", "Message is required"),
    ],
)
async def test_enterprise_form_rules(
    app: FastAPI, change: dict[str, Any], field: str, message: str
) -> None:
    async with make_client(app) as client:
        response = await client.api("POST", "enterprise", json=ENTERPRISE | change)
    assert response.status_code == 422
    assert response.json()["errors"][field] == [message]


async def test_enterprise_application_is_stored_with_a_whole_number(app: FastAPI) -> None:
    async with make_client(app) as client:
        response = await client.api(
            "POST", "enterprise", json=ENTERPRISE | {"phone_calls_per_month": 120.9}
        )
    assert response.status_code == 200, response.text
    assert "within 24 hours" in response.json()["message"]
    async with app.state.db.sessionmaker() as session:
        row = (await session.scalars(select(FormSubmission))).one()
    assert row.form_type == "enterprise"
    assert row.phone_calls_per_month == 120  # floored, as the client does
    assert (row.name, row.email, row.entity_type) == ("Grace Hopper", "grace@example.com", "agency")


async def test_forms_are_rate_limited_per_ip(app: FastAPI, migrated: Settings) -> None:
    body = {"email": "a@b.co", "phone": "+1 555", "message": "Hi"}
    async with make_client(app) as client:
        for _ in range(migrated.forms_per_ip_per_hour):
            assert (await client.api("POST", "contact", json=body)).status_code == 200
        refused = await client.api("POST", "contact", json=body)
    assert refused.status_code == 429
    assert refused.json()["message"] == "Too many submissions. Please try again later."
    assert int(refused.headers["Retry-After"]) > 0


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("", "Please enter a phone number."),
        ("+0123456", "Please enter a valid phone number (e.g., +1234567890)."),
        ("+1234567890123456", "Please enter a valid phone number (e.g., +1234567890)."),
        ("+1 555 0100", "Please enter a valid phone number (e.g., +1234567890)."),
        ("+1", "Please enter a valid phone number (e.g., +1234567890)."),
    ],
)
async def test_test_call_refuses_a_bad_number(app: FastAPI, number: str, message: str) -> None:
    async with make_client(app) as client:
        response = await client.api("POST", "test-call", json={"phone_number": number})
    assert response.status_code == 422
    assert response.json()["errors"]["phone_number"][0] == message


async def test_test_call_uses_the_admins_prompt_and_is_counted(app: FastAPI) -> None:
    admin_client, _admin = await signed_in(app, "boss@example.com", role="admin")
    async with admin_client, make_client(app) as visitor:
        default = (await admin_client.api("GET", "admin/test-call-task")).json()
        assert default["data"]["task"] == content.DEFAULT_TEST_CALL_TASK
        saved = await admin_client.api(
            "PUT", "admin/test-call-task", json={"task": "  You are Max from Acme. Say hi.  "}
        )
        assert saved.status_code == 200
        assert saved.json()["message"] == "Test call prompt updated successfully."

        placed = await visitor.api("POST", "test-call", json={"phone_number": "15551230000"})
        assert placed.status_code == 200, placed.text
        call_id = placed.json()["callId"]

        today = (await admin_client.api("GET", "admin/test-calls-today")).json()
        week = (await admin_client.api("GET", "admin/test-calls-this-week")).json()
    assert today == {"success": True, "data": {"test_calls_today": 1}}
    assert week == {"success": True, "data": {"test_calls_this_week": 1}}
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, call_id)
    assert call is not None
    assert (call.kind, call.user_id, call.to_number) == ("test", None, "+15551230000")
    assert call.prompt == "You are Max from Acme. Say hi."
    assert call.max_duration == 2
    assert call.hold_cents == 0  # nobody pays for it


async def test_the_landing_is_told_the_test_calls_real_length(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26 item 7: the landing's "up to N minutes" is the limit the call is placed with."""
    monkeypatch.setattr(app.state.settings, "test_call_max_minutes", 3)
    async with make_client(app) as client:
        told = (await client.api("GET", "client-config")).json()["test_call_max_minutes"]
        placed = await client.api("POST", "test-call", json={"phone_number": "+15551230000"})
    assert placed.status_code == 200, placed.text
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, placed.json()["callId"])
    assert call is not None
    assert told == call.max_duration == 3


@pytest.mark.parametrize("task", ["", "   ", "x" * 1001])
async def test_test_call_prompt_rules(app: FastAPI, task: str) -> None:
    admin_client, _admin = await signed_in(app, "boss@example.com", role="admin")
    async with admin_client:
        response = await admin_client.api("PUT", "admin/test-call-task", json={"task": task})
    assert response.status_code == 422
    assert response.json()["errors"]["task"] == [
        "Prompt message is required and must not exceed 1000 characters."
    ]


async def _test_call(app: FastAPI, number: str, ip: str) -> int:
    async with make_client(app, ip=ip) as client:
        response = await client.api("POST", "test-call", json={"phone_number": number})
    if response.status_code == 429:
        assert response.json()["message"] == (
            "Too many test call requests. Please try again later."
        )
        assert int(response.headers["Retry-After"]) > 0
    return response.status_code


async def test_test_calls_are_limited_per_ip(app: FastAPI, migrated: Settings) -> None:
    for n in range(migrated.test_call_per_ip_per_hour):
        assert await _test_call(app, f"+1555000{n:04d}", "198.51.100.1") == 200
    assert await _test_call(app, "+15550009999", "198.51.100.1") == 429
    assert await _test_call(app, "+15550009999", "198.51.100.2") == 200  # another caller


async def test_test_calls_are_limited_per_number(app: FastAPI, migrated: Settings) -> None:
    for n in range(migrated.test_call_per_number_per_day):
        assert await _test_call(app, "+15550001111", f"198.51.100.{n + 1}") == 200
    assert await _test_call(app, "+15550001111", "198.51.100.99") == 429
    # The refused request used up nothing: that caller can still call another number.
    assert await _test_call(app, "+15550002222", "198.51.100.99") == 200


#: One number, four spellings: Arabic-Indic, Devanagari and full-width digits, no plus.
SAME_NUMBER = (
    in_digits("+15550004444", ARABIC_INDIC),
    in_digits("+15550004444", DEVANAGARI),
    "\uff0b" + in_digits("15550004444", FULLWIDTH),  # full-width plus too
    "15550004444",
)


async def test_the_per_number_limit_counts_every_spelling_of_a_number(
    app: FastAPI, migrated: Settings
) -> None:
    """Issue 15, finding 5: non-ASCII digits passed validation as other numbers and dodged the
    limit. The number is E.164 before the limit counts it."""
    assert migrated.test_call_per_number_per_day == 2
    assert await _test_call(app, SAME_NUMBER[0], "198.51.100.1") == 200
    assert await _test_call(app, SAME_NUMBER[1], "198.51.100.2") == 200
    for n, spelling in enumerate(SAME_NUMBER):
        assert await _test_call(app, spelling, f"198.51.100.{n + 10}") == 429
    assert await _test_call(app, "+15550004444", "198.51.100.20") == 429
    async with app.state.db.sessionmaker() as session:
        numbers = (await session.scalars(select(Call.to_number))).all()
    assert numbers == ["+15550004444", "+15550004444"]


@pytest.mark.parametrize(
    "number",
    [
        "+1555000\u00b9\u00b2\u00b3\u2074",  # superscripts are digits to Unicode, not to a phone
        "+9991234567",  # no country has code 999
        "+15550100",  # a local number, no area code
        "+1 555 0100",
    ],
)
async def test_test_call_refuses_what_no_phone_could_dial(app: FastAPI, number: str) -> None:
    async with make_client(app) as client:
        response = await client.api("POST", "test-call", json={"phone_number": number})
    assert response.status_code == 422
    assert response.json()["errors"]["phone_number"] == [
        "Please enter a valid phone number (e.g., +1234567890)."
    ]


async def test_contact_phone_digits_are_ascii_and_whole_numbers_e164(app: FastAPI) -> None:
    async with make_client(app) as client:
        for phone in (
            in_digits("+1 555-123-0000", ARABIC_INDIC),
            in_digits("555 0100", DEVANAGARI),
        ):
            body = {"email": "a@b.co", "phone": phone, "message": "Hi"}
            assert (await client.api("POST", "contact", json=body)).status_code == 200
        odd = {"email": "a@b.co", "phone": "+1 555 \u00b9\u00b2\u00b3", "message": "Hi"}
        refused = await client.api("POST", "contact", json=odd)
    assert refused.json()["errors"]["phone"] == ["Invalid phone number format"]
    async with app.state.db.sessionmaker() as session:
        phones = (await session.scalars(select(FormSubmission.phone))).all()
    assert sorted(p or "" for p in phones) == ["+15551230000", "555 0100"]


async def test_test_calls_have_a_daily_cap(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.settings, "test_call_daily_cap", 2)
    assert await _test_call(app, "+15550003331", "198.51.100.1") == 200
    assert await _test_call(app, "+15550003332", "198.51.100.2") == 200
    assert await _test_call(app, "+15550003333", "198.51.100.3") == 429
    async with app.state.db.sessionmaker() as session:
        assert await content.test_calls_today(session) == 2
