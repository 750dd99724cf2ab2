"""The browser-facing headers: the Content-Security-Policy lets pages connect to their own
origin (the socket.io websocket included) and the payment emulator only, never to any `ws:` or
`wss:` origin; the Permissions-Policy turns off the camera, geolocation and the microphone, which
no page uses."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.kit.middleware import content_security_policy
from tests.factories import make_client

pytestmark = pytest.mark.asyncio


def _directives(policy: str) -> dict[str, list[str]]:
    parts = (p.split() for p in policy.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


async def test_pages_connect_to_their_own_origin_and_features_are_off(app: FastAPI) -> None:
    async with make_client(app) as client:
        for path in ("/api/v1/health", "/"):
            response = await client.get(path)
            connect = _directives(response.headers["content-security-policy"])["connect-src"]
            assert connect[0] == "'self'"
            assert not {"ws:", "wss:", "*", "https:", "http:"} & set(connect), connect
            assert response.headers["permissions-policy"] == (
                "camera=(), geolocation=(), microphone=()"
            )


def test_stripe_origins_are_added_beside_self() -> None:
    policy = content_security_policy(
        scripts="https://js.stripe.com", connect="https://api.stripe.com", frames=""
    )
    assert _directives(policy)["connect-src"] == ["'self'", "https://api.stripe.com"]
