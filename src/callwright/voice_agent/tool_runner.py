"""Calling a custom tool's HTTP endpoint (docs/actions.md, Tools): no Pipecat and no database
here, so the agent editor's "test a tool" calls a tool exactly as a call does.

GET and DELETE put the arguments in the query, POST, PUT and PATCH in a JSON body (or fill
the tool's body template). `{{variables}}` in the URL, the headers and the body are filled from
the call's variables, `{{input.NAME}}` from the arguments. The request-forgery guard of the
webhooks (developers/ssrf.py) checks the target first and the request goes to the address it
checked; no redirect is followed. The tool has its timeout, whatever the endpoint does."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from callwright.config import Settings
from callwright.developers.ssrf import Guard, TargetRefused, private_targets
from callwright.voice_agent.contract import ActionStatus, ToolSpec

USER_AGENT = "Callwright-Tools/1"
#: Characters of the answer kept for the action line and the test's answer.
EXCERPT_CHARS = 500
#: Characters of a text answer given to the model.
MODEL_CHARS = 2000
#: Bytes read of an answer at most.
READ_BYTES = 64 * 1024
QUERY_METHODS = ("GET", "DELETE")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
#: `{{ name }}` or `{{ input.name }}`.
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]{0,69})\s*\}\}")


@dataclass(frozen=True)
class Reach:
    """Which targets tools may call: the webhooks' guard, and whether an answer from a private
    address may be read (not where the operator opened private targets to a served server)."""

    guard: Guard = field(default_factory=lambda: Guard(allow_private=False))
    read_private: bool = False

    @classmethod
    def of(cls, settings: Settings) -> Reach:
        rule = private_targets(settings)
        return cls(Guard.of(settings), rule.keep_bodies)


@dataclass(frozen=True)
class ToolAnswer:
    """What a tool's call came to."""

    status: ActionStatus
    latency_ms: int
    status_code: int | None = None
    #: The answer: its JSON, else its text (cut); on a failure, what went wrong.
    result: Any = None
    #: The answer's first characters (the action line, the test's answer).
    excerpt: str = ""
    error: str | None = None

    def for_report(self) -> Any:
        """What the action line keeps of it: a short answer whole (its JSON), a long one's
        first characters, or what went wrong."""
        if self.status != "succeeded":
            return self.error
        if len(json.dumps(self.result)) <= EXCERPT_CHARS:
            return self.result
        return self.excerpt

    def for_model(self) -> Any:
        """The function call's result as the model reads it (Pipecat sends it as JSON)."""
        if self.status == "timed-out":
            return {
                "error": "The tool did not answer in time.",
                "instruction": "Tell the caller you could not get that answer right now, and "
                "carry on with the call.",
            }
        if self.status == "failed":
            return {
                "error": self.error or "The tool failed.",
                "instruction": "Tell the caller you could not look that up, and carry on.",
            }
        return self.result


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


def fill(text: str, values: Mapping[str, Any], *, escape: bool = False) -> str:
    """`text` with each known placeholder replaced (URL-quoted with `escape`); an unknown one
    is left as written."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            return match.group(0)
        filled = _text(values[name])
        return quote(filled, safe="") if escape else filled

    return PLACEHOLDER.sub(value, text)


def fill_body(template: Any, values: Mapping[str, Any]) -> Any:
    """A JSON body template filled: a string that is one placeholder takes the value itself
    (a number stays a number), any other string is filled as text."""
    if isinstance(template, str):
        whole = PLACEHOLDER.fullmatch(template.strip())
        if whole is not None and whole.group(1) in values:
            return values[whole.group(1)]
        return fill(template, values)
    if isinstance(template, list):
        return [fill_body(item, values) for item in template]
    if isinstance(template, dict):
        return {key: fill_body(item, values) for key, item in template.items()}
    return template


def _values(arguments: Mapping[str, Any], variables: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = dict(variables)
    values.update({f"input.{name}": value for name, value in arguments.items()})
    return values


@dataclass(frozen=True)
class _Request:
    method: str
    url: str
    headers: dict[str, str]
    params: dict[str, str] | None
    body: Any


def build_request(
    spec: ToolSpec, arguments: Mapping[str, Any], variables: Mapping[str, Any]
) -> _Request:
    """The request a call of `spec` with `arguments` makes (everything filled)."""
    values = _values(arguments, variables)
    method = spec.method.upper()
    headers = {name: fill(value, values) for name, value in spec.headers.items()}
    url = fill(spec.url, values, escape=True)
    if method in QUERY_METHODS:
        params = {name: _text(value) for name, value in arguments.items()}
        return _Request(method, url, headers, params, None)
    body = fill_body(spec.body, values) if spec.body is not None else dict(arguments)
    return _Request(method, url, headers, None, body)


async def call_tool(
    spec: ToolSpec,
    arguments: Mapping[str, Any],
    variables: Mapping[str, Any],
    reach: Reach,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ToolAnswer:
    """Call the tool: its answer, or how it failed (never raises; a timeout is `timed-out`)."""
    started = time.monotonic()

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        async with asyncio.timeout(spec.timeout_seconds):
            return await _send(build_request(spec, arguments, variables), reach, transport, elapsed)
    except TimeoutError:
        return ToolAnswer(
            "timed-out", elapsed(), error=f"No answer within {spec.timeout_seconds:g} s."
        )
    except TargetRefused as exc:
        return ToolAnswer("failed", elapsed(), error=str(exc))
    except httpx.HTTPError as exc:
        return ToolAnswer("failed", elapsed(), error=f"{type(exc).__name__}: {exc}".rstrip(": "))


async def _send(
    request: _Request,
    reach: Reach,
    transport: httpx.AsyncBaseTransport | None,
    elapsed: Any,
) -> ToolAnswer:
    target = await reach.guard.resolve(request.url)
    pinned, host, extensions = target.pinned()
    headers = {"user-agent": USER_AGENT, **request.headers, **host}
    async with (
        httpx.AsyncClient(follow_redirects=False, trust_env=False, transport=transport) as client,
        client.stream(
            request.method,
            pinned,
            params=request.params,
            json=request.body,
            headers=headers,
            extensions=extensions,
        ) as response,
    ):
        raw = await _read(response)
    latency = elapsed()
    withheld = target.private is not None and not reach.read_private
    text = "" if withheld else raw.decode("utf-8", errors="replace")
    if not response.is_success:
        error = f"The tool answered HTTP {response.status_code}."
        return ToolAnswer(
            "failed", latency, response.status_code, text[:EXCERPT_CHARS] or None, text[:500], error
        )
    if withheld:
        note = "The answer of a private address is not read on this server."
        return ToolAnswer("failed", latency, response.status_code, None, "", note)
    try:
        result: Any = json.loads(text)
    except ValueError:
        result = text[:MODEL_CHARS]
    return ToolAnswer("succeeded", latency, response.status_code, result, text[:EXCERPT_CHARS])


async def _read(response: httpx.Response) -> bytes:
    kept = b""
    async for chunk in response.aiter_bytes():
        kept += chunk
        if len(kept) >= READ_BYTES:
            break
    return kept[:READ_BYTES]
