"""Errors under `/v1` in Bland's shape, `{status: "error", message, errors}`, with the same
status codes as the rest of the app except validation: Bland answers a bad request with 400,
and so does `/v1` (the dashboard's routes keep 422). Every other path keeps the app's own
shape: these handlers hand anything outside `/v1/` to the handlers installed before them.

The answers given before a handler sees the request (a body too large, a NUL character) are
written in the same shape (`kit.errors.speak_under`), and so are the database's 503s: every
`/v1` error a client can meet is Bland's."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from callwright.billing.service import InsufficientBalance
from callwright.kit.errors import AppError, ValidationFailed, speak_under, validation_errors

PREFIX = "/v1/"
INSUFFICIENT_BALANCE = "Insufficient balance."


def is_v1(request: Request) -> bool:
    return request.url.path.startswith(PREFIX)


def bland_error(
    message: str,
    status_code: int,
    errors: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "status": "error",
        "message": message,
        "errors": errors or {},
        **(extra or {}),
    }
    return JSONResponse(body, status_code=status_code, headers=headers)


def bland_body(
    status: int, message: str, errors: dict[str, list[str]]
) -> tuple[int, dict[str, Any]]:
    """An error answered by a middleware, in Bland's shape (a 422 is Bland's 400)."""
    body: dict[str, Any] = {"status": "error", "message": message, "errors": errors}
    return (400 if status == 422 else status), body


def _reshaped(response: Response) -> JSONResponse:
    """An answer the app's own handler wrote (`{success: false, message, errors}`), in
    Bland's shape, with its status and headers (Retry-After)."""
    ours = json.loads(bytes(response.body))
    headers = {k: v for k, v in response.headers.items() if k.lower() == "retry-after"}
    return bland_error(ours["message"], response.status_code, ours.get("errors"), headers)


def _app_error(exc: AppError) -> JSONResponse:
    if isinstance(exc, InsufficientBalance):
        return bland_error(INSUFFICIENT_BALANCE, 402, {"balance": [exc.message]})
    status = 400 if isinstance(exc, ValidationFailed) else exc.status_code
    return bland_error(exc.message, status, exc.errors, exc.headers, exc.extra)


def install_v1_error_handlers(app: FastAPI) -> None:
    """Wrap the app's handlers (install after `kit.errors.install_error_handlers`)."""
    before = dict(app.exception_handlers)

    def wrap(kind: type[Exception], mine: Any) -> None:
        theirs = before[kind]

        async def handler(request: Request, exc: Exception) -> Any:
            if is_v1(request):
                return mine(exc)
            return await theirs(request, exc)

        app.add_exception_handler(kind, handler)

    def validation(exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = validation_errors(exc)
        first = next(iter(errors.values()))[0] if errors else "The given data was invalid."
        return bland_error(first, 400, errors)

    def http_error(exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        message = exc.detail if isinstance(exc.detail, str) else "Request failed."
        return bland_error(message, exc.status_code, headers=getattr(exc, "headers", None))

    def app_error(exc: Exception) -> JSONResponse:
        assert isinstance(exc, AppError)
        return _app_error(exc)

    def unhandled(_: Exception) -> JSONResponse:
        return bland_error("Server Error", 500)

    def reshape(kind: type[Exception]) -> None:
        theirs = before[kind]

        async def handler(request: Request, exc: Exception) -> Any:
            response = await theirs(request, exc)
            return _reshaped(response) if is_v1(request) else response

        app.add_exception_handler(kind, handler)

    wrap(AppError, app_error)
    wrap(RequestValidationError, validation)
    wrap(StarletteHTTPException, http_error)
    wrap(Exception, unhandled)
    reshape(DBAPIError)  # the database unreachable: 503 with Retry-After
    reshape(ConnectionError)
    speak_under(PREFIX, bland_body)
