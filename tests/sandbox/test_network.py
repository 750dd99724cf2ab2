"""The sandbox network's REST API: Twilio's auth, and only for this machine's processes."""

from __future__ import annotations

import asyncio
import base64
from urllib.parse import parse_qsl

import httpx
import pytest
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosedError

from callwright.sandbox.callee import SimulatedCallee
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


async def test_a_media_stream_that_breaks_still_reports_the_seconds_the_call_was_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twilio's CallDuration counts from the answer whatever ended the call: a media host that
    dies mid-call (`kill -9` of a voice process) leaves a call billed for the seconds it was up,
    not for none."""
    speed = 10.0
    statuses: list[dict[str, str]] = []
    ended = asyncio.Event()

    def callback(request: httpx.Request) -> httpx.Response:
        form = dict(parse_qsl(request.content.decode()))
        statuses.append(form)
        if form["CallStatus"] in ("completed", "failed"):
            ended.set()
        return httpx.Response(204)

    async def breaks_mid_call(self: SimulatedCallee) -> None:
        await asyncio.sleep(1.0)  # 10 s of call time at speed 10
        raise ConnectionClosedError(None, None)  # "no close frame received or sent"

    monkeypatch.setattr(SimulatedCallee, "run", breaks_mid_call)
    network = SandboxNetwork(SECRET, speed=speed, callback_transport=httpx.MockTransport(callback))
    auth = base64.b64encode(f"{network.account_sid}:{network.auth_token}".encode()).decode()
    twiml = '<Response><Connect><Stream url="ws://127.0.0.1:9/media"/></Connect></Response>'
    transport = httpx.ASGITransport(app=_app(network), client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.post(
            f"/sandbox/twilio/2010-04-01/Accounts/{network.account_sid}/Calls.json",
            data={
                "To": "+15005550007",
                "From": "+15005550000",
                "Twiml": twiml,
                "StatusCallback": "http://app.test/status",
            },
            headers={"authorization": f"Basic {auth}"},
        )
        assert response.status_code == 201
        await asyncio.wait_for(ended.wait(), timeout=20)
    await network.close()
    final = statuses[-1]
    assert final["CallStatus"] == "failed"
    assert 9 <= int(final["CallDuration"]) <= 13, final
