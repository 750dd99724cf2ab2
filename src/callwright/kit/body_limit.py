"""A bound on every request body, applied before any of it is read into memory.

A pure ASGI middleware (no buffering of its own): a declared `Content-Length` over the limit is
answered 413 at once, without reading a byte; a body sent without one (chunked) is counted as
the app reads it, and the read that crosses the limit ends the request with the same 413. The
answer is the app's error shape: `{"success": false, "message": ..., "errors": {}}`.

One limit for every route (`CALLWRIGHT_MAX_BODY_BYTES`), a larger one only for the routes that
take big documents (`CALLWRIGHT_MAX_UPLOAD_BODY_BYTES`: the admin's blog posts). Websockets and
lifespan events pass untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from callwright.kit.errors import send_error

MIB = 1024 * 1024


def too_large_message(limit: int) -> str:
    size = f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"
    return f"The request body is too large (at most {size})."


class BodyTooLarge(HTTPException):
    """Raised by `receive` when a streamed body crosses the limit: FastAPI re-raises an
    HTTPException met while it reads a body, and the app's handler answers it."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large_message(limit))


class BodySizeLimit:
    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        upload_max_bytes: int,
        upload_routes: Iterable[tuple[str, str]] = (),
    ) -> None:
        """`upload_routes`: (method, path regex) pairs that get `upload_max_bytes`."""
        self.app = app
        self.max_bytes = max_bytes
        self.upload_max_bytes = upload_max_bytes
        self.upload_routes = [(m.upper(), re.compile(p)) for m, p in upload_routes]

    def limit_for(self, method: str, path: str) -> int:
        for route_method, pattern in self.upload_routes:
            if method == route_method and pattern.fullmatch(path):
                return self.upload_max_bytes
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["method"], scope["path"])
        declared = _content_length(scope)
        if declared is None:
            await _answer(send, scope, 400, "The Content-Length header is not a valid length.")
            return
        if declared > limit:
            await _answer(send, scope, 413, too_large_message(limit))
            return

        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except BodyTooLarge:
            # Read outside FastAPI's body parsing (nothing answered it): answer it here.
            if started:
                raise
            await _answer(send, scope, 413, too_large_message(limit))


def _content_length(scope: Scope) -> int | None:
    """The declared length; 0 when there is none; None when it is not a number."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.strip()
            if not text.isdigit():  # bytes: ASCII digits only
                return None
            return int(text) if len(text) <= 18 else 10**18
    return 0


async def _answer(send: Send, scope: Scope, status: int, message: str) -> None:
    await send_error(send, status, message, close=True, path=scope["path"])
