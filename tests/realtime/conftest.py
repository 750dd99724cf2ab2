"""A served app (sockets need a real server) and socket.io clients that note what they get."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import socketio
from fastapi import FastAPI

from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.realtime.server import Realtime
from tests.factories import ApiClient, make_client


@dataclass
class Server:
    app: FastAPI
    url: str

    @property
    def realtime(self) -> Realtime:
        realtime: Realtime = self.app.state.realtime
        return realtime

    def client(self, token: str | None = None) -> ApiClient:
        c = make_client(self.app, ip="198.51.100.77")
        c.token = token
        return c


@asynccontextmanager
async def serve(settings: Settings, **overrides: Any) -> AsyncIterator[Server]:
    port = free_port()
    app = create_app(
        settings.model_copy(
            update={"app_url": f"http://127.0.0.1:{port}", "port": port, **overrides}
        )
    )
    async with serving(app.state.realtime.wrap(app), port):
        yield Server(app, f"http://127.0.0.1:{port}")


@pytest.fixture
async def server(app: FastAPI, migrated: Settings) -> AsyncIterator[Server]:
    """A served app on the test database; `app` wipes it first."""
    async with serve(migrated) as s:
        yield s


@dataclass
class Socket:
    client: socketio.AsyncClient
    got: list[dict[str, Any]] = field(default_factory=list)
    #: Every event by name, in order (webhook-event included).
    events: list[tuple[str, Any]] = field(default_factory=list)
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    async def ends(self, within: float = 5) -> None:
        await asyncio.wait_for(self.ended.wait(), within)
        assert not self.client.connected

    async def stays(self, for_s: float = 0.5) -> None:
        await asyncio.sleep(for_s)
        assert self.client.connected
        assert not self.ended.is_set()


async def open_socket(server: Server, auth: dict[str, Any] | None) -> Socket:
    """A connected socket with this handshake `auth` (socketio's ConnectionError if refused)."""
    client = socketio.AsyncClient(reconnection=False)
    socket = Socket(client)

    async def on_any(event: str, data: Any = None) -> None:
        socket.events.append((event, data))
        if event == "webhook-event":
            socket.got.append(data)

    async def on_disconnect(*_: Any) -> None:
        socket.ended.set()

    client.on("*", on_any)
    client.on("disconnect", on_disconnect)
    await client.connect(
        server.url,
        socketio_path="socket.io",
        auth=auth,
        transports=["websocket"],
        wait_timeout=5,
    )
    return socket


async def close(*sockets: Socket) -> None:
    for s in sockets:
        await s.client.disconnect()
