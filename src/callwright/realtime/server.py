"""Socket.IO at /socket.io. The handshake authenticates with the bearer token (auth.token, or
the Authorization header) or the session cookie; each connection joins `user:{id}`, `token:{id}`
(the sign-in token it came with) and, for admins, `admin`. Everything is emitted through
publish(); in scale-out a Redis manager carries emits from worker and voice processes.

A visitor without an account (the landing page's free test call) connects with
`auth: {visitor: <secret>, callId: <id>}` instead: the secret that placing the call returned
(`Visitors.admit` checks it). Such a socket joins `visitor:{call id}` and nothing else, so it
receives that call's events only; it may ask `call-state` (acknowledged with the call so far),
and it is disconnected a little after the call ends (a timer, and the re-check).

A socket lives no longer than its rights (see docs/security.md, "Sockets"):

- ending a room (`end`) disconnects every socket in it, in every API process: revoking a token
  ends `token:{id}`; a role change, a password set by an admin, a reset or a deletion end
  `user:{id}`. With Redis the order goes to the other processes over a control channel.
  Callers use `end_after_commit`, so nothing ends for a change that rolled back;
- each socket is disconnected when its token expires (a timer set at the handshake);
- every `recheck_seconds` each process asks the database whether its sockets' tokens are
  still valid and their users' roles unchanged, which catches what no message announced (a
  token deleted by hand, a control message lost while Redis was down)."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from http.cookies import SimpleCookie
from typing import Any, Protocol, TypeGuard
from urllib.parse import urlsplit

import redis.asyncio as aioredis
import socketio
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.types import ASGIApp
from tenacity import RetryCallState

from callwright.config import Settings
from callwright.kit.db import on_commit
from callwright.kit.retry import backoff, failure
from callwright.kit.time import utcnow
from callwright.realtime.events import CALL_STATE, CallState, LiveEvent, wire

log = logging.getLogger(__name__)

#: realtime.publish's shape: (room, event). Workers get one from redis_publisher().
Publisher = Callable[[str, LiveEvent], Awaitable[None]]


@dataclass(frozen=True)
class Identity:
    """Who a socket speaks for: the user, their role and the token it signed in with."""

    user_id: int
    is_admin: bool
    token_id: int
    expires_at: datetime


#: token -> its identity, or None when the token is not valid.
Authenticator = Callable[[str], Awaitable[Identity | None]]
#: token ids -> the identities of those still valid (unknown and expired ones left out).
Revalidator = Callable[[Collection[int]], Awaitable[dict[int, Identity]]]


def channel(redis_url: str, name: str) -> str:
    """A pub/sub channel of this install. Redis keys live in the URL's database but pub/sub
    channels are server-wide: two installs on one Redis server with different database numbers
    (or the test suite's two passes, run side by side) would hear each other's events under one
    name. The database number in the name keeps them apart."""
    database = urlsplit(redis_url).path.strip("/") or "0"
    return f"callwright:{database}:{name}"


#: Where socket.io's Redis manager carries emits between processes, and where API processes
#: tell each other which rooms to end (Redis pub/sub; `channel()` adds the database).
SOCKETIO_CHANNEL = "socketio"
CONTROL_CHANNEL = "realtime-control"
#: How often a process re-checks its sockets against the database.
RECHECK_SECONDS = 60.0
#: The longest call id and visitor secret a handshake may bring (ids are UUIDs, secrets 43
#: characters): anything longer is refused before the database is asked.
MAX_VISITOR_FIELD = 128
#: How many times one visitor socket may ask `call-state` (its client asks once per connection;
#: each answer reads the database, so a socket cannot make it read without end).
MAX_STATE_REQUESTS = 5


class Visitors(Protocol):
    """Which test call a visitor's secret lets a socket watch (`calls.viewers.CallViewers`)."""

    async def admit(self, call_id: str, secret: str) -> datetime | None:
        """Until when the socket may stay; None refuses it."""
        ...

    async def watchable(self, call_ids: Collection[str]) -> dict[str, datetime]:
        """The calls still watchable, with their deadlines."""
        ...

    async def state(self, call_id: str) -> CallState | None:
        """The call so far, for a socket that joined after it started."""
        ...


def user_room(user_id: int) -> str:
    return f"user:{user_id}"


def token_room(token_id: int) -> str:
    return f"token:{token_id}"


ADMIN_ROOM = "admin"


def visitor_room(call_id: str) -> str:
    """The sockets of the visitor who placed this public test call."""
    return f"visitor:{call_id}"


class SocketControl(Protocol):
    """What ends sockets, as the services see it."""

    def end_after_commit(self, session: AsyncSession, rooms: Collection[str]) -> None: ...


#: How soon an API process listens to Redis again after losing it (first wait, longest wait).
RELISTEN_SECONDS = (0.25, 2.0)


class RelisteningRedisManager(socketio.AsyncRedisManager):  # type: ignore[misc]
    """socket.io's Redis manager, listening again within `RELISTEN_SECONDS` once Redis is back.
    The library's own waits double up to 60 s, and what other processes publish while an API
    process is not listening (a call's transcript lines, its end) never reaches its sockets:
    after a Redis restart the sockets stayed dark for up to a minute. Here the waits double from
    the first to the longest and stay there (one back-off for the manager's life)."""

    async def _redis_listen_with_retries(self) -> AsyncIterator[Any]:
        first, longest = RELISTEN_SECONDS
        async for attempt in backoff(_any, first=first, longest=longest, before_sleep=_relisten):
            with attempt:
                self._redis_connect()
                await self.pubsub.subscribe(self.channel)
                async for message in self.pubsub.listen():
                    yield message


def _any(exc: BaseException) -> bool:
    return isinstance(exc, Exception)


def _relisten(state: RetryCallState) -> None:
    wait = state.upcoming_sleep
    log.warning("socket.io lost Redis (%s); listening again in %.2f s", failure(state), wait)


class Realtime:
    def __init__(
        self,
        settings: Settings,
        authenticate: Authenticator,
        revalidate: Revalidator | None = None,
        *,
        visitors: Visitors | None = None,
        recheck_seconds: float = RECHECK_SECONDS,
    ) -> None:
        manager = (
            RelisteningRedisManager(
                settings.redis_url, channel=channel(settings.redis_url, SOCKETIO_CHANNEL)
            )
            if settings.redis_url
            else None
        )
        self.sio = socketio.AsyncServer(
            async_mode="asgi",
            cors_allowed_origins=settings.allowed_origins,
            client_manager=manager,
            logger=False,
            engineio_logger=False,
        )
        self._redis_url = settings.redis_url
        self._control_channel = channel(settings.redis_url, CONTROL_CHANNEL)
        self._session_cookie = settings.session_cookie
        self._authenticate = authenticate
        self._revalidate = revalidate
        self._visitors = visitors
        self.recheck_seconds = recheck_seconds
        self._host_id = uuid.uuid4().hex
        #: This process's sockets and whom they speak for.
        self._sockets: dict[str, Identity] = {}
        #: This process's visitor sockets and the call each watches.
        self._watching: dict[str, str] = {}
        self._state_requests: dict[str, int] = {}
        self._expiry: dict[str, asyncio.TimerHandle] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._redis: aioredis.Redis | None = None
        self.sio.on("connect", self._connect)
        self.sio.on("disconnect", self._disconnected)
        self.sio.on(CALL_STATE, self._call_state)

    # -- connections -------------------------------------------------------------------------

    async def _connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        if isinstance(auth, dict) and "visitor" in auth:
            await self._connect_visitor(sid, auth)
            return
        token = _token_from(environ, auth, self._session_cookie)
        who = await self._authenticate(token) if token else None
        if who is None:
            raise socketio.exceptions.ConnectionRefusedError("Unauthenticated.")
        await self.sio.enter_room(sid, user_room(who.user_id))
        await self.sio.enter_room(sid, token_room(who.token_id))
        if who.is_admin:
            await self.sio.enter_room(sid, ADMIN_ROOM)
        self._sockets[sid] = who
        self._expire_at(sid, who.expires_at)

    async def _connect_visitor(self, sid: str, auth: dict[str, Any]) -> None:
        """A visitor's socket: one test call's room, only with that call's secret (the session
        cookie or a token, if any, are not looked at)."""
        call_id, secret = auth.get("callId"), auth.get("visitor")
        if self._visitors is None or not _plain(call_id) or not _plain(secret):
            raise socketio.exceptions.ConnectionRefusedError("Unauthenticated.")
        until = await self._visitors.admit(call_id, secret)
        if until is None:
            raise socketio.exceptions.ConnectionRefusedError("Unauthenticated.")
        await self.sio.enter_room(sid, visitor_room(call_id))
        self._watching[sid] = call_id
        self._expire_at(sid, until)

    async def _call_state(self, sid: str, *_args: Any) -> dict[str, Any] | None:
        """A visitor's socket asks for its call so far (acknowledged); others get nothing."""
        call_id = self._watching.get(sid)
        if call_id is None or self._visitors is None:
            return None
        asked = self._state_requests.get(sid, 0) + 1
        self._state_requests[sid] = asked
        if asked > MAX_STATE_REQUESTS:
            return None
        state = await self._visitors.state(call_id)
        return None if state is None else state.payload()

    def _expire_at(self, sid: str, at: datetime) -> None:
        delay = max(0.0, (at - utcnow()).total_seconds())
        self._expiry[sid] = asyncio.get_running_loop().call_later(delay, self._expire, sid)

    async def _disconnected(self, sid: str, *_reason: Any) -> None:
        self._sockets.pop(sid, None)
        self._watching.pop(sid, None)
        self._state_requests.pop(sid, None)
        timer = self._expiry.pop(sid, None)
        if timer is not None:
            timer.cancel()

    def _expire(self, sid: str) -> None:
        self._spawn(self._drop([sid]), "socket-expired")

    async def _drop(self, sids: Collection[str]) -> None:
        """Disconnect these sockets of this process."""
        for sid in sids:
            try:
                await self.sio.disconnect(sid, ignore_queue=True)
            except Exception:
                log.exception("could not disconnect socket %s", sid)
            await self._disconnected(sid)  # in case the server had already forgotten it

    # -- ending rooms ------------------------------------------------------------------------

    async def end(self, rooms: Collection[str]) -> None:
        """Disconnect every socket in `rooms`, in this process and (over Redis) all others."""
        rooms = sorted(set(rooms))
        if not rooms:
            return
        await self._end_here(rooms)
        if self._redis_url:
            message = json.dumps({"host": self._host_id, "rooms": rooms})
            try:
                await self._control().publish(self._control_channel, message)
            except Exception:
                # The periodic re-check ends the other processes' sockets in the end.
                log.exception("could not send the end of %s to the other processes", rooms)

    def end_after_commit(self, session: AsyncSession, rooms: Collection[str]) -> None:
        """End `rooms` once `session`'s transaction has committed."""
        ended = list(rooms)

        async def end() -> None:
            await self.end(ended)

        if ended:
            on_commit(session, end)

    async def _end_here(self, rooms: Collection[str]) -> None:
        sids = {sid for sid, _eio in self.sio.manager.get_participants("/", list(rooms))}
        if sids:
            await self._drop(sids)

    # -- the re-check and the control channel ------------------------------------------------

    async def recheck(self) -> None:
        """Disconnect this process's sockets whose token is gone or expired, or whose user's
        role changed since the handshake; and visitors' sockets whose call is no longer
        watchable."""
        stale: list[str] = []
        if self._revalidate is not None and self._sockets:
            sockets = dict(self._sockets)
            current = await self._revalidate({who.token_id for who in sockets.values()})
            stale += [sid for sid, who in sockets.items() if current.get(who.token_id) != who]
        if self._visitors is not None and self._watching:
            watching = dict(self._watching)
            open_calls = await self._visitors.watchable(set(watching.values()))
            stale += [sid for sid, call_id in watching.items() if call_id not in open_calls]
        if stale:
            await self._drop(stale)

    async def start(self) -> None:
        """Start the re-check (and, with Redis, the control channel listener)."""
        self._tasks.append(asyncio.create_task(self._recheck_forever(), name="socket-recheck"))
        if self._redis_url:
            self._tasks.append(asyncio.create_task(self._listen(), name="socket-control"))

    async def close(self) -> None:
        for task in [*self._tasks, *self._pending]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._pending, return_exceptions=True)
        self._tasks.clear()
        for timer in self._expiry.values():
            timer.cancel()
        self._expiry.clear()
        self._sockets.clear()
        self._watching.clear()
        self._state_requests.clear()
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
        # socket.io's Redis listener (the manager's background task) is never stopped by the
        # library: left running, it retried a Redis that had gone with the app, for ever.
        listener = getattr(self.sio.manager, "thread", None)
        if isinstance(listener, asyncio.Task):
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)

    async def _recheck_forever(self) -> None:
        # In-process on purpose, not a scheduled job: each API process re-checks the sockets it
        # holds itself (`self._sockets`), which no other process can see.
        while True:
            await asyncio.sleep(self.recheck_seconds)
            try:
                await self.recheck()
            except Exception:
                log.exception("socket re-check failed")

    def _control(self) -> aioredis.Redis:
        if self._redis is None:
            self._redis = aioredis.from_url(self._redis_url)
        return self._redis

    async def _listen(self) -> None:
        while True:
            try:
                async with self._control().pubsub() as pubsub:
                    await pubsub.subscribe(self._control_channel)
                    async for message in pubsub.listen():
                        if message.get("type") != "message":
                            continue
                        data = json.loads(message["data"])
                        if data.get("host") != self._host_id:
                            await self._end_here([str(r) for r in data.get("rooms", [])])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("socket control channel failed; listening again in 1 s")
                await asyncio.sleep(1)

    def _spawn(self, work: Awaitable[None], name: str) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # -- emitting ----------------------------------------------------------------------------

    async def publish(self, room: str, event: LiveEvent) -> None:
        name, data = wire(event)
        await self.sio.emit(name, data, room=room)

    def wrap(self, app: ASGIApp) -> ASGIApp:
        wrapped: ASGIApp = socketio.ASGIApp(self.sio, other_asgi_app=app, socketio_path="socket.io")
        return wrapped


def redis_publisher(settings: Settings) -> Publisher:
    """publish() for processes without sockets (workers): emits through the Redis manager that
    the API processes listen on; without Redis there is no one to reach, so events are logged."""
    if not settings.redis_url:
        log.warning("no CALLWRIGHT_REDIS_URL: this process's realtime events reach no socket")

        async def drop(room: str, event: LiveEvent) -> None:
            name, data = wire(event)
            log.debug("realtime %s to %s dropped: %s", name, room, data)

        return drop
    manager = socketio.AsyncRedisManager(
        settings.redis_url, channel=channel(settings.redis_url, SOCKETIO_CHANNEL), write_only=True
    )

    async def publish(room: str, event: LiveEvent) -> None:
        name, data = wire(event)
        await manager.emit(name, data, room=room, namespace="/")

    return publish


def _plain(value: Any) -> TypeGuard[str]:
    """A handshake field fit to look up: a short string without NUL (PostgreSQL refuses NUL)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_VISITOR_FIELD and "\x00" not in value


def _token_from(environ: dict[str, Any], auth: Any, cookie: str) -> str | None:
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
    return cookies[cookie].value if cookie in cookies else None
