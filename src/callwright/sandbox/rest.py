"""The sandbox network's REST surface: Twilio's Calls resource and its error shape.

`POST .../Calls.json` creates, `GET .../Calls.json` lists (Twilio's paging: `PageSize`, `Page`,
`PageToken`; filters `To`, `From`, `Status`, `ParentCallSid`), `GET .../Calls/{sid}.json` reads
and `POST .../Calls/{sid}.json` updates. Every other path under `/sandbox/twilio`, and a known
path with another method, answers Twilio's JSON error (`code`, `message`, `more_info`,
`status`), never the web app's HTML.
"""

from __future__ import annotations

import base64
import email.utils
import hmac
import ipaddress
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.datastructures import QueryParams

if TYPE_CHECKING:
    from callwright.sandbox.network import SandboxNetwork

API_VERSION = "2010-04-01"
PREFIX = "/sandbox/twilio"
#: Twilio's page size: 50 unless asked, at most 1000 (error 20007 beyond).
PAGE_SIZE, MAX_PAGE_SIZE = 50, 1000
STATUSES = (
    "queued",
    "ringing",
    "in-progress",
    "canceled",
    "completed",
    "failed",
    "busy",
    "no-answer",
)
#: The list's filters, as Twilio names them, and the call resource's field each one reads.
FILTERS = {"To": "to", "From": "from", "Status": "status", "ParentCallSid": "parent_call_sid"}
ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


class TwilioError(Exception):
    """An error the network answers in Twilio's shape, with Twilio's code."""

    def __init__(self, code: int, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def response(self) -> JSONResponse:
        return JSONResponse(
            {
                "code": self.code,
                "message": self.message,
                "more_info": f"https://www.twilio.com/docs/errors/{self.code}",
                "status": self.status,
            },
            status_code=self.status,
        )


def install_error_handler(app: Any) -> None:
    async def handler(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, TwilioError)
        return exc.response()

    app.add_exception_handler(TwilioError, handler)


def make_router(network: SandboxNetwork) -> APIRouter:
    router = APIRouter(prefix=PREFIX, include_in_schema=False)
    calls = f"/{API_VERSION}/Accounts/{{account_sid}}/Calls"
    authenticated = [Depends(_authenticator(network))]

    @router.post(calls + ".json", dependencies=authenticated)
    async def create(request: Request) -> JSONResponse:
        call = network.place(await request.form())
        return JSONResponse(call.resource(network.account_sid), status_code=201)

    @router.get(calls + ".json", dependencies=authenticated)
    async def listing(request: Request) -> JSONResponse:
        query = request.query_params
        if query.get("Status", STATUSES[0]) not in STATUSES:
            raise TwilioError(20001, f"Status must be one of {', '.join(STATUSES)}", 400)
        rows = [row for row in network.resources() if _matches(row, query)]
        return JSONResponse(page(rows, request.query_params, network.account_sid))

    @router.get(calls + "/{call_sid}.json", dependencies=authenticated)
    async def read(call_sid: str) -> JSONResponse:
        return JSONResponse(network.resource(call_sid))

    @router.post(calls + "/{call_sid}.json", dependencies=authenticated)
    async def update(call_sid: str, request: Request) -> JSONResponse:
        call = network.update(call_sid, await request.form())
        return JSONResponse(call.resource(network.account_sid))

    @router.api_route("", methods=ALL_METHODS)
    @router.api_route("/{path:path}", methods=ALL_METHODS)
    async def elsewhere(request: Request) -> JSONResponse:
        """Any other path or method: Twilio's 404 (20404) or 405 (20004), as JSON."""
        path = request.url.path.removeprefix(PREFIX) or "/"
        known = any(
            route.path_regex.match(request.url.path)
            for route in router.routes
            if isinstance(route, APIRoute) and route.endpoint is not elsewhere
        )
        if known:
            raise TwilioError(20004, f"Method {request.method} not allowed on {path}", 405)
        raise TwilioError(20404, f"The requested resource {path} was not found", 404)

    return router


def _authenticator(network: SandboxNetwork) -> Any:
    async def authenticate(request: Request, account_sid: str) -> None:
        # A local network: only this machine's processes (the app's carrier) may use it.
        if not _is_loopback(request.client.host if request.client else ""):
            raise TwilioError(20003, "The sandbox network answers this machine only.", 403)
        header = request.headers.get("authorization", "")
        pair = f"{network.account_sid}:{network.auth_token}".encode()
        expected = "Basic " + base64.b64encode(pair).decode()
        if account_sid != network.account_sid or not hmac.compare_digest(header, expected):
            raise TwilioError(20003, "Authenticate", 401)

    return authenticate


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _matches(row: dict[str, Any], query: QueryParams) -> bool:
    return all(query.get(name) in (None, row.get(field)) for name, field in FILTERS.items())


def _integer(query: QueryParams, name: str, default: int) -> int:
    value = query.get(name)
    if value is None:
        return default
    if not value.isdigit():
        raise TwilioError(20001, f"{name} must be a whole number, not {value!r}", 400)
    return int(value)


def page(rows: list[dict[str, Any]], query: QueryParams, account_sid: str) -> dict[str, Any]:
    """One page of `rows` (newest first) in Twilio's list shape. `PageToken` is Twilio's:
    `PA` and the last sid of the page before (the next page), or `PB` and the first sid of the
    page after (the previous page); without one, `Page` x `PageSize` rows are skipped."""
    size = _integer(query, "PageSize", PAGE_SIZE)
    if size > MAX_PAGE_SIZE:
        raise TwilioError(20007, "Page size too large: the maximum page size is 1000", 400)
    if size < 1:
        raise TwilioError(20001, "PageSize must be at least 1", 400)
    number = _integer(query, "Page", 0)
    start = _offset(rows, query.get("PageToken"), number, size)
    shown = rows[start : start + size]
    filters = {name: query[name] for name in FILTERS if name in query}
    base = f"/{API_VERSION}/Accounts/{account_sid}/Calls.json"

    def uri(page_number: int, token: str | None = None) -> str:
        params = filters | {"PageSize": str(size), "Page": str(page_number)}
        return base + "?" + urlencode(params | ({"PageToken": token} if token else {}))

    more = start + size < len(rows)
    return {
        "calls": shown,
        "page": number,
        "page_size": size,
        "start": start,
        "end": start + max(0, len(shown) - 1),
        "uri": uri(number, query.get("PageToken")),
        "first_page_uri": uri(0),
        "next_page_uri": uri(number + 1, "PA" + shown[-1]["sid"]) if more and shown else None,
        "previous_page_uri": (
            uri(number - 1, "PB" + shown[0]["sid"]) if number > 0 and shown else None
        ),
    }


def _offset(rows: list[dict[str, Any]], token: str | None, number: int, size: int) -> int:
    if not token:
        return number * size
    sids = [row["sid"] for row in rows]
    kind, sid = token[:2], token[2:]
    if kind not in ("PA", "PB") or sid not in sids:
        raise TwilioError(21481, "Invalid PageToken", 400)
    at = sids.index(sid)
    return at + 1 if kind == "PA" else max(0, at - size)


def call_resource(
    account_sid: str,
    *,
    sid: str,
    parent: str | None,
    to: str,
    from_: str,
    status: str,
    direction: str,
    times: tuple[datetime, datetime | None, datetime | None],
    duration: int | None,
) -> dict[str, Any]:
    """Twilio's call resource (`times`: created, answered, ended)."""
    created, answered, ended = times

    def stamp(value: datetime | None) -> str | None:
        return email.utils.format_datetime(value) if value else None

    uri = f"/{API_VERSION}/Accounts/{account_sid}/Calls/{sid}"
    return {
        "sid": sid,
        "parent_call_sid": parent,
        "account_sid": account_sid,
        "to": to,
        "to_formatted": to,
        "from": from_,
        "from_formatted": from_,
        "status": status,
        "direction": direction,
        "date_created": stamp(created),
        "date_updated": stamp(ended or answered or created),
        "start_time": stamp(answered),
        "end_time": stamp(ended),
        "duration": str(duration) if duration is not None else None,
        "answered_by": None,
        "annotation": None,
        "caller_name": None,
        "forwarded_from": None,
        "group_sid": None,
        "phone_number_sid": None,
        "trunk_sid": None,
        "queue_time": "0",
        "price": None,
        "price_unit": "USD",
        "api_version": API_VERSION,
        "uri": uri + ".json",
        "subresource_uris": {
            name: f"{uri}/{title}.json"
            for name, title in (
                ("notifications", "Notifications"),
                ("recordings", "Recordings"),
                ("streams", "Streams"),
            )
        },
    }
