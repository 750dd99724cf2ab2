"""A webhook receiver a customer would run, on loopback: it verifies every request with the
`standardwebhooks` package and answers the statuses it is told to (then 200)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from callwright.kit.serving import free_port, serving


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: str
    verified: Any  # the parsed payload, or None when the signature did not verify


@dataclass
class Receiver:
    #: The secret the customer verifies with (set once known).
    secret: str = ""
    #: Statuses to answer, first come first served; 200 once they run out.
    answers: list[int] = field(default_factory=list)
    #: path -> where it redirects (307).
    redirects: dict[str, str] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def verified(self) -> list[Received]:
        return [r for r in self.received if r.verified is not None]

    async def handle(self, request: Request) -> Response:
        path = request.url.path
        if path in self.redirects:
            return RedirectResponse(self.redirects[path], status_code=307)
        body = (await request.body()).decode()
        headers = dict(request.headers)
        try:
            verified = Webhook(self.secret).verify(body, headers) if self.secret else None
        except WebhookVerificationError:
            verified = None
        self.received.append(Received(path, headers, body, verified))
        status = self.answers.pop(0) if self.answers else 200
        if verified is None and status < 300:
            status = 400
        return PlainTextResponse(f"answered {status} " + "x" * 600, status_code=status)


@asynccontextmanager
async def receiving(receiver: Receiver | None = None) -> AsyncIterator[Receiver]:
    receiver = receiver or Receiver()
    receiver.port = free_port()
    app = Starlette(
        routes=[Route("/{path:path}", receiver.handle, methods=["POST", "GET"])],
    )
    async with serving(app, receiver.port):
        yield receiver
