"""Google sign-in against a local OpenID provider that speaks Google's protocol."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.config import Settings
from callwright.main import create_app
from callwright.models import User
from tests.auth.fake_google import ISSUER, FakeGoogle
from tests.conftest import make_client
from tests.factories import ApiClient, add_user, query_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def google() -> FakeGoogle:
    return FakeGoogle(client_id="client-123.apps.googleusercontent.com", client_secret="shh")


@pytest.fixture
async def google_app(
    app: FastAPI, settings: Settings, google: FakeGoogle
) -> AsyncIterator[FastAPI]:
    configured = settings.model_copy(
        update={
            "google_client_id": google.client_id,
            "google_client_secret": google.client_secret,
            "google_metadata_url": f"{ISSUER}/.well-known/openid-configuration",
        }
    )
    application = create_app(configured, google_transport=httpx2.ASGITransport(app=google.app()))
    async with application.router.lifespan_context(application):
        yield application


async def _sign_in(
    client: ApiClient, google: FakeGoogle, *, tamper_state: bool = False
) -> httpx.Response:
    start = await client.get("/api/v1/auth/google")
    assert start.status_code == 200, start.text
    body = start.json()
    assert body["success"] is True
    url = urlsplit(body["redirect_url"])
    assert f"{url.scheme}://{url.netloc}{url.path}" == f"{ISSUER}/o/oauth2/v2/auth"
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query["code_challenge_method"] == "S256"
    assert query["redirect_uri"] == "http://testserver/api/v1/auth/google/callback"
    assert {"state", "nonce", "code_challenge"} <= set(query)
    code = google.issue_code(query)
    state = "forged" if tamper_state else query["state"]
    return await client.get(f"/api/v1/auth/google/callback?code={code}&state={state}")


async def test_new_google_user_is_created_verified(google_app: FastAPI, google: FakeGoogle) -> None:
    google.person = {
        "sub": "g-1",
        "email": "Lin@Example.com",
        "email_verified": True,
        "name": "Lin Yu",
    }
    async with make_client(google_app) as client:
        response = await _sign_in(client, google)
        assert response.status_code == 302
        params = query_of(response.headers["location"])
        assert response.headers["location"].startswith("/login?")
        user = json.loads(params["user"])
        assert user["email"] == "lin@example.com"
        assert user["role"] == "user"
        client.cookies.clear()
        profile = await client.get(
            "/api/v1/user/profile", headers={"Authorization": f"Bearer {params['token']}"}
        )
        assert profile.status_code == 200
        assert profile.json()["data"]["google_linked"] is True
        assert profile.json()["data"]["email_verified_at"] is not None


async def test_existing_account_is_linked_only_when_google_verified_the_email(
    google_app: FastAPI, google: FakeGoogle
) -> None:
    await add_user(google_app, email="ada@example.com", verified=False)
    google.person = {"sub": "g-2", "email": "ada@example.com", "email_verified": False}
    async with make_client(google_app) as client:
        refused = await _sign_in(client, google)
        assert refused.headers["location"] == "/login?error=google_login_failed"
        google.person["email_verified"] = True
        linked = await _sign_in(client, google)
        assert (
            json.loads(query_of(linked.headers["location"])["user"])["email"] == "ada@example.com"
        )
    async with google_app.state.db.sessionmaker() as s:
        users = (await s.scalars(select(User))).all()
    assert len(users) == 1
    assert users[0].google_sub == "g-2"
    assert users[0].email_verified_at is not None


async def test_forged_state_and_wrong_audience_fail(
    google_app: FastAPI, google: FakeGoogle
) -> None:
    google.person = {"sub": "g-3", "email": "x@example.com", "email_verified": True}
    async with make_client(google_app) as client:
        forged = await _sign_in(client, google, tamper_state=True)
        assert forged.headers["location"] == "/login?error=google_login_failed"
        google.tamper_audience = True
        wrong_aud = await _sign_in(client, google)
        assert wrong_aud.headers["location"] == "/login?error=google_login_failed"
        replay = await client.get("/api/v1/auth/google/callback?code=used&state=gone")
        assert replay.headers["location"] == "/login?error=google_login_failed"
    async with google_app.state.db.sessionmaker() as s:
        assert (await s.scalars(select(User))).all() == []


async def test_google_error_parameter_fails_cleanly(google_app: FastAPI) -> None:
    async with make_client(google_app) as client:
        response = await client.get("/api/v1/auth/google/callback?error=access_denied")
        assert response.headers["location"] == "/login?error=google_login_failed"


async def test_client_config_says_whether_google_sign_in_is_set_up(
    app: FastAPI, google_app: FastAPI
) -> None:
    """Issue 20: the Google button shows only where Google sign-in is configured."""
    for application, configured in ((app, False), (google_app, True)):
        async with make_client(application) as client:
            response = await client.get("/api/v1/client-config")
        assert response.status_code == 200
        assert response.json() == {
            "sign_in": {"google": configured},
            "phone_region": "US",
            "test_call_max_minutes": 2,
        }
