"""NUL characters are refused at the edge, with a 422 naming the field.

No text the app keeps or matches may hold U+0000: PostgreSQL's text types cannot store it (the
driver fails: a 500), C libraries stop reading at it, and on SQLite it would make two strings
look alike that are not. One pure ASGI middleware checks what a request carries before any
endpoint sees it: the path, the query string, and JSON and form bodies (read here in full;
BodySizeLimit, outside this one, has bounded them). A body without a NUL (nearly all of them:
the check is a byte search) goes on as it came, chunks and all.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from callwright.kit.errors import send_error

#: How a NUL can be written in each place: percent-encoded, raw, or as a JSON escape.
_IN_QUERY = (b"%00", b"\x00")
_IN_JSON = (b"\\u0000",)


def nul_message(field: str) -> str:
    return f"The {field.replace('_', ' ')} field must not contain NUL characters."


class NulGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        fields: list[str] = []
        if "\x00" in scope["path"]:
            fields.append("path")
        query: bytes = scope.get("query_string", b"")
        if any(mark in query for mark in _IN_QUERY):
            fields += _form_fields(query)
        if fields:
            await _refuse(send, fields, scope["path"])
            return

        kind = _body_kind(scope)
        if kind is None:
            await self.app(scope, receive, send)
            return
        messages = [await receive()]
        while messages[-1]["type"] == "http.request" and messages[-1].get("more_body"):
            messages.append(await receive())
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        fields = _json_fields(body) if kind == "json" else _form_fields(body)
        if fields:
            await _refuse(send, fields, scope["path"])
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def _body_kind(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            if media == b"application/json" or media.endswith(b"+json"):
                return "json"
            if media == b"application/x-www-form-urlencoded":
                return "form"
            return None
    return None


def _form_fields(data: bytes) -> list[str]:
    """Names of the fields of a query string or form body that hold a NUL (in name or value)."""
    if not any(mark in data for mark in _IN_QUERY):
        return []
    pairs = parse_qsl(data.decode("latin-1"), keep_blank_values=True, encoding="utf-8")
    return sorted({_printable(k) or "query" for k, v in pairs if "\x00" in k or "\x00" in v})


def _json_fields(body: bytes) -> list[str]:
    """Paths (`items.0.name`) of the JSON strings that hold a NUL; none for a body that is not
    JSON (the endpoint answers that one)."""
    if not any(mark in body for mark in _IN_JSON):
        return []
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):  # not JSON, or too deep: the endpoint refuses it
        return []
    return _walk(document)


def _walk(document: Any) -> list[str]:
    """The paths of the strings (and keys) in `document` that hold a NUL, in document order;
    walked with a stack of its own, so no nesting depth can exhaust Python's."""
    found: list[str] = []
    stack: list[tuple[Any, tuple[str, ...]]] = [(document, ())]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                found.append(".".join(at) or "body")
        elif isinstance(value, dict):
            items: list[tuple[Any, tuple[str, ...]]] = []
            for key, item in value.items():
                where = (*at, _printable(key))
                if "\x00" in key:
                    items.append((key, where))  # the key itself is named
                else:
                    items.append((item, where))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend(reversed([(item, (*at, str(i))) for i, item in enumerate(value)]))
    return found


def _printable(name: str) -> str:
    return name.replace("\x00", "")


async def _refuse(send: Send, fields: list[str], path: str) -> None:
    errors = {field: [nul_message(field)] for field in dict.fromkeys(fields)}
    await send_error(send, 422, next(iter(errors.values()))[0], errors, path=path)
