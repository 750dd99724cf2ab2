"""The lab on a Twilio install (docs/lab.md, "The lab on a Twilio install"): its calls go on the
sandbox network hosted beside Twilio, never to Twilio, while every other call still does; and an
install that neither hosts the sandbox nor says where one is ends a run's scenarios in error,
naming the settings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from callwright import roles
from callwright.calls import repository as calls
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call
from callwright.sandbox.network import SandboxCall
from callwright.telephony import signature
from tests.factories import make_client, signed_in, wipe
from tests.lab.runs import finished_run
from tests.live import TEST_SPEED, place_call

pytestmark = pytest.mark.asyncio(loop_scope="session")

ACCOUNT = "AC" + "7" * 32
TOKEN = "twilio-auth-token-of-the-test-install"
TWILIO_FROM = "+14155550100"
#: Where Twilio is told to send a call's media: voice processes elsewhere, which the sandbox
#: network (in the API process) has no need to reach.
ELSEWHERE = "https://voice.example.invalid"
#: A real number (San Francisco): only Twilio could ring it.
PERSON = "+14155552671"
AGENT = {
    "name": "Confirmations",
    "prompt": (
        "You are Sarah from Bright Dental. You are calling to confirm a cleaning appointment "
        "tomorrow at 3 pm. Ask if the time still works for them."
    ),
    "voice": "joe",
    "max_duration": 2,
}
SCENARIO: dict[str, Any] = {
    "name": "Confirms",
    "callee": {
        "kind": "person",
        "label": "a patient at the garden center",
        "lines": ["Yes, the garden center can spare me then.", "Thanks, bye."],
    },
    "expect": {"says": [{"phrase": "Bright Dental", "within_seconds": 20}], "transferred": False},
}


@dataclass
class FakeTwilio:
    """Twilio's Calls resource, recording every request it gets (method, path, form)."""

    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def app(self) -> FastAPI:
        fake = FastAPI()

        @fake.api_route("/{path:path}", methods=["GET", "POST"])
        async def anything(path: str, request: Request) -> Response:
            form = {k: str(v) for k, v in (await request.form()).multi_items()}
            self.requests.append((request.method, f"/{path}", form))
            calls_path = f"2010-04-01/Accounts/{ACCOUNT}/Calls"
            if request.method == "POST" and path == f"{calls_path}.json":
                sid = f"CA{len(self.requests):032d}"
                return JSONResponse({"sid": sid, "status": "queued"}, status_code=201)
            if path.startswith(f"{calls_path}/"):
                sid = path.rsplit("/", 1)[1].removesuffix(".json")
                return JSONResponse({"sid": sid, "status": form.get("Status", "in-progress")})
            return JSONResponse({"code": 20404, "message": "not found"}, status_code=404)

        return fake


def twilio_settings(migrated: Settings, **values: Any) -> Settings:
    return migrated.model_copy(
        update={
            "carrier": "twilio",
            "twilio_account_sid": ACCOUNT,
            "twilio_auth_token": TOKEN,
            "twilio_from_number": TWILIO_FROM,
            **values,
        }
    )


@asynccontextmanager
async def twilio_install(migrated: Settings) -> AsyncIterator[tuple[FastAPI, FakeTwilio]]:
    """A live app on the Twilio carrier (its REST API the fake's), hosting the sandbox network
    and its calls, with its media URL elsewhere; from an empty database."""
    fake, twilio_port, port = FakeTwilio(), free_port(), free_port()
    settings = twilio_settings(
        migrated,
        app_url=f"http://127.0.0.1:{port}",
        port=port,
        twilio_api_url=f"http://127.0.0.1:{twilio_port}",
        media_url=ELSEWHERE,
        sandbox_speed=TEST_SPEED,
        warm_up_voice=False,
    )
    app = create_app(settings)
    async with serving(fake.app(), twilio_port), serving(app.state.realtime.wrap(app), port):
        await wipe(app.state.db)
        await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
        yield app, fake


async def _run_one(app: FastAPI, email: str, within: float = 240) -> dict[str, Any]:
    """A run of SCENARIO for a new user's agent, once it ended."""
    client, _ = await signed_in(app, email)
    async with client:
        agent = (await client.api("POST", "agents", json=AGENT)).json()["data"]
        added = await client.api("POST", f"agents/{agent['id']}/lab/scenarios", json=SCENARIO)
        assert added.status_code == 201, added.text
        started = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={})
        assert started.status_code == 201, started.text
        return await finished_run(client, started.json()["data"]["id"], within)


async def _get(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
        assert call is not None
        return call


async def _lab_call_on_the_sandbox(app: FastAPI, fake: FakeTwilio) -> None:
    heard: list[SandboxCall] = []

    async def remember(call: SandboxCall) -> None:
        heard.append(call)

    app.state.sandbox.listeners.append(remember)
    run = await _run_one(app, "lab-twilio@example.com")
    (result,) = run["results"]
    assert (run["status"], result["status"]) == ("passed", "passed"), result
    assert fake.requests == [], "Twilio heard nothing of the lab"
    call = await _get(app, result["call_id"])
    assert (call.carrier, call.from_number) == ("sandbox", "+18885550100")
    assert call.end_reason is not None
    async for session in app.state.db.session():
        lines = [(e.speaker, e.text.lower()) for e in await calls.transcript(session, call.id)]
    assert "garden center" in " ".join(t for s, t in lines if s == "user"), lines
    for _ in range(50):  # the network reports the call as it closes
        if heard:
            break
        await asyncio.sleep(0.1)
    (played,) = heard
    assert played.sid == call.carrier_call_id
    assert played.persona.label == "a patient at the garden center"


async def _status_callback(app: FastAPI, carrier: str, token: str, form: dict[str, str]) -> int:
    url = f"{app.state.settings.app_url}/api/v1/webhooks/{carrier}/status"
    sig, body = signature.sign_form(token, url, form)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": sig}
    async with make_client(app) as client:
        answer = await client.post(
            f"/api/v1/webhooks/{carrier}/status", content=body, headers=headers
        )
    return answer.status_code


async def _other_call_on_twilio(app: FastAPI, fake: FakeTwilio) -> None:
    call_id = await place_call(app, PERSON, kind="cli", from_number=None)
    for _ in range(100):  # dialled by a job once placed, Twilio's id kept once it answers
        if (await _get(app, call_id)).carrier_call_id:
            break
        await asyncio.sleep(0.05)
    ((method, path, form),) = fake.requests
    assert (method, path) == ("POST", f"/2010-04-01/Accounts/{ACCOUNT}/Calls.json")
    assert (form["To"], form["From"]) == (PERSON, TWILIO_FROM)
    assert form["StatusCallback"] == f"{app.state.settings.app_url}/api/v1/webhooks/twilio/status"
    assert 'url="wss://voice.example.invalid/api/v1/media/twilio"' in form["Twiml"]
    assert "CallwrightCallee" not in form
    call = await _get(app, call_id)
    assert call.carrier == "twilio"
    sid = call.carrier_call_id
    assert sid is not None
    # Hung up at Twilio; Twilio's signed end applies, the sandbox's signature does not.
    await app.state.calls.flows.hang_up(call_id)
    assert fake.requests[1] == (
        "POST", f"/2010-04-01/Accounts/{ACCOUNT}/Calls/{sid}.json", {"Status": "completed"}
    )  # fmt: skip
    ended = {"CallSid": sid, "CallStatus": "no-answer", "AccountSid": ACCOUNT}
    sandbox_token = app.state.calls.flows.carriers.named("sandbox").auth_token
    assert await _status_callback(app, "twilio", sandbox_token, ended) == 403
    assert await _status_callback(app, "bland", TOKEN, ended) == 404
    # The sandbox's own callback path finds no call of its own by that id: nothing changes.
    assert await _status_callback(app, "sandbox", sandbox_token, ended) == 204
    assert (await _get(app, call_id)).status == "queued"
    assert await _status_callback(app, "twilio", TOKEN, ended) == 204
    call = await app.state.calls.flows.wait_finalized(call_id, within=10)
    assert (call.status, call.end_reason) == ("no-answer", "no-answer")
    assert len(fake.requests) == 2, fake.requests


@pytest.mark.conversation  # its own app's call: the SQLite pass runs it once
async def test_the_lab_rings_the_sandbox_and_every_other_call_twilio(migrated: Settings) -> None:
    async with twilio_install(migrated) as (app, fake):
        await _lab_call_on_the_sandbox(app, fake)
        await _other_call_on_twilio(app, fake)


@pytest.mark.parametrize(
    ("sandbox_url", "why"),
    [
        ("", "CALLWRIGHT_HOST_SANDBOX is false and CALLWRIGHT_SANDBOX_URL is not set"),
        ("closed", "sandbox is unreachable"),
    ],
)
async def test_a_twilio_install_without_a_sandbox_ends_the_runs_scenarios_in_error(
    migrated: Settings, app: FastAPI, sandbox_url: str, why: str
) -> None:
    """No sandbox network hosted, and none named (the scenario's call is refused: the result
    says which settings to change) or none answering where it is named (the call fails before
    it rings: the result keeps the carrier's reason). The `app` fixture wipes the database."""
    url = f"http://127.0.0.1:{free_port()}" if sandbox_url == "closed" else sandbox_url
    settings = twilio_settings(migrated, host_sandbox=False, sandbox_url=url)
    twilio = create_app(settings)
    assert twilio.state.sandbox is None
    async with twilio.router.lifespan_context(twilio):
        run = await _run_one(twilio, "lab-no-sandbox@example.com", within=60)
    (result,) = run["results"]
    assert (run["status"], result["status"]) == ("error", "error")
    assert why in result["error"], result
    assert result["checks"] == []
    assert (result["call_id"] is None) == (sandbox_url == "")
