"""API keys: created with a name and shown once, listed without the key, revoked; a key works
only on the /v1 API (raw `authorization` or Bearer), never on the dashboard's routes, and is
rate limited on its own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from callwright.developers import keys as api_keys
from callwright.developers.service import MAX_KEYS
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio


#: A real `/v1` route (every one takes a key the same way: `ApiKeyCaller`).
V1 = "/v1/voices"


@pytest.fixture
async def probe(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the `/v1` API: no session, no CSRF, only what a key gives."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def test_a_key_is_shown_once_and_listed_without_it(app: FastAPI) -> None:
    client, _ = await signed_in(app, "keys@example.com")
    async with client:
        created = await client.api("POST", "api-keys", json={"name": "  CRM sync  "})
        assert created.status_code == 201, created.text
        body = created.json()
        key = body["key"]
        assert key.startswith("cw_")
        assert body["data"]["name"] == "CRM sync"
        assert body["data"]["prefix"] == key[:11]
        assert body["data"]["last_used_at"] is None

        listed = (await client.api("GET", "api-keys")).json()
        assert listed["pagination"]["total"] == 1
        [row] = listed["data"]
        assert row["id"] == body["data"]["id"]
        assert key not in str(listed)
        assert set(row) == {"id", "name", "prefix", "created_at", "last_used_at"}


async def test_a_key_authenticates_v1_raw_and_bearer_and_records_its_use(
    app: FastAPI, probe: httpx.AsyncClient
) -> None:
    client, _ = await signed_in(app, "v1@example.com")
    async with client:
        created = (await client.api("POST", "api-keys", json={"name": "k"})).json()
        key = created["key"]
        raw = await probe.get(V1, headers={"authorization": key})
        assert raw.status_code == 200, raw.text
        assert raw.json()["voices"]
        bearer = await probe.get(V1, headers={"Authorization": f"Bearer {key}"})
        assert bearer.status_code == 200
        [row] = (await client.api("GET", "api-keys")).json()["data"]
        assert row["last_used_at"] is not None

        missing = await probe.get(V1)
        assert missing.status_code == 401
        assert missing.json()["message"] == api_keys.MISSING
        wrong = await probe.get(V1, headers={"authorization": key + "x"})
        assert wrong.status_code == 401
        assert wrong.json()["message"] == api_keys.INVALID


async def test_a_key_never_signs_in_to_the_dashboard(app: FastAPI) -> None:
    client, _ = await signed_in(app, "dash@example.com")
    async with client:
        key = (await client.api("POST", "api-keys", json={"name": "k"})).json()["key"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as anonymous:
        for headers in ({"Authorization": f"Bearer {key}"}, {"authorization": key}):
            for path in ("user/profile", "api-keys", "webhook-endpoints"):
                response = await anonymous.get(f"/api/v1/{path}", headers=headers)
                assert response.status_code == 401, (path, headers)


async def test_a_revoked_key_is_refused(app: FastAPI, probe: httpx.AsyncClient) -> None:
    client, _ = await signed_in(app, "revoke@example.com")
    async with client:
        created = (await client.api("POST", "api-keys", json={"name": "old"})).json()
        key, key_id = created["key"], created["data"]["id"]
        assert (await probe.get(V1, headers={"authorization": key})).status_code == 200
        revoked = await client.api("DELETE", f"api-keys/{key_id}")
        assert revoked.status_code == 200, revoked.text
        refused = await probe.get(V1, headers={"authorization": key})
        assert refused.status_code == 401
        assert (await client.api("GET", "api-keys")).json()["data"] == []
        again = await client.api("DELETE", f"api-keys/{key_id}")
        assert again.status_code == 404


async def test_a_user_cannot_revoke_another_users_key(app: FastAPI) -> None:
    owner, _ = await signed_in(app, "owner@example.com")
    other, _ = await signed_in(app, "other@example.com")
    async with owner, other:
        key_id = (await owner.api("POST", "api-keys", json={"name": "mine"})).json()["data"]["id"]
        assert (await other.api("DELETE", f"api-keys/{key_id}")).status_code == 404
        assert (await other.api("GET", "api-keys")).json()["data"] == []
        assert len((await owner.api("GET", "api-keys")).json()["data"]) == 1


async def test_at_most_ten_live_keys(app: FastAPI) -> None:
    client, _ = await signed_in(app, "many@example.com")
    async with client:
        ids = []
        for n in range(MAX_KEYS):
            response = await client.api("POST", "api-keys", json={"name": f"k{n}"})
            assert response.status_code == 201
            ids.append(response.json()["data"]["id"])
        over = await client.api("POST", "api-keys", json={"name": "one more"})
        assert over.status_code == 422
        assert "at most 10 API keys" in over.json()["errors"]["name"][0]
        await client.api("DELETE", f"api-keys/{ids[0]}")
        assert (await client.api("POST", "api-keys", json={"name": "again"})).status_code == 201


async def test_a_key_needs_a_name(app: FastAPI) -> None:
    client, _ = await signed_in(app, "noname@example.com")
    async with client:
        for body in ({}, {"name": "   "}, {"name": "x" * 101}):
            response = await client.api("POST", "api-keys", json=body)
            assert response.status_code == 422, body
            assert "name" in response.json()["errors"]


async def test_each_key_is_rate_limited_with_retry_after(
    app: FastAPI, probe: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api_keys, "REQUESTS_PER_WINDOW", 3)
    client, _ = await signed_in(app, "limit@example.com")
    async with client:
        first = (await client.api("POST", "api-keys", json={"name": "a"})).json()["key"]
        second = (await client.api("POST", "api-keys", json={"name": "b"})).json()["key"]
    for _ in range(3):
        assert (await probe.get(V1, headers={"authorization": first})).status_code == 200
    limited = await probe.get(V1, headers={"authorization": first})
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    # Another key of the same user has its own budget.
    assert (await probe.get(V1, headers={"authorization": second})).status_code == 200
