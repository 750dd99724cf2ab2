"""How the API's OpenAPI document says who may call what (`document_security`): the schemes
(an API key in `authorization` for `/v1`; a bearer token, or the session cookie with the
XSRF header, for `/api/v1`) and, on each operation, the ones it takes, read from the
operation's own dependencies, so a generated client knows which header to send. Also the
document at `/openapi.json`, where generators look first (the same document)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, iter_route_contexts

from callwright.auth.cookies import XSRF_HEADER
from callwright.auth.deps import admin_user, current_token, current_user
from callwright.config import Settings
from callwright.developers.keys import api_key_caller

API_KEY, BEARER, SESSION, XSRF = "ApiKey", "Bearer", "SessionCookie", "XsrfHeader"
#: A signed-in user's ways in: a bearer token, or the session cookie (with the XSRF header,
#: which only a mutating request needs: docs/security.md).
USER: list[dict[str, list[str]]] = [{BEARER: []}, {SESSION: [], XSRF: []}]
USER_CALLS: tuple[Callable[..., Any], ...] = (current_user, admin_user, current_token)


def schemes(settings: Settings) -> dict[str, dict[str, str]]:
    return {
        API_KEY: {
            "type": "apiKey",
            "in": "header",
            "name": "authorization",
            "description": "A `/v1` API key, as Bland's clients send it (`Bearer <key>` works too).",
        },
        BEARER: {"type": "http", "scheme": "bearer", "description": "A session token."},
        SESSION: {"type": "apiKey", "in": "cookie", "name": settings.session_cookie},
        XSRF: {
            "type": "apiKey",
            "in": "header",
            "name": XSRF_HEADER,
            "description": "The XSRF-TOKEN cookie's value, on every mutating request.",
        },
    }


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from _calls(dependency)


def security_of(route: APIRoute) -> list[dict[str, list[str]]] | None:
    """The schemes `route` takes (None: it is open to anyone)."""
    calls = set(_calls(route.dependant))
    if api_key_caller in calls:
        return [{API_KEY: []}]
    if calls.intersection(USER_CALLS):
        return USER
    return None


def document_security(app: FastAPI, settings: Settings) -> None:
    """Add the schemes to `app.openapi()`, and serve the document at `/openapi.json` too
    (where the app serves its schema at all: not in production)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = build()
        document.setdefault("components", {})["securitySchemes"] = schemes(settings)
        paths = document.get("paths", {})
        for context in iter_route_contexts(app.routes):
            route = context.original_route
            security = security_of(route) if isinstance(route, APIRoute) else None
            operations = paths.get(context.path_format, {}) if security else {}
            for method in context.methods or ():
                if method.lower() in operations:
                    operations[method.lower()]["security"] = security
        return document

    app.openapi = openapi  # type: ignore[method-assign]
    if app.openapi_url is not None:

        @app.get("/openapi.json", include_in_schema=False)
        async def root_openapi(_request: Request) -> JSONResponse:
            return JSONResponse(app.openapi())
