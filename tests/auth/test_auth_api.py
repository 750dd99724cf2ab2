from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.auth.service import EMAIL_NOT_VERIFIED, INVALID_CREDENTIALS, verification_url
from callwright.config import Settings
from callwright.kit.security import sha256_hex, signed_url
from callwright.kit.time import utcnow
from callwright.models import ApiToken, User
from tests.factories import ApiClient, add_user, link_path, outbox, query_of

pytestmark = pytest.mark.asyncio


# --- CSRF ---------------------------------------------------------------------------------


async def test_csrf_cookie_is_readable_and_reused(client: ApiClient) -> None:
    response = await client.get("/api/v1/sanctum/csrf-cookie")
    assert response.status_code == 204
    assert response.content == b""
    set_cookie = response.headers["set-cookie"]
    assert set_cookie.startswith("XSRF-TOKEN=")
    assert "httponly" not in set_cookie.lower()
    assert "samesite=lax" in set_cookie.lower()
    assert "Path=/" in set_cookie
    first = client.cookies["XSRF-TOKEN"]
    await client.get("/api/v1/sanctum/csrf-cookie")
    assert client.cookies["XSRF-TOKEN"] == first, "a valid token is kept, so parallel tabs agree"


async def test_mutation_with_cookie_needs_matching_header(client: ApiClient) -> None:
    await client.csrf()
    body = {"email": "nobody@example.com", "password": "whatever1"}
    missing = await client.post("/api/v1/login", json=body)
    assert missing.status_code == 419
    assert missing.json() == {"success": False, "message": "CSRF token mismatch.", "errors": {}}
    wrong = await client.post("/api/v1/login", json=body, headers={"X-XSRF-TOKEN": "abc.def"})
    assert wrong.status_code == 419
    ok = await client.api("POST", "login", json=body)
    assert ok.status_code == 422  # past CSRF, refused on credentials


async def test_forged_unsigned_token_in_cookie_and_header_is_refused(client: ApiClient) -> None:
    client.cookies.set("XSRF-TOKEN", "attacker.chosen")
    response = await client.post(
        "/api/v1/login",
        json={"email": "a@example.com", "password": "x" * 8},
        headers={"X-XSRF-TOKEN": "attacker.chosen"},
    )
    assert response.status_code == 419


async def test_request_without_cookies_needs_no_csrf(client: ApiClient) -> None:
    response = await client.post(
        "/api/v1/register",
        json={"name": "Api Client", "email": "api@example.com", "password": "long enough"},
    )
    assert response.status_code == 201


# --- register -----------------------------------------------------------------------------


async def test_register_creates_unverified_user_and_mails_link(
    app: FastAPI, client: ApiClient
) -> None:
    response = await client.api(
        "POST",
        "register",
        json={"name": "  Grace Hopper ", "email": "Grace@Example.COM", "password": "cobol forever"},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["success"] is True
    assert body["user"] == {
        "id": body["user"]["id"],
        "name": "Grace Hopper",
        "email": "grace@example.com",
        "role": "user",
    }
    mails = await outbox(app, "grace@example.com")
    assert len(mails) == 1
    assert mails[0].kind == "verify-email"
    assert mails[0].status == "stored"
    assert mails[0].link
    assert mails[0].link.startswith("http://testserver/api/v1/email/verify/")
    assert mails[0].link in mails[0].body_text
    login = await client.api(
        "POST", "login", json={"email": "grace@example.com", "password": "cobol forever"}
    )
    assert login.status_code == 403
    assert "Email not verified" in login.json()["message"]


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        (
            {"name": "A", "email": "not-an-email", "password": "long enough"},
            "email",
            "Invalid email format",
        ),
        ({"name": "A", "email": "a@b", "password": "long enough"}, "email", "Invalid email format"),
        (
            {"name": "A", "email": ("x" * 65) + "@example.com", "password": "long enough"},
            "email",
            "Invalid email format",
        ),
        (
            {"name": "A", "email": "a@example.com", "password": "short"},
            "password",
            "at least 8 characters",
        ),
        (
            {"name": "A", "email": "a@example.com", "password": "x" * 257},
            "password",
            "greater than 256",
        ),
        (
            {"name": "   ", "email": "a@example.com", "password": "long enough"},
            "name",
            "The name field is required.",
        ),
        (
            {"email": "a@example.com", "password": "long enough"},
            "name",
            "The name field is required.",
        ),
    ],
)
async def test_register_rejects_bad_input(
    client: ApiClient, payload: dict[str, str], field: str, message: str
) -> None:
    response = await client.api("POST", "register", json=payload)
    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert message in body["errors"][field][0]
    assert body["message"] == body["errors"][field][0]


async def test_register_duplicate_email_case_insensitive(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="taken@example.com")
    response = await client.api(
        "POST",
        "register",
        json={"name": "B", "email": "TAKEN@example.com", "password": "long enough"},
    )
    assert response.status_code == 422
    assert response.json()["errors"]["email"] == ["The email has already been taken."]


async def test_register_ignores_role_and_balance(app: FastAPI, client: ApiClient) -> None:
    response = await client.api(
        "POST",
        "register",
        json={
            "name": "M",
            "email": "m@example.com",
            "password": "long enough",
            "role": "admin",
            "balance_cents": 99999,
        },
    )
    assert response.status_code == 201
    async with app.state.db.sessionmaker() as s:
        user = await s.scalar(select(User).where(User.email == "m@example.com"))
    assert user is not None
    assert (user.role, user.balance_cents, user.email_verified_at) == ("user", 0, None)


# --- e-mail verification ------------------------------------------------------------------


async def test_verification_link_outcomes(
    app: FastAPI, client: ApiClient, settings: Settings
) -> None:
    await client.api(
        "POST", "register", json={"name": "V", "email": "v@example.com", "password": "long enough"}
    )
    link = (await outbox(app, "v@example.com"))[0].link
    assert link is not None

    tampered = link.replace("signature=", "signature=00")
    response = await client.get(link_path(tampered))
    assert response.status_code == 302
    assert query_of(response.headers["location"]) == {
        "verified": "false",
        "error": "invalid_signature",
    }

    response = await client.get(link_path(link))
    assert response.status_code == 302
    assert response.headers["location"] == "/login?verified=true"
    login = await client.api(
        "POST", "login", json={"email": "v@example.com", "password": "long enough"}
    )
    assert login.status_code == 200

    again = await client.get(link_path(link))
    assert query_of(again.headers["location"]) == {"verified": "false", "error": "already_verified"}


async def test_verification_link_expired_wrong_hash_and_missing_user(
    app: FastAPI, client: ApiClient, settings: Settings
) -> None:
    user = await add_user(app, email="late@example.com", verified=False)
    email_hash = hashlib.sha1(b"late@example.com").hexdigest()  # noqa: S324 - as the link does
    assert f"/{user.id}/{email_hash}?" in verification_url(settings, user)
    expired = signed_url(
        settings.secret_key, f"/api/v1/email/verify/{user.id}/{email_hash}", {"expires": "1000"}
    )
    response = await client.get(expired)
    assert query_of(response.headers["location"])["error"] == "invalid_signature"

    far = str(int(utcnow().timestamp()) + 3600)
    wrong_hash = signed_url(
        settings.secret_key, f"/api/v1/email/verify/{user.id}/{'0' * 40}", {"expires": far}
    )
    response = await client.get(wrong_hash)
    assert query_of(response.headers["location"])["error"] == "invalid_link"

    ghost = signed_url(
        settings.secret_key, f"/api/v1/email/verify/999999/{'0' * 40}", {"expires": far}
    )
    response = await client.get(ghost)
    assert query_of(response.headers["location"])["error"] == "user_not_found"


async def test_resend_verification(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="wait@example.com", verified=False)
    await add_user(app, email="done@example.com", verified=True)
    for email in ("WAIT@example.com", "done@example.com", "ghost@example.com"):
        response = await client.api("POST", "resend-verification", json={"email": email})
        assert response.status_code == 200
        assert response.json() == {
            "success": True,
            "message": "Verification email resent. Please check your inbox.",
        }
    assert [m.to_address for m in await outbox(app)] == ["wait@example.com"]
    bad = await client.api("POST", "resend-verification", json={"email": ""})
    assert bad.status_code == 422
    assert "email" in bad.json()["errors"]


async def test_resend_verification_is_rate_limited(client: ApiClient) -> None:
    for _ in range(3):
        assert (
            await client.api("POST", "resend-verification", json={"email": "r@example.com"})
        ).status_code == 200
    limited = await client.api("POST", "resend-verification", json={"email": "r@example.com"})
    assert limited.status_code == 429
    assert int(limited.headers["retry-after"]) > 0


# --- login / logout / tokens -------------------------------------------------------------


async def test_login_answers_token_and_user(app: FastAPI, client: ApiClient) -> None:
    user = await add_user(app, email="ada@example.com", name="Ada")
    response = await client.api(
        "POST", "login", json={"email": "ADA@Example.com", "password": "correct horse battery"}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    assert body["message"] == "Login successful"
    assert body["user"] == {
        "id": user.id,
        "name": "Ada",
        "email": "ada@example.com",
        "role": "user",
    }
    token_id, secret = body["token"].split("|")
    async with app.state.db.sessionmaker() as s:
        row = await s.get(ApiToken, int(token_id))
    assert row is not None
    assert row.token_hash == sha256_hex(secret) != secret
    cookie = next(
        c for c in response.headers.get_list("set-cookie") if c.startswith("callwright_session=")
    )
    assert "httponly" in cookie.lower()


@pytest.mark.parametrize(
    ("email", "password"),
    [("ada@example.com", "wrong password"), ("nobody@example.com", "correct horse battery")],
)
async def test_login_failures_look_the_same(
    app: FastAPI, client: ApiClient, email: str, password: str
) -> None:
    await add_user(app, email="ada@example.com")
    response = await client.api("POST", "login", json={"email": email, "password": password})
    assert response.status_code == 422
    assert response.json()["message"] == INVALID_CREDENTIALS


async def test_login_validates_input(client: ApiClient) -> None:
    response = await client.api("POST", "login", json={"email": "nope", "password": ""})
    assert response.status_code == 422
    assert response.json()["errors"]["email"] == ["Invalid email format"]


async def test_login_unverified_is_refused_only_with_right_password(
    app: FastAPI, client: ApiClient
) -> None:
    await add_user(app, email="new@example.com", verified=False)
    wrong = await client.api(
        "POST", "login", json={"email": "new@example.com", "password": "bad password"}
    )
    assert wrong.status_code == 422
    right = await client.api(
        "POST", "login", json={"email": "new@example.com", "password": "correct horse battery"}
    )
    assert right.status_code == 403
    assert right.json()["message"] == EMAIL_NOT_VERIFIED


async def test_login_locks_account_after_five_failures(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    for _ in range(5):
        response = await client.api(
            "POST", "login", json={"email": "ada@example.com", "password": "guess guess"}
        )
        assert response.status_code == 422
    locked = await client.api(
        "POST", "login", json={"email": "ada@example.com", "password": "correct horse battery"}
    )
    assert locked.status_code == 429
    assert 0 < int(locked.headers["retry-after"]) <= 15 * 60
    assert locked.json()["success"] is False


async def test_login_limits_attempts_per_ip(
    app: FastAPI, client: ApiClient, settings: Settings
) -> None:
    for i in range(settings.login_max_attempts_per_ip):
        response = await client.api(
            "POST", "login", json={"email": f"u{i}@example.com", "password": "guess guess"}
        )
        assert response.status_code == 422
    limited = await client.api(
        "POST", "login", json={"email": "other@example.com", "password": "guess guess"}
    )
    assert limited.status_code == 429
    assert "retry-after" in limited.headers


async def test_success_clears_account_failures(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    for _ in range(4):
        await client.api(
            "POST", "login", json={"email": "ada@example.com", "password": "guess guess"}
        )
    await client.login("ada@example.com")
    for _ in range(4):
        response = await client.api(
            "POST", "login", json={"email": "ada@example.com", "password": "guess guess"}
        )
        assert response.status_code == 422


async def test_bearer_token_variants(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    body = await client.login("ada@example.com")
    client.cookies.clear()
    token_id, secret = body["token"].split("|")
    for bad in [
        "",
        "garbage",
        f"{token_id}|wrong",
        f"999|{secret}",
        f"x{token_id}|{secret}",
        f"{token_id}|",
    ]:
        response = await client.get(
            "/api/v1/user/profile", headers={"Authorization": f"Bearer {bad}"}
        )
        assert response.status_code == 401, bad
        assert response.json() == {"success": False, "message": "Unauthenticated.", "errors": {}}
    ok = await client.get(
        "/api/v1/user/profile", headers={"Authorization": f"Bearer {body['token']}"}
    )
    assert ok.status_code == 200
    async with app.state.db.sessionmaker() as s:
        row = await s.get(ApiToken, int(token_id))
        assert row is not None
        row.expires_at = utcnow() - timedelta(seconds=1)
        await s.commit()
    expired = await client.get(
        "/api/v1/user/profile", headers={"Authorization": f"Bearer {body['token']}"}
    )
    assert expired.status_code == 401


async def test_session_cookie_authenticates_and_needs_csrf(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    await client.login("ada@example.com")
    client.token = None
    profile = await client.get("/api/v1/user/profile")
    assert profile.status_code == 200
    no_csrf = await client.put("/api/v1/user/profile", json={"name": "Changed"})
    assert no_csrf.status_code == 419
    with_csrf = await client.api("PUT", "user/profile", json={"name": "Changed"})
    assert with_csrf.status_code == 200


async def test_logout_revokes_token(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    body = await client.login("ada@example.com")
    response = await client.api("POST", "logout")
    assert response.status_code == 200
    assert response.json()["success"] is True
    client.cookies.clear()
    after = await client.get(
        "/api/v1/user/profile", headers={"Authorization": f"Bearer {body['token']}"}
    )
    assert after.status_code == 401
    client.token = None
    anonymous = await client.api("POST", "logout")
    assert anonymous.status_code == 401


# --- forgot / reset password --------------------------------------------------------------


async def _reset_link(app: FastAPI, client: ApiClient, email: str) -> dict[str, str]:
    response = await client.api("POST", "forgot-password", json={"email": email})
    assert response.status_code == 200
    mails = [m for m in await outbox(app, email) if m.kind == "reset-password"]
    assert mails
    assert mails[0].link
    assert mails[0].link.startswith("http://testserver/reset-password?")
    return query_of(mails[0].link)


async def test_forgot_password_same_answer_for_unknown(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    known = await client.api("POST", "forgot-password", json={"email": "ada@example.com"})
    unknown = await client.api("POST", "forgot-password", json={"email": "ghost@example.com"})
    assert known.status_code == unknown.status_code == 200
    assert known.json() == unknown.json()
    assert [m.to_address for m in await outbox(app)] == ["ada@example.com"]


async def test_reset_password_flow_is_single_use(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    old = await client.login("ada@example.com")
    params = await _reset_link(app, client, "ada@example.com")
    assert params["email"] == "ada@example.com"
    payload = {"token": params["token"], "email": "ada@example.com", "password": "brand new secret"}
    response = await client.api("POST", "reset-password", json=payload)
    assert response.status_code == 200, response.text
    client.cookies.clear()
    client.token = None
    stale = await client.get(
        "/api/v1/user/profile", headers={"Authorization": f"Bearer {old['token']}"}
    )
    assert stale.status_code == 401, "a reset ends every session"
    reused = await client.api(
        "POST", "reset-password", json={**payload, "password": "another secret"}
    )
    assert reused.status_code == 422
    assert "invalid or has expired" in reused.json()["errors"]["token"][0]
    await client.login("ada@example.com", "brand new secret")


async def test_reset_password_rejects_bad_tokens(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    await add_user(app, email="eve@example.com")
    first = await _reset_link(app, client, "ada@example.com")
    second = await _reset_link(app, client, "ada@example.com")
    cases = [
        {
            "token": first["token"],
            "email": "ada@example.com",
            "password": "brand new secret",
        },  # superseded
        {
            "token": second["token"],
            "email": "eve@example.com",
            "password": "brand new secret",
        },  # other user
        {"token": "made-up", "email": "ada@example.com", "password": "brand new secret"},
    ]
    for payload in cases:
        response = await client.api("POST", "reset-password", json=payload)
        assert response.status_code == 422, payload
    short = await client.api(
        "POST", "reset-password", json={**cases[0], "token": second["token"], "password": "short"}
    )
    assert short.status_code == 422
    assert "password" in short.json()["errors"]
    mismatch = await client.api(
        "POST",
        "reset-password",
        json={
            "token": second["token"],
            "email": "ada@example.com",
            "password": "brand new secret",
            "password_confirmation": "other thing",
        },
    )
    assert mismatch.status_code == 422
    async with app.state.db.sessionmaker() as s:
        from callwright.models import PasswordResetToken

        row = await s.scalar(
            select(PasswordResetToken).where(
                PasswordResetToken.token_hash == sha256_hex(second["token"])
            )
        )
        assert row is not None
        row.expires_at = utcnow() - timedelta(seconds=1)
        await s.commit()
    expired = await client.api(
        "POST",
        "reset-password",
        json={"token": second["token"], "email": "ada@example.com", "password": "brand new secret"},
    )
    assert expired.status_code == 422


# --- the rest -----------------------------------------------------------------------------


async def test_google_not_configured_says_so(client: ApiClient) -> None:
    response = await client.get("/api/v1/auth/google")
    assert response.status_code == 503
    assert "Google sign-in is not configured" in response.json()["message"]
    callback = await client.get("/api/v1/auth/google/callback?code=x&state=y")
    assert callback.headers["location"] == "/login?error=google_login_failed"


async def test_unknown_api_path_is_json_404(client: ApiClient) -> None:
    response = await client.get("/api/v1/nope")
    assert response.status_code == 404
    assert response.json()["success"] is False


async def test_security_headers(client: ApiClient) -> None:
    response = await client.get("/api/v1/health")
    assert response.json()["status"] == "ok"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
