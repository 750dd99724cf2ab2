"""A customer's own system on loopback, for custom tools and dynamic data: it records every
request (method, path, query, headers, JSON body) and answers from its routes; `/slow` answers
after `slow_seconds` (a tool that times out)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route


class ToolServer:
    def __init__(self, slow_seconds: float = 30.0) -> None:
        self.requests: list[dict[str, Any]] = []
        self.slow_seconds = slow_seconds

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/calendar", self.calendar, methods=["GET", "POST"]),
                Route("/customers/{customer_id}", self.customer, methods=["GET"]),
                Route("/slow", self.slow, methods=["GET", "POST"]),
                Route("/broken", self.broken, methods=["GET", "POST"]),
            ]
        )

    async def _record(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        seen = {
            "method": request.method,
            "path": request.url.path,
            "query": dict(request.query_params),
            "headers": {k.lower(): v for k, v in request.headers.items()},
            "json": await request.json() if raw else None,
        }
        self.requests.append(seen)
        return seen

    async def calendar(self, request: Request) -> JSONResponse:
        seen = await self._record(request)
        args = seen["json"] or seen["query"]
        return JSONResponse({"day": args.get("day"), "free": True, "times": ["3 pm", "4 pm"]})

    async def customer(self, request: Request) -> JSONResponse:
        await self._record(request)
        customer = request.path_params["customer_id"]
        return JSONResponse({"data": {"name": "Alex Morgan", "id": customer, "plan": "Gold"}})

    async def slow(self, request: Request) -> JSONResponse:
        await self._record(request)
        await asyncio.sleep(self.slow_seconds)
        return JSONResponse({"late": True})

    async def broken(self, request: Request) -> PlainTextResponse:
        await self._record(request)
        return PlainTextResponse("database down", status_code=503)
