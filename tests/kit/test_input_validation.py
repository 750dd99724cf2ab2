"""Issue 15, finding 9b: integers beyond what the database holds and strings with NUL
characters are refused at the edge with a 422 in the app's error shape (they were 500s: the
driver's overflow, PostgreSQL's refusal of U+0000)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.billing.service import MAX_BALANCE_CENTS
from callwright.kit.bounds import DB_INT_MAX
from tests.conftest import make_client
from tests.factories import add_user, signed_in

pytestmark = pytest.mark.asyncio

HUGE = (2**63 - 1, 2**63, 10**30, DB_INT_MAX + 1)
LISTS = (
    "posts",
    "user/{me}/calls",
    "admin/users",
    "admin/calls",
    "admin/reports",
    "admin/mail-outbox",
    "admin/posts",
    "admin/form-inbox",
)
BY_ID = (
    ("GET", "posts/{n}"),
    ("GET", "admin/posts/{n}"),
    ("PUT", "admin/posts/{n}"),
    ("DELETE", "admin/posts/{n}"),
    ("GET", "user/{n}/calls"),
    ("GET", "user/{n}/stats"),
    ("GET", "user/{n}/analysis"),
    ("PUT", "admin/users/{n}"),
    ("PUT", "admin/users/{n}/balance"),
    ("DELETE", "admin/users/{n}"),
    ("PATCH", "admin/form-submissions/{n}/mark-as-read"),
    ("GET", "email/verify/{n}/abc"),
)


async def test_page_numbers_past_the_database_are_422(app: FastAPI) -> None:
    admin, me = await signed_in(app, "boss@example.com", role="admin")
    async with admin:
        for path in LISTS:
            url = path.format(me=me.id)
            for page in HUGE:
                response = await admin.api("GET", f"{url}?page={page}")
                assert response.status_code == 422, (url, page, response.text)
                assert response.json()["errors"]["page"], url
            # The largest page allowed is an empty page, on SQLite and PostgreSQL alike.
            last = await admin.api("GET", f"{url}?page={DB_INT_MAX}&per_page=50")
            assert last.status_code == 200, (url, last.text)


async def test_ids_past_the_database_are_422(app: FastAPI) -> None:
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    async with admin:
        for method, path in BY_ID:
            for n in HUGE:
                response = await admin.api(method, path.format(n=n), json={})
                assert response.status_code == 422, (method, path, n, response.text)
                assert response.json()["success"] is False


async def test_a_body_id_past_the_database_is_422(app: FastAPI) -> None:
    client, _ = await signed_in(app, "me@example.com", balance_cents=10_000)
    body = {"userId": 2**63, "phone": "+15551230000", "prompt": "Say hello to them please."}
    async with client:
        response = await client.api("POST", "send-call", json=body)
    assert response.status_code == 422
    assert "userId" in response.json()["errors"]


async def test_a_balance_cannot_grow_past_its_column(app: FastAPI) -> None:
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    user = await add_user(app, email="rich@example.com", balance_cents=MAX_BALANCE_CENTS - 100)
    async with admin:
        refused = await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": 1.01})
        assert refused.status_code == 422
        assert refused.json()["errors"]["amount"] == ["The balance may not exceed $1,000,000."]
        topped = await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": 1})
        assert topped.status_code == 200
        assert topped.json()["data"]["balance"] == MAX_BALANCE_CENTS / 100
        missing = await admin.api("PUT", "admin/users/999999/balance", json={"amount": 1})
        assert missing.status_code == 404


async def test_dollar_amounts_past_any_balance_are_422(app: FastAPI) -> None:
    """Found by the schema fuzz test: -1.8e308 dollars is finite, its cents are not (500)."""
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    user = await add_user(app, email="u@example.com")
    new = {"name": "N", "email": "n@example.com", "password": "Str0ngPass"}
    async with admin:
        for amount in (-1.7976931348623157e308, 1.7976931348623157e308, 10**400):
            added = await admin.api("POST", "admin/add-user", json={**new, "balance": amount})
            assert added.status_code == 422, added.text
            assert "balance" in added.json()["errors"]
            topped = await admin.api(
                "PUT", f"admin/users/{user.id}/balance", json={"amount": amount}
            )
            assert topped.status_code == 422, topped.text
            edited = await admin.api("PUT", f"admin/users/{user.id}", json={"balance": amount})
            assert edited.status_code == 422, edited.text


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("admin/calls?q=a%00b", "q"),
        ("admin/mail-outbox?to=x%00", "to"),
        ("admin/calls?sort=created_at&q=%00", "q"),
        ("call-details/abc%00def", "path"),
    ],
)
async def test_nul_in_a_query_or_path_is_422(app: FastAPI, path: str, field: str) -> None:
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    async with admin:
        response = await admin.api("GET", path)
    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert body["errors"] == {field: [f"The {field} field must not contain NUL characters."]}
    assert body["message"] == body["errors"][field][0]


async def test_nul_in_a_json_body_is_422_naming_the_field(app: FastAPI) -> None:
    async with make_client(app) as client:
        contact = {"email": "a@b.co", "phone": "+15551230000", "message": "hi\u0000there"}
        response = await client.api("POST", "contact", json=contact)
        assert response.status_code == 422
        assert response.json()["errors"] == {
            "message": ["The message field must not contain NUL characters."]
        }
        nested = await client.api(
            "POST", "login", json={"email": "a@b.co", "password": ["ok", {"x\u0000": 1}]}
        )
        assert nested.status_code == 422
        assert list(nested.json()["errors"]) == ["password.1.x"]
        # The six characters backslash, u, 0, 0, 0, 0 are text, not a NUL.
        text = {**contact, "message": "a literal \\u0000"}
        assert (await client.api("POST", "contact", json=text)).status_code == 200


async def test_nul_in_a_form_body_is_422(app: FastAPI) -> None:
    async with make_client(app) as client:
        response = await client.post(
            "/api/v1/webhooks/sandbox/status",
            content=b"CallSid=CA1&CallStatus=completed%00",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "CallStatus": ["The CallStatus field must not contain NUL characters."]
    }
