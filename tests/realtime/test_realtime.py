"""Socket.IO: the handshake needs a valid token; events reach only their owner (and admins)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import socketio

from callwright.realtime.events import WebhookEvent
from callwright.realtime.server import user_room
from tests.conftest import make_client
from tests.factories import add_user
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _connect(
    live: Live, token: str | None
) -> tuple[socketio.AsyncClient, list[dict[str, Any]]]:
    client = socketio.AsyncClient(reconnection=False)
    received: list[dict[str, Any]] = []

    async def on_event(data: dict[str, Any]) -> None:
        received.append(data)

    client.on("webhook-event", on_event)

    await client.connect(
        live.url,
        socketio_path="socket.io",
        auth={"token": token} if token else None,
        transports=["websocket"],
        wait_timeout=5,
    )
    return client, received


async def test_handshake_needs_a_valid_token(live: Live) -> None:
    for token in (None, "1|wrong", "garbage"):
        with pytest.raises(socketio.exceptions.ConnectionError):
            await _connect(live, token)


async def test_events_reach_only_their_owner_and_admins(live: Live) -> None:
    alice = await add_user(live.app, email="alice@example.com")
    bob = await add_user(live.app, email="bob@example.com")
    await add_user(live.app, email="root@example.com", role="admin")
    tokens = {}
    for email in ("alice@example.com", "bob@example.com", "root@example.com"):
        async with make_client(live.app) as c:
            tokens[email] = (await c.login(email))["token"]
    a, a_got = await _connect(live, tokens["alice@example.com"])
    b, b_got = await _connect(live, tokens["bob@example.com"])
    r, r_got = await _connect(live, tokens["root@example.com"])
    try:
        event = WebhookEvent(
            call_id="x", message="Call connected", category="call", completed=False
        )
        await live.app.state.realtime.publish(user_room(alice.id), event)
        await live.app.state.realtime.publish("admin", event)
        await asyncio.sleep(0.5)
        assert [e["message"] for e in a_got] == ["Call connected"]
        assert b_got == [], f"bob ({bob.id}) must not see alice's events"
        assert [e["message"] for e in r_got] == ["Call connected"]
    finally:
        for client in (a, b, r):
            await client.disconnect()
