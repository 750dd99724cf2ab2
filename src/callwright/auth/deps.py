"""Who is calling: bearer token first, then the session cookie. Roles are enforced here. Also the
sign-up credit and the OAuth clients, as request dependencies."""

from __future__ import annotations

from typing import Annotated

from authlib.integrations.starlette_client import OAuth
from fastapi import Depends, Request

from callwright.auth import tokens
from callwright.auth.credits import StarterCredit
from callwright.kit.db import SessionDep
from callwright.kit.deps import from_app
from callwright.kit.errors import Forbidden, Unauthenticated
from callwright.models import User


def _presented_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(request.app.state.settings.session_cookie) or None


async def optional_user(request: Request, session: SessionDep) -> User | None:
    plaintext = _presented_token(request)
    if not plaintext:
        return None
    found = await tokens.resolve(session, plaintext, request.app.state.db.write_behind)
    if found is None:
        return None
    token_id, user = found
    request.state.token_id = token_id
    return user


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    if user is None:
        raise Unauthenticated()
    return user


async def admin_user(user: Annotated[User, Depends(current_user)]) -> User:
    if not user.is_admin:
        raise Forbidden()
    return user


async def current_token(request: Request, _user: Annotated[User, Depends(current_user)]) -> int:
    """The id of the token the request was signed in with."""
    token_id: int | None = getattr(request.state, "token_id", None)
    if token_id is None:
        raise Unauthenticated()
    return token_id


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]
AdminUser = Annotated[User, Depends(admin_user)]
CurrentTokenId = Annotated[int, Depends(current_token)]


CreditsDep = Annotated[StarterCredit, Depends(from_app("calls.billing"))]
#: The app's OAuth clients (Google sign-in; `auth.google.build_oauth`).
OAuthDep = Annotated[OAuth, Depends(from_app("oauth"))]
