"""The sandbox network's REST API: Twilio's auth, and only for this machine's processes."""

from __future__ import annotations

import base64

import httpx
import pytest
from fastapi import FastAPI

from callwright.sandbox.network import SandboxNetwork, install_error_handler

SECRET = "sandbox-test-secret-0123456789abcdefghij"


def _app(network: SandboxNetwork) -> FastAPI:
    app = FastAPI()
    app.include_router(network.router)
    install_error_handler(app)
    return app


@pytest.mark.parametrize(
    ("client_ip", "status"),
    [("203.0.113.7", 403), ("10.0.0.5", 403), ("127.0.0.1", 404), ("::1", 404)],
)
async def test_the_rest_api_answers_loopback_clients_only(client_ip: str, status: int) -> None:
    network = SandboxNetwork(SECRET)
    auth = base64.b64encode(f"{network.account_sid}:{network.auth_token}".encode()).decode()
    transport = httpx.ASGITransport(app=_app(network), client=(client_ip, 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        # Right credentials; a call that does not exist: 404 from loopback, 403 from elsewhere.
        response = await http.get(
            f"/sandbox/twilio/2010-04-01/Accounts/{network.account_sid}/Calls/CAnone.json",
            headers={"authorization": f"Basic {auth}"},
        )
    await network.close()
    assert response.status_code == status
    assert response.json()["code"] == (20003 if status == 403 else 20404)


def test_credentials_come_from_the_install_secret() -> None:
    one, two = SandboxNetwork(SECRET), SandboxNetwork(SECRET[::-1])
    assert (one.account_sid, one.auth_token) != (two.account_sid, two.auth_token)
    assert SECRET not in one.auth_token
