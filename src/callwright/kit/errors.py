"""One error family, one JSON shape: {success: false, message, errors}."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from callwright.kit.db import unreachable

T = TypeVar("T")
log = logging.getLogger(__name__)
#: What a request is told while the database (or another service it needs) cannot be reached.
UNAVAILABLE = "The service is briefly unavailable. Please try again in a moment."
UNAVAILABLE_RETRY_AFTER = "5"


class AppError(Exception):
    status_code = 400

    def __init__(
        self,
        message: str,
        status_code: int | None = None,
        *,
        errors: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if status_code is not None:
            self.status_code = status_code
        self.errors = errors
        self.headers = headers
        #: More fields for the error body, beside `message` and `errors` (what a client can
        #: act on: a calling-hours refusal's `next_open_at`).
        self.extra = extra


class ValidationFailed(AppError):
    status_code = 422

    def __init__(self, errors: dict[str, list[str]], message: str | None = None) -> None:
        first = next(iter(errors.values()))[0] if errors else "The given data was invalid."
        super().__init__(message or first, errors=errors)


class Unauthenticated(AppError):
    status_code = 401

    def __init__(self, message: str = "Unauthenticated.") -> None:
        super().__init__(message)


class Forbidden(AppError):
    status_code = 403

    def __init__(self, message: str = "This action is unauthorized.") -> None:
        super().__init__(message)


class NotFound(AppError):
    status_code = 404

    def __init__(self, message: str = "Not found.") -> None:
        super().__init__(message)


def or_404(found: T | None, message: str) -> T:
    """What a lookup found, or the 404 with `message` when it found nothing."""
    if found is None:
        raise NotFound(message)
    return found


class TooManyRequests(AppError):
    status_code = 429

    def __init__(self, retry_after: int, message: str = "Too Many Attempts.") -> None:
        super().__init__(message, headers={"Retry-After": str(max(1, retry_after))})
        self.retry_after = retry_after


def error_body(
    message: str, errors: dict[str, list[str]] | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"success": False, "message": message, "errors": errors or {}, **(extra or {})}


#: How an API with a dialect of its own writes an error: (status, message, errors) -> the
#: status and body it answers (`/v1` speaks Bland's: public_api.errors).
Dialect = Callable[[int, str, dict[str, list[str]]], tuple[int, dict[str, Any]]]
_DIALECTS: dict[str, Dialect] = {}


def speak_under(prefix: str, dialect: Dialect) -> None:
    """Errors answered for paths under `prefix` before the app's handlers see the request (a
    middleware's: a body too large, a NUL character) are written in `dialect`."""
    _DIALECTS[prefix] = dialect


def error_at(
    path: str, status: int, message: str, errors: dict[str, list[str]] | None = None
) -> tuple[int, dict[str, Any]]:
    """The status and body of an error for a request to `path`: the app's shape, or the
    dialect of the API that serves `path`."""
    for prefix, dialect in _DIALECTS.items():
        if path.startswith(prefix):
            return dialect(status, message, errors or {})
    return status, error_body(message, errors)


async def send_error(
    send: Send,
    status: int,
    message: str,
    errors: dict[str, list[str]] | None = None,
    *,
    close: bool = False,
    path: str = "",
) -> None:
    """Answer from an ASGI middleware, before the app saw the request, in the app's error
    shape, or the dialect of the API that serves `path` (`close`: the connection is not
    reused, for a body left unread)."""
    status, shaped = error_at(path, status, message, errors)
    body = json.dumps(shaped).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header", "cookie")]
    return ".".join(parts) or "body"


def _pretty(error: dict[str, Any]) -> str:
    field = _field_name(tuple(error.get("loc", ())))
    kind = error.get("type", "")
    if kind == "missing":
        return f"The {field.replace('_', ' ')} field is required."
    if kind == "extra_forbidden":
        return f"The {field.replace('_', ' ')} field is not allowed."
    msg = str(error.get("msg", "Invalid value."))
    if kind == "value_error":
        return msg.removeprefix("Value error, ")  # our own messages, exactly as written
    return msg if msg.endswith(".") else msg + "."


def validation_errors(exc: RequestValidationError) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for err in exc.errors():
        out.setdefault(_field_name(tuple(err.get("loc", ()))), []).append(_pretty(err))
    return out


def install_error_handlers(app: FastAPI) -> None:
    async def app_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, AppError)
        return JSONResponse(
            error_body(exc.message, exc.errors, exc.extra),
            status_code=exc.status_code,
            headers=exc.headers,
        )

    async def request_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = validation_errors(exc)
        first = next(iter(errors.values()))[0] if errors else "The given data was invalid."
        return JSONResponse(error_body(first, errors), status_code=422)

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        message = exc.detail if isinstance(exc.detail, str) else "Request failed."
        headers = getattr(exc, "headers", None)
        return JSONResponse(error_body(message), status_code=exc.status_code, headers=headers)

    async def unhandled(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(error_body("Server Error"), status_code=500)

    async def connection_lost(request: Request, exc: Exception) -> JSONResponse:
        """The database (or another service) cannot be reached, as while PostgreSQL restarts:
        503 with Retry-After, and one line in the log rather than a traceback a request."""
        if not unreachable(exc):
            # Handled here, the error is not re-raised to the server, which would log it.
            log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
            return await unhandled(request, exc)
        log.warning(
            "%s %s: unavailable (%s: %s)", request.method, request.url.path, type(exc).__name__, exc
        )
        return JSONResponse(
            error_body(UNAVAILABLE),
            status_code=503,
            headers={"Retry-After": UNAVAILABLE_RETRY_AFTER},
        )

    app.add_exception_handler(AppError, app_error)
    app.add_exception_handler(RequestValidationError, request_validation)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(DBAPIError, connection_lost)
    app.add_exception_handler(ConnectionError, connection_lost)
    app.add_exception_handler(Exception, unhandled)
