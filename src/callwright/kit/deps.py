"""Typed access to the app-wide singletons kept on app.state: `from_app` reads one, and each
package that owns a singleton names its dependency (`SettingsDep` here, `CallsDep` in
`calls/deps.py`, ...)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from callwright.config import Settings
from callwright.kit.db import Database
from callwright.kit.jobs import JobQueue
from callwright.kit.ratelimit import RateLimiter


def from_app(path: str) -> Callable[[HTTPConnection], Awaitable[Any]]:
    """A dependency answering the singleton at `path` on app.state ("settings", "calls.billing"),
    for a request or a websocket; the `Annotated` alias that uses it gives its type. It is a
    coroutine function, as every dependency here: FastAPI runs a plain `def` dependency in its
    thread pool, a thread hop per dependency per request (POST /v1/calls resolves several)."""
    names = path.split(".")

    async def singleton(connection: HTTPConnection) -> Any:
        found = connection.app.state
        for name in names:
            found = getattr(found, name)
        return found

    singleton.__name__ = f"app_{'_'.join(names)}"
    return singleton


def client_ip(request: Request) -> str:
    """The client's address: the socket peer, or what a trusted proxy says in X-Forwarded-For
    (kit.proxies.ClientAddressMiddleware decides it, from CALLWRIGHT_TRUSTED_PROXIES only)."""
    return request.client.host if request.client else "unknown"


SettingsDep = Annotated[Settings, Depends(from_app("settings"))]
LimiterDep = Annotated[RateLimiter, Depends(from_app("limiter"))]
JobsDep = Annotated[JobQueue, Depends(from_app("jobs"))]
#: The app's database, for work outside the request's unit of work (a streamed export).
DatabaseDep = Annotated[Database, Depends(from_app("db"))]


async def _client_address(request: Request) -> str:
    return client_ip(request)


ClientIP = Annotated[str, Depends(_client_address)]
