"""Google sign-in (OpenID Connect) through Authlib: state + nonce + PKCE S256, ID token verified
against the provider's JWKS. Accounts are keyed on the Google subject; an existing account is
linked by e-mail only when Google says the address is verified."""

from __future__ import annotations

from typing import Any

import httpx2
from authlib.integrations.starlette_client import OAuth
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.auth.credits import StarterCredit
from callwright.auth.service import mark_verified
from callwright.config import Settings
from callwright.models import User
from callwright.models.user import Role
from callwright.users import repository as users

CALLBACK_PATH = "/api/v1/auth/google/callback"
NOT_CONFIGURED = (
    "Google sign-in is not configured on this server. An administrator can enable it by setting "
    "CALLWRIGHT_GOOGLE_CLIENT_ID and CALLWRIGHT_GOOGLE_CLIENT_SECRET."
)


class GoogleLoginError(Exception):
    pass


def build_oauth(settings: Settings, transport: httpx2.AsyncBaseTransport | None = None) -> OAuth:
    """`transport` lets the tests put a local OpenID provider behind the real protocol."""
    oauth = OAuth()
    client_kwargs: dict[str, Any] = {
        "scope": "openid email profile",
        "code_challenge_method": "S256",
    }
    if transport is not None:
        client_kwargs["transport"] = transport
    oauth.register(
        "google",
        client_id=settings.google_client_id,
        client_secret=settings.google_client_secret,
        server_metadata_url=settings.google_metadata_url,
        client_kwargs=client_kwargs,
    )
    return oauth


def callback_url(settings: Settings) -> str:
    return settings.app_url + CALLBACK_PATH


async def sign_in(
    session: AsyncSession, billing: StarterCredit, settings: Settings, claims: dict[str, Any]
) -> User:
    """The account for a Google identity: found by subject, linked by a verified e-mail, or
    created. An account Google verifies gets the starter credit once, like one verified by
    e-mail (auth.service.mark_verified)."""
    sub = claims.get("sub")
    email = str(claims.get("email") or "").lower()
    if not sub:
        raise GoogleLoginError("the ID token has no subject")
    user = await users.by_google_sub(session, str(sub))
    if user is not None:
        return user
    verified = claims.get("email_verified") in (True, "true")
    if not email or not verified:
        raise GoogleLoginError("Google did not vouch for the e-mail address")
    user = await users.by_email(session, email)
    if user is not None:
        if user.google_sub is not None:
            raise GoogleLoginError("the account is linked to another Google identity")
        user.google_sub = str(sub)
        if user.email_verified_at is None:
            await mark_verified(session, billing, settings, user)
        return user
    name = str(claims.get("name") or email.split("@")[0])[:255]
    user = await users.add(
        session,
        User(name=name, email=email, password_hash=None, role=Role.USER.value, google_sub=str(sub)),
    )
    await mark_verified(session, billing, settings, user)
    return user
