"""The SSRF guard: private, loopback, link-local and other non-public targets are refused after
DNS resolution and on every redirect unless the operator allows them; the sender connects to
the address it checked; endpoint URLs are checked when saved."""

from __future__ import annotations

import ipaddress
from datetime import datetime

import httpx
import pytest
from fastapi import FastAPI

from callwright.developers.delivery import Claimed, Deliverer, signed_headers
from callwright.developers.ssrf import Guard, Target, TargetRefused, check_syntax
from callwright.kit.time import utcnow
from tests.developers.receiver import Receiver, receiving
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

REFUSED = [
    "http://127.0.0.1/hook",
    "http://10.1.2.3/hook",
    "http://192.168.0.10:8080/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]:9000/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fe80::1]/hook",
    "http://0.0.0.0/hook",
    "http://100.64.0.1/hook",
    "http://224.0.0.1/hook",
    "http://localhost:8000/hook",  # resolved: loopback
]


@pytest.mark.parametrize("url", REFUSED)
async def test_non_public_targets_are_refused(url: str) -> None:
    with pytest.raises(TargetRefused, match="Refused"):
        await Guard(allow_private=False).resolve(url)


@pytest.mark.parametrize("url", REFUSED[:6])
async def test_the_operator_may_allow_them(url: str) -> None:
    target = await Guard(allow_private=True).resolve(url)
    assert target.url == httpx.URL(url)


async def test_a_public_address_passes() -> None:
    target = await Guard(allow_private=False).resolve("https://93.184.216.34/hook")
    assert target.address == ipaddress.ip_address("93.184.216.34")


def test_the_sender_connects_to_the_checked_address() -> None:
    target = Target(
        url=httpx.URL("https://hooks.example.com:8443/in?x=1"),
        address=ipaddress.ip_address("93.184.216.34"),
    )
    url, host, extensions = target.pinned()
    assert str(url) == "https://93.184.216.34:8443/in?x=1"
    assert host == {"host": "hooks.example.com:8443"}
    assert extensions == {"sni_hostname": "hooks.example.com"}
    plain = Target(
        url=httpx.URL("http://hooks.example.com/in"), address=ipaddress.ip_address("::1")
    )
    url, host, extensions = plain.pinned()
    assert str(url) == "http://[::1]/in"
    assert host == {"host": "hooks.example.com"}
    assert extensions == {}


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.com/hook", "http:// or https://"),
        ("http://user:secret@example.com/hook", "user name or password"),
        ("not a url", "http:// or https://"),
        ("https:///nohost", "no host"),
    ],
)
def test_bad_urls_are_refused_by_syntax(url: str, why: str) -> None:
    with pytest.raises(TargetRefused, match=why):
        check_syntax(url)


async def test_endpoint_urls_are_checked_when_saved(app: FastAPI) -> None:
    client, _ = await signed_in(app, "urls@example.com")
    async with client:
        for url in ("ftp://example.com/x", "http://a:b@example.com/x", "javascript:alert(1)"):
            response = await client.api("POST", "webhook-endpoints", json={"url": url})
            assert response.status_code == 422, url
            assert "url" in response.json()["errors"]


class LoopbackOnly(Guard):
    """Allows the test receiver (127.0.0.1) and guards everything else as production does."""

    def __init__(self) -> None:
        super().__init__(allow_private=False)

    async def resolve(self, url: str | httpx.URL) -> Target:
        parsed = httpx.URL(str(url))
        if parsed.host == "127.0.0.1":
            return Target(url=parsed, address=ipaddress.ip_address("127.0.0.1"))
        return await super().resolve(url)


async def attempt(deliverer: Deliverer, url: str, secret: str) -> tuple[int | None, str | None]:
    at: datetime = utcnow()
    outcome = await deliverer.attempt("msg_test", Claimed(url, '{"type":"t"}', secret), at)
    return outcome.status_code, outcome.error


@pytest.fixture
async def guarded(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> Deliverer:
    deliverer: Deliverer = app.state.deliverer
    monkeypatch.setattr(deliverer, "guard", LoopbackOnly())
    return deliverer


SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


async def test_redirects_are_followed_and_each_hop_is_checked(guarded: Deliverer) -> None:
    async with receiving(Receiver(secret=SECRET)) as receiver:
        receiver.redirects = {
            "/old": "/new",
            "/metadata": "http://169.254.169.254/latest/meta-data/",
            "/private": "http://10.0.0.7/hook",
            "/v6": "http://[::1]:1/hook",
            "/a": "/b",
            "/b": "/c",
            "/c": "/d",
            "/d": "/e",
        }
        status, error = await attempt(guarded, receiver.url + "/old", SECRET)
        assert (status, error) == (200, None)
        assert [r.path for r in receiver.verified()] == ["/new"]
        for path, address in (
            ("/metadata", "169.254.169.254"),
            ("/private", "10.0.0.7"),
            ("/v6", "::1"),
        ):
            status, error = await attempt(guarded, receiver.url + path, SECRET)
            assert status is None
            assert error is not None
            assert error.startswith("Refused"), error
            assert address in error
        status, error = await attempt(guarded, receiver.url + "/a", SECRET)
        assert status is None
        assert error == "More than 3 redirects."


async def test_a_refused_target_is_logged_and_retried_like_any_failure(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    deliverer: Deliverer = app.state.deliverer
    monkeypatch.setattr(deliverer, "guard", Guard(allow_private=False))
    monkeypatch.setattr(deliverer, "schedule", (60.0,))
    client, user = await signed_in(app, "ssrf@example.com")
    async with client:
        created = await client.api(
            "POST", "webhook-endpoints", json={"url": "http://169.254.169.254/latest/"}
        )
        assert created.status_code == 201  # syntax is fine; the address is checked when sent
        async for session in app.state.db.session():
            [delivery_id] = await app.state.outbox.emit(
                session, user_id=user.id, event="call.ended", data={}
            )
        await app.state.jobs.drain()
        detail = (await client.api("GET", f"webhook-deliveries/{delivery_id}")).json()["data"]
        assert detail["status"] == "pending"  # retried later
        assert detail["attempts"] == 1
        [logged] = detail["attempts_log"]
        assert logged["status_code"] is None
        assert "169.254.169.254" in logged["error"]
        assert "link-local" in logged["error"]


def test_the_signature_verifies_with_standardwebhooks() -> None:
    from standardwebhooks.webhooks import Webhook

    at = utcnow()
    headers = signed_headers(SECRET, "msg_1", at, '{"a":1}')
    assert Webhook(SECRET).verify('{"a":1}', headers) == {"a": 1}


async def test_an_unusable_secret_is_an_attempt_error_not_a_crash(app: FastAPI) -> None:
    deliverer: Deliverer = app.state.deliverer
    status, error = await attempt(deliverer, "http://127.0.0.1:9/", "s")
    assert status is None
    assert error is not None
    assert error.startswith("The signing secret is not usable")
