"""The signed-in user's own account: the profile and the password change."""

from __future__ import annotations

from fastapi import FastAPI

from tests.factories import ApiClient, add_user


async def test_profile_read_and_update(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com", name="Ada", balance_cents=1234)
    await client.login("ada@example.com")
    response = await client.api("GET", "user/profile")
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["name"], data["email"], data["role"], data["balance"]) == (
        "Ada",
        "ada@example.com",
        "user",
        12.34,
    )
    assert "password_hash" not in data
    updated = await client.api(
        "PUT", "user/profile", json={"name": " Countess ", "role": "admin", "balance": 999}
    )
    assert updated.status_code == 200
    assert updated.json()["data"]["name"] == "Countess"
    assert updated.json()["data"]["role"] == "user"
    assert updated.json()["data"]["balance"] == 12.34
    empty = await client.api("PUT", "user/profile", json={"name": ""})
    assert empty.status_code == 422
    assert "name" in empty.json()["errors"]


async def test_password_change(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    other = await client.login("ada@example.com")
    await client.login("ada@example.com")
    bad_old = await client.api(
        "PUT",
        "user/password",
        json={
            "old_password": "nope nope",
            "new_password": "fresh secret",
            "new_password_confirmation": "fresh secret",
        },
    )
    assert bad_old.status_code == 422
    assert bad_old.json()["errors"]["old_password"] == ["The current password is incorrect."]
    mismatch = await client.api(
        "PUT",
        "user/password",
        json={
            "old_password": "correct horse battery",
            "new_password": "fresh secret",
            "new_password_confirmation": "fresh secrex",
        },
    )
    assert mismatch.status_code == 422
    assert "new_password_confirmation" in mismatch.json()["errors"]
    short = await client.api(
        "PUT",
        "user/password",
        json={
            "old_password": "correct horse battery",
            "new_password": "tiny",
            "new_password_confirmation": "tiny",
        },
    )
    assert short.status_code == 422
    assert "new_password" in short.json()["errors"]
    ok = await client.api(
        "PUT",
        "user/password",
        json={
            "old_password": "correct horse battery",
            "new_password": "fresh secret",
            "new_password_confirmation": "fresh secret",
        },
    )
    assert ok.status_code == 200
    assert (await client.api("GET", "user/profile")).status_code == 200, "this session stays"
    client.cookies.clear()
    stale = await client.get(
        "/api/v1/user/profile", headers={"Authorization": f"Bearer {other['token']}"}
    )
    assert stale.status_code == 401, "other sessions end"
    client.token = None
    await client.login("ada@example.com", "fresh secret")


# --- misc ---------------------------------------------------------------------------------
