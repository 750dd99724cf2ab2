"""The app's own small ASGI middlewares (the bigger ones have a module each in kit/:
body_limit, nul_guard, proxies)."""

from __future__ import annotations

from typing import Any

from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The pages' policy. `connect-src 'self'` covers the app's own socket.io websocket (CSP 3 matches
#: ws: and wss: of the page's own host to 'self'); no other origin's websocket is allowed.
CSP = (
    "default-src 'self'; img-src 'self' data: blob: https:; media-src 'self' blob:; "
    "connect-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; "
    "font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self' https://accounts.google.com"
)
#: Browser features no page of the app uses (no page records the microphone: calls are heard
#: through the recordings' audio elements).
PERMISSIONS_POLICY = "camera=(), geolocation=(), microphone=()"


def content_security_policy(*, scripts: str, connect: str, frames: str) -> str:
    """CSP with the payment form's origins added (Stripe.js, its API and its frames; or the
    local emulator's origin): each a space-separated list, possibly empty."""
    policy = CSP.replace("script-src 'self'", f"script-src 'self' {scripts}".rstrip())
    policy = policy.replace("connect-src 'self'", f"connect-src 'self' {connect}".rstrip())
    if frames:
        policy += f"; frame-src 'self' {frames}"
    return policy


class SecurityHeaders:
    """Headers every response gets; API answers are never cached."""

    def __init__(self, app: ASGIApp, hsts: bool, csp: str = CSP) -> None:
        self.app = app
        self.hsts = hsts
        self.csp = csp.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = scope["path"].startswith(("/api/", "/v1/"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"strict-origin-when-cross-origin"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy", self.csp),
                    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
                ]
                if is_api:
                    headers.append((b"cache-control", b"no-store"))
                if self.hsts:
                    headers.append(
                        (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
                    )
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class OAuthStateSession:
    """Starlette's signed-cookie session, only where Authlib keeps the OAuth state (the Google
    sign-in routes): every other request skips its cookie parsing and response wrapping."""

    def __init__(self, app: ASGIApp, prefix: str, options: dict[str, Any]) -> None:
        self.app = app
        self.prefix = prefix
        self.with_session = SessionMiddleware(app, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            await self.with_session(scope, receive, send)
        else:
            await self.app(scope, receive, send)
