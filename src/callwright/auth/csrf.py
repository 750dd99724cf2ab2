"""CSRF protection, Sanctum style.

A mutating request that carries our cookies (the session cookie or XSRF-TOKEN) must echo the
XSRF-TOKEN cookie in the X-XSRF-TOKEN header, and the token must bear our signature; otherwise
419 "CSRF token mismatch.". A request without cookies has no ambient credential to abuse (a
bearer-token client, a carrier webhook) and passes.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

from callwright.auth.cookies import XSRF_COOKIE, valid_xsrf_token
from callwright.kit.errors import send_error
from callwright.kit.security import constant_time_equals

SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}


class CSRFMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        secret_key: str,
        session_cookie: str,
        exempt_prefixes: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.secret_key = secret_key
        self.session_cookie = session_cookie
        self.exempt_prefixes = exempt_prefixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if not path.startswith("/api/") or path.startswith(self.exempt_prefixes):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except Exception:
            cookies = SimpleCookie()
        if self.session_cookie not in cookies and XSRF_COOKIE not in cookies:
            await self.app(scope, receive, send)
            return
        cookie_token = cookies[XSRF_COOKIE].value if XSRF_COOKIE in cookies else ""
        header_token = headers.get("x-xsrf-token", "")
        if (
            cookie_token
            and header_token
            and constant_time_equals(cookie_token, header_token)
            and valid_xsrf_token(self.secret_key, header_token)
        ):
            await self.app(scope, receive, send)
            return
        await send_error(send, 419, "CSRF token mismatch.")
