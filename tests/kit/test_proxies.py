"""The client's address for rate limits (issue 15): X-Forwarded-For counts only from the
configured trusted proxies (CALLWRIGHT_TRUSTED_PROXIES), never from any loopback client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from callwright.config import Settings, parse_networks
from callwright.kit.proxies import client_address
from callwright.kit.serving import free_port, serving
from callwright.main import create_app

LIMIT = 3


@asynccontextmanager
async def _server(settings: Settings, **overrides: Any) -> AsyncIterator[httpx.AsyncClient]:
    """The app under real uvicorn (as `callwright serve` runs it), with a per-IP login limit of
    3 a minute; a client over loopback."""
    port = free_port()
    app = create_app(
        settings.model_copy(update={"login_max_attempts_per_ip": LIMIT, "port": port, **overrides})
    )
    async with (
        serving(app, port),
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client,
    ):
        yield client


async def _login_codes(client: httpx.AsyncClient, forwarded: list[str]) -> list[int]:
    codes = []
    for i, hop in enumerate(forwarded):
        response = await client.post(
            "/api/v1/login",
            json={"email": f"nobody{i}@example.com", "password": "guess guess"},
            headers={"X-Forwarded-For": hop},
        )
        codes.append(response.status_code)
    return codes


async def test_a_loopback_client_cannot_choose_its_address(migrated: Settings) -> None:
    """No trusted proxies (the default): each new X-Forwarded-For still counts against the
    socket peer, so the fourth attempt is refused."""
    async with _server(migrated) as client:
        codes = await _login_codes(client, [f"198.51.100.{i}" for i in range(LIMIT + 1)])
    assert codes == [422] * LIMIT + [429]


async def test_a_trusted_proxy_names_the_client(migrated: Settings) -> None:
    async with _server(migrated, trusted_proxies=["127.0.0.0/8"]) as client:
        # Each client its own count, the proxy itself none.
        spread = await _login_codes(client, [f"198.51.100.{i}" for i in range(LIMIT + 1)])
        # A client cannot pick its address by sending its own header: the proxy appends the
        # address it saw, and that is the one counted.
        spoofed = await _login_codes(
            client, [f"10.9.9.{i}, 198.51.100.50" for i in range(LIMIT + 1)]
        )
    assert spread == [422] * (LIMIT + 1)
    assert spoofed == [422] * LIMIT + [429]


@pytest.mark.parametrize(
    ("peer", "header", "expected"),
    [
        ("127.0.0.1", "198.51.100.7", "127.0.0.1"),  # peer not trusted
        ("10.0.0.2", "198.51.100.7", "198.51.100.7"),
        ("10.0.0.2", "203.0.113.1, 198.51.100.7", "198.51.100.7"),  # rightmost untrusted
        ("10.0.0.2", "198.51.100.7, 10.0.0.9", "198.51.100.7"),  # trusted hops skipped
        ("10.0.0.2", "10.0.0.8, 10.0.0.9", "10.0.0.8"),  # all trusted: the first
        ("10.0.0.2", "198.51.100.7, garbage", "10.0.0.2"),  # garbage: the proxy's peer
        ("10.0.0.2", None, "10.0.0.2"),
        ("10.0.0.2", "2001:db8::5", "2001:db8::5"),
    ],
)
def test_client_address_walks_the_chain_from_the_right(
    peer: str, header: str | None, expected: str
) -> None:
    assert client_address(peer, header, parse_networks(["10.0.0.0/8"])) == expected


def test_bad_trusted_proxies_are_refused(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        Settings(
            env="test",
            data_dir=tmp_path,
            secret_key="test-secret-key-0123456789abcdef0123456789",
            trusted_proxies=["10.0.0.0/8", "not-an-ip"],
        )
