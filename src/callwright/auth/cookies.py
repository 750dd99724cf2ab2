"""The browser-side cookies: the HttpOnly session cookie (the same token as the bearer, so the
audio element and the socket handshake authenticate) and the readable XSRF-TOKEN cookie."""

from __future__ import annotations

from fastapi import Response

from callwright.config import Settings
from callwright.kit.security import constant_time_equals, random_token, sign

XSRF_COOKIE = "XSRF-TOKEN"
XSRF_HEADER = "X-XSRF-TOKEN"
XSRF_MAX_AGE = 2 * 60 * 60


def new_xsrf_token(secret_key: str) -> str:
    """A signed double-submit token: `{nonce}.{hmac}`. Hex and dots only, so it needs no escaping."""
    nonce = random_token(24).replace("-", "0").replace("_", "1")
    return f"{nonce}.{sign(secret_key, 'xsrf', nonce)}"


def valid_xsrf_token(secret_key: str, token: str) -> bool:
    nonce, sep, mac = token.partition(".")
    return bool(sep and nonce) and constant_time_equals(sign(secret_key, "xsrf", nonce), mac)


def set_xsrf_cookie(response: Response, settings: Settings, token: str) -> None:
    response.set_cookie(
        XSRF_COOKIE,
        token,
        max_age=XSRF_MAX_AGE,
        path="/",
        secure=settings.secure_cookies,
        httponly=False,
        samesite="lax",
    )


def set_session_cookie(response: Response, settings: Settings, token: str) -> None:
    response.set_cookie(
        settings.session_cookie,
        token,
        max_age=settings.token_ttl_minutes * 60,
        path="/",
        secure=settings.secure_cookies,
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, settings: Settings) -> None:
    response.delete_cookie(
        settings.session_cookie,
        path="/",
        secure=settings.secure_cookies,
        httponly=True,
        samesite="lax",
    )
