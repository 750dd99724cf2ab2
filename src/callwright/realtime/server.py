"""Socket.IO at /socket.io. The handshake authenticates with the bearer token (auth.token, or
the Authorization header) or the session cookie; each connection joins `user:{id}` and, for
admins, `admin`. Everything is emitted through publish(); in scale-out a Redis manager carries
emits from worker and voice processes."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any

import socketio
from starlette.types import ASGIApp

from callwright.auth.cookies import SESSION_COOKIE
from callwright.config import Settings

log = logging.getLogger(__name__)

#: realtime.publish's shape: (room, event, data). Workers get one from redis_publisher().
Publisher = Callable[[str, str, dict[str, Any]], Awaitable[None]]

#: token -> (user id, is admin), or None when the token is not valid.
Authenticator = Callable[[str], Awaitable[tuple[int, bool] | None]]


def user_room(user_id: int) -> str:
    return f"user:{user_id}"


ADMIN_ROOM = "admin"


class Realtime:
    def __init__(self, settings: Settings, authenticate: Authenticator) -> None:
        manager = socketio.AsyncRedisManager(settings.redis_url) if settings.redis_url else None
        self.sio = socketio.AsyncServer(
            async_mode="asgi",
            cors_allowed_origins=settings.allowed_origins,
            client_manager=manager,
            logger=False,
            engineio_logger=False,
        )
        self._authenticate = authenticate
        self.sio.on("connect", self._connect)

    async def _connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = _token_from(environ, auth)
        who = await self._authenticate(token) if token else None
        if who is None:
            raise socketio.exceptions.ConnectionRefusedError("Unauthenticated.")
        user_id, is_admin = who
        await self.sio.enter_room(sid, user_room(user_id))
        if is_admin:
            await self.sio.enter_room(sid, ADMIN_ROOM)

    async def publish(self, room: str, event: str, data: dict[str, Any]) -> None:
        await self.sio.emit(event, data, room=room)

    def wrap(self, app: ASGIApp) -> ASGIApp:
        wrapped: ASGIApp = socketio.ASGIApp(self.sio, other_asgi_app=app, socketio_path="socket.io")
        return wrapped


def redis_publisher(settings: Settings) -> Publisher:
    """publish() for processes without sockets (workers): emits through the Redis manager that
    the API processes listen on; without Redis there is no one to reach, so events are logged."""
    if not settings.redis_url:
        log.warning("no CALLWRIGHT_REDIS_URL: this process's realtime events reach no socket")

        async def drop(room: str, event: str, data: dict[str, Any]) -> None:
            log.debug("realtime %s to %s dropped: %s", event, room, data)

        return drop
    manager = socketio.AsyncRedisManager(settings.redis_url, write_only=True)

    async def publish(room: str, event: str, data: dict[str, Any]) -> None:
        await manager.emit(event, data, room=room, namespace="/")

    return publish


def _token_from(environ: dict[str, Any], auth: Any) -> str | None:
    if isinstance(auth, dict) and isinstance(auth.get("token"), str) and auth["token"]:
        return str(auth["token"])
    header = str(environ.get("HTTP_AUTHORIZATION", ""))
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    cookies = SimpleCookie()
    try:
        cookies.load(str(environ.get("HTTP_COOKIE", "")))
    except Exception:
        return None
    return cookies[SESSION_COOKIE].value if SESSION_COOKIE in cookies else None
