"""Private webhook targets (loopback, the LAN, the cloud metadata address) are allowed by default
only while the server listens on loopback alone; once it serves other addresses (or sits behind
a proxy, or its jobs run in separate workers) they are refused unless the operator opts in, and
opted in the delivery log keeps the status of a private target's answer but never its body.
Saving a private URL says so, or is refused where private targets are; the admin System page
shows the rule and why; `serve --host` is the host the app judges from."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.config import Settings, get_settings
from callwright.developers.delivery import Deliverer
from callwright.developers.ssrf import SETTING, is_loopback_host, private_targets
from callwright.kit.db import Database
from callwright.models import WebhookAttempt, WebhookDelivery
from tests.developers.receiver import Receiver, receiving
from tests.developers.test_delivery import add_endpoint, emit_unqueued
from tests.factories import add_api_key, signed_in

pytestmark = pytest.mark.asyncio

#: Listening on every address: served to the LAN (or the internet).
EVERY_ADDRESS = "0.0.0.0"  # noqa: S104 - the setting under test


@contextmanager
def serving_as(app: FastAPI, settings: Settings) -> Iterator[None]:
    """The app's request handlers on `settings` for the block."""
    before = app.state.settings
    app.state.settings = settings
    try:
        yield
    finally:
        app.state.settings = before


def _with(settings: Settings, **changes: object) -> Settings:
    return settings.model_copy(update=changes)


def test_loopback_hosts() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "app.localhost"):
        assert is_loopback_host(host), host
    for host in (EVERY_ADDRESS, "::", "192.168.1.20", "10.0.0.5", "example.com", ""):
        assert not is_loopback_host(host), host


def test_the_rule_follows_where_the_server_listens(settings: Settings) -> None:
    assert settings.webhook_allow_private_targets is None  # the tests run on the default
    loopback = private_targets(settings)
    assert (loopback.allowed, loopback.keep_bodies) == (True, True)
    assert "loopback only" in loopback.reason
    for beyond in (
        {"host": EVERY_ADDRESS},
        {"host": "192.168.1.20"},
        {"trusted_proxies": ["127.0.0.1/32"]},
        {"job_broker_url": "redis://127.0.0.1:6379/0"},
    ):
        refused = private_targets(_with(settings, **beyond))
        assert (refused.allowed, refused.keep_bodies) == (False, False), beyond
        assert refused.reason.startswith("Refused:")
        assert f"{SETTING}=true" in refused.reason
        opted = private_targets(_with(settings, webhook_allow_private_targets=True, **beyond))
        assert (opted.allowed, opted.keep_bodies) == (True, False), beyond
    off = private_targets(_with(settings, webhook_allow_private_targets=False))
    assert (off.allowed, off.keep_bodies) == (False, False)


async def _deliver_with(app: FastAPI, settings: Settings, delivery_id: str) -> WebhookAttempt:
    """One attempt of `delivery_id` by a deliverer on `settings`, and its logged attempt."""
    db: Database = app.state.db
    deliverer = Deliverer(settings, db, app.state.jobs, app.state.mailer)
    try:
        await deliverer.deliver(delivery_id)
    finally:
        await deliverer.close()
    async with db.sessionmaker() as session:
        attempts = (
            await session.scalars(
                select(WebhookAttempt).where(WebhookAttempt.delivery_id == delivery_id)
            )
        ).all()
    assert len(attempts) == 1
    return attempts[0]


async def test_refused_on_a_non_loopback_bind_without_the_opt_in(
    app: FastAPI, settings: Settings
) -> None:
    client, user = await signed_in(app, "lan@example.com")
    async with client, receiving() as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        receiver.secret = created["secret"]
        [delivery_id] = await emit_unqueued(app, user.id, "call.queued", "c1")
        served = _with(settings, host=EVERY_ADDRESS)
        attempt = await _deliver_with(app, served, delivery_id)
    assert attempt.status_code is None
    assert attempt.error is not None
    assert attempt.error.startswith("Refused: 127.0.0.1 resolves to 127.0.0.1, a loopback")
    assert EVERY_ADDRESS in attempt.error
    assert receiver.received == []


async def test_allowed_on_loopback_with_the_answer_logged(app: FastAPI) -> None:
    client, user = await signed_in(app, "local@example.com")
    async with client, receiving() as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        assert created["notice"].startswith("This URL is on a private address (127.0.0.1 is a")
        assert "loopback only" in created["notice"]
        receiver.secret = created["secret"]
        [delivery_id] = await emit_unqueued(app, user.id, "call.queued", "c1")
        attempt = await _deliver_with(app, app.state.settings, delivery_id)
    assert attempt.status_code == 200
    assert attempt.response_excerpt.startswith("answered 200")
    assert len(receiver.verified()) == 1


async def test_opted_in_the_log_keeps_no_body_from_a_private_target(
    app: FastAPI, settings: Settings
) -> None:
    client, user = await signed_in(app, "optin@example.com")
    async with client, receiving(Receiver(answers=[500])) as receiver:
        created = await add_endpoint(client, receiver.url + "/hook")
        receiver.secret = created["secret"]
        ids = [
            (await emit_unqueued(app, user.id, "call.queued", "c1"))[0],
            (await emit_unqueued(app, user.id, "call.queued", "c2"))[0],
        ]
        opted = _with(settings, host=EVERY_ADDRESS, webhook_allow_private_targets=True)
        failed = await _deliver_with(app, opted, ids[0])
        delivered = await _deliver_with(app, opted, ids[1])
    assert len(receiver.verified()) == 2  # the requests went out
    assert (failed.status_code, failed.response_excerpt) == (500, "")
    assert (delivered.status_code, delivered.response_excerpt) == (200, "")
    async with app.state.db.sessionmaker() as session:
        row = await session.get(WebhookDelivery, ids[1])
    assert row is not None
    assert row.status == "delivered"


async def test_saving_a_private_url_is_refused_where_private_targets_are(
    app: FastAPI, settings: Settings
) -> None:
    client, _ = await signed_in(app, "save@example.com")
    async with client:
        public = await client.api(
            "POST", "webhook-endpoints", json={"url": "https://93.184.216.34/hook"}
        )
        assert public.status_code == 201, public.text
        # The calling rules may say something (outside calling hours); nothing of the URL.
        assert "private address" not in (public.json()["notice"] or "")
        endpoint_id = public.json()["data"]["id"]
        with serving_as(app, _with(settings, host=EVERY_ADDRESS)):
            for url in ("http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data/"):
                refused = await client.api("POST", "webhook-endpoints", json={"url": url})
                assert refused.status_code == 422, refused.text
                [message] = refused.json()["errors"]["url"]
                assert message.startswith("This URL is on a private address (")
                assert EVERY_ADDRESS in message
            moved = await client.api(
                "PUT", f"webhook-endpoints/{endpoint_id}", json={"url": "http://10.0.0.8/hook"}
            )
            assert moved.status_code == 422
        opted = _with(settings, host=EVERY_ADDRESS, webhook_allow_private_targets=True)
        with serving_as(app, opted):
            allowed = await client.api(
                "PUT", f"webhook-endpoints/{endpoint_id}", json={"url": "http://10.0.0.8/hook"}
            )
        assert allowed.status_code == 200, allowed.text
        assert allowed.json()["notice"].startswith(
            "This URL is on a private address (10.0.0.8 is a private address). Allowed by"
        )


async def test_the_system_page_shows_the_rule_and_why(app: FastAPI, settings: Settings) -> None:
    admin, _ = await signed_in(app, "sys-admin@example.com", role="admin")
    async with admin:
        report = (await admin.api("GET", "admin/system")).json()["data"]
        [row] = [c for c in report["components"] if c["key"] == "webhook_targets"]
        assert row["value"] == "private addresses allowed"
        assert "loopback only" in row["detail"]
        assert SETTING in row["settings"]
        with serving_as(app, _with(settings, host=EVERY_ADDRESS)):
            report = (await admin.api("GET", "admin/system")).json()["data"]
        [row] = [c for c in report["components"] if c["key"] == "webhook_targets"]
        assert row["value"] == "public addresses only"
        assert row["detail"].startswith(f"Refused: the server listens on {EVERY_ADDRESS}")


def test_serve_host_is_the_host_the_app_judges_from(monkeypatch: pytest.MonkeyPatch) -> None:
    from callwright import cli

    monkeypatch.setenv("CALLWRIGHT_HOST", "127.0.0.1")
    ran: list[str] = []
    monkeypatch.setattr("uvicorn.run", lambda *_a, **kw: ran.append(kw["host"]))
    get_settings.cache_clear()
    try:
        cli.serve(host=EVERY_ADDRESS, port=None, reload=False)
        assert ran == [EVERY_ADDRESS]
        assert get_settings().host == EVERY_ADDRESS
        assert not private_targets(get_settings()).allowed
    finally:
        get_settings.cache_clear()


async def test_a_calls_private_webhook_is_noted_or_refused(
    app: FastAPI, settings: Settings
) -> None:
    _, user = await signed_in(app, "v1-hook@example.com", balance_cents=10_000)
    key = await add_api_key(app, user)
    body = {"phone_number": "+15551230000", "task": "Say hello.", "max_duration": 1}
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"authorization": key}
    ) as v1:
        public = await v1.post("/v1/calls", json=body | {"webhook": "https://93.184.216.34/in"})
        assert public.status_code == 200, public.text
        # The calling rules may say something (outside calling hours); nothing of the URL.
        assert "private address" not in (public.json()["notice"] or "")
        local = await v1.post(
            "/v1/calls",
            json=body | {"phone_number": "+15551230001", "webhook": "http://127.0.0.1:9/in"},
        )
        assert local.status_code == 200, local.text
        assert "This URL is on a private address (127.0.0.1" in local.json()["notice"]
        with serving_as(app, _with(settings, host=EVERY_ADDRESS)):
            refused = await v1.post(
                "/v1/calls",
                json=body | {"phone_number": "+15551230002", "webhook": "http://10.0.0.8/in"},
            )
        assert refused.status_code == 400, refused.text
        assert refused.json()["status"] == "error"
        [message] = refused.json()["errors"]["webhook"]
        assert message.startswith("This URL is on a private address (10.0.0.8")


async def test_an_agents_private_webhook_is_noted_or_refused(
    app: FastAPI, settings: Settings
) -> None:
    client, _ = await signed_in(app, "agent-hook@example.com")
    agent = {"name": "Hook", "prompt": "Say hello.", "voice": "joe"}
    async with client:
        public = await client.api(
            "POST", "agents", json=agent | {"webhook_url": "https://93.184.216.34/in"}
        )
        assert public.status_code == 201, public.text
        # The calling rules may say something (outside calling hours); nothing of the URL.
        assert "private address" not in (public.json()["notice"] or "")
        agent_id = public.json()["data"]["id"]
        local = await client.api(
            "PUT", f"agents/{agent_id}", json=agent | {"webhook_url": "http://127.0.0.1:9/in"}
        )
        assert local.status_code == 200, local.text
        assert "This URL is on a private address (127.0.0.1" in local.json()["notice"]
        with serving_as(app, _with(settings, host=EVERY_ADDRESS)):
            refused = await client.api(
                "POST", "agents", json=agent | {"webhook_url": "http://192.168.1.9/in"}
            )
        assert refused.status_code == 422, refused.text
        [message] = refused.json()["errors"]["webhook_url"]
        assert message.startswith("This URL is on a private address (192.168.1.9")
