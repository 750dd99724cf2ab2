"""Run an ASGI app on a port inside the current event loop (the CLI call, tests, benchmarks)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn

#: How long leaving `serving` waits for open connections before it cancels them.
SHUTDOWN_GRACE_SECONDS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def serving(app: Any, port: int, host: str = "127.0.0.1") -> AsyncIterator[uvicorn.Server]:
    """Serve `app` until the block ends; entering waits until it accepts connections. Leaving
    waits for open connections (a call's media stream, a socket) at most
    `SHUTDOWN_GRACE_SECONDS`, then cancels them: one left open never hangs the caller."""
    # proxy_headers off: the app decides the client's address (kit.proxies), not uvicorn.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        proxy_headers=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            await task  # re-raises why it could not start
            raise RuntimeError(f"the server on port {port} did not start")
        await asyncio.sleep(0.05)
    try:
        yield server
    finally:
        server.should_exit = True
        await task
