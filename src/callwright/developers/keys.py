"""API keys for the `/v1` API: `cw_<secret>`, shown once; only sha256 of the key is stored.

A key is presented as Bland's clients send it (`authorization: <key>`) or as a bearer token
(`Authorization: Bearer <key>`). It never signs in to the dashboard's own routes: those read
only `{id}|{secret}` session tokens, and a key has no `|`. Each key is rate limited on its own
(429 with `Retry-After`), and so is each client address that presents keys that are not (a
missing, unknown or revoked key): guessing keys costs a window of waiting per few tries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.developers import repository
from callwright.kit.db import SessionDep
from callwright.kit.deps import LimiterDep, client_ip
from callwright.kit.errors import Unauthenticated
from callwright.kit.security import random_token, sha256_hex
from callwright.kit.time import utcnow
from callwright.models import User

KEY_PREFIX = "cw_"
#: How many characters of a key are kept in the clear to tell keys apart (`cw_` + 8).
SHOWN_PREFIX = len(KEY_PREFIX) + 8
#: Last-used time is written at most this often per key.
TOUCH_EVERY = timedelta(minutes=1)
#: Requests a key may make per window (every `/v1` route counts).
REQUESTS_PER_WINDOW = 120
WINDOW_SECONDS = 60

#: Requests without a valid key an address may make per window.
REFUSED_PER_WINDOW = 30

MISSING = "Missing API key. Send it in the authorization header."
INVALID = "Invalid API key."
TOO_MANY_REFUSED = "Too many requests without a valid API key. Try again later."


def new_key() -> tuple[str, str, str]:
    """A fresh key: (the key, its shown prefix, its sha256)."""
    key = KEY_PREFIX + random_token(30)
    return key, key[:SHOWN_PREFIX], sha256_hex(key)


def presented_key(request: Request) -> str | None:
    """The key in `authorization`, raw (Bland's clients) or after `Bearer `."""
    header = request.headers.get("authorization", "").strip()
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer":
        header = value.strip()
    return header or None


@dataclass(frozen=True)
class ApiCaller:
    """Who a `/v1` request acts for: the key's owner, and the key."""

    user: User
    key_id: int


async def resolve(session: AsyncSession, key: str) -> ApiCaller | None:
    """The live key `key` names and its owner; None when unknown or revoked."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    found = await repository.key_and_owner(session, sha256_hex(key))
    if found is None:
        return None
    api_key, user = found
    now = utcnow()
    if api_key.last_used_at is None or now - api_key.last_used_at > TOUCH_EVERY:
        await repository.touch_key(session, api_key.id, now)
    return ApiCaller(user=user, key_id=api_key.id)


async def api_key_caller(request: Request, session: SessionDep, limiter: LimiterDep) -> ApiCaller:
    address = client_ip(request)
    refused = ("api-key-refused", address, REFUSED_PER_WINDOW, WINDOW_SECONDS, TOO_MANY_REFUSED)
    # An address that used up its refusals waits, whatever key it sends now: no lookup.
    await limiter.check(*refused)
    key = presented_key(request)
    caller = await resolve(session, key) if key is not None else None
    if caller is None:
        await limiter.hit(*refused)
        raise Unauthenticated(MISSING if key is None else INVALID)
    await limiter.hit(
        "api-key",
        str(caller.key_id),
        REQUESTS_PER_WINDOW,
        WINDOW_SECONDS,
        "Too many requests for this API key. Try again later.",
    )
    return caller


ApiKeyCaller = Annotated[ApiCaller, Depends(api_key_caller)]
