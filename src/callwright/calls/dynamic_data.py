"""Bland's `dynamic_data`: requests made when the call is dialled, whose answers fill the call's
`{{variables}}` (docs/actions.md, Dynamic data).

They run in the dial job, just before the carrier is asked to ring: a scheduled call gets the
data of the moment it is dialled, the request that placed the call is not held up by another
server, and the callee never waits on it (it would delay the greeting if it ran on answer).
Each request goes through the tools' runner (tool_runner.py: the webhooks' request-forgery
guard, a timeout); each value is read from the answer by its `data` path ("$.data.name",
"user.flights[0].status"), becomes the variable `name` and fills the call's texts. A `context`
is added to the prompt with its variables filled. A request that fails is an action line on
the call, and the call goes on with the variables it has (a placeholder left without a value
is dropped from the texts, never spoken)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from callwright.agents.settings import TEMPLATED
from callwright.agents.tools import spec as tool_spec
from callwright.agents.variables import PLACEHOLDER, fill
from callwright.models import Call
from callwright.realtime.events import CallAction
from callwright.voice_agent.contract import ToolSpec
from callwright.voice_agent.tool_runner import Reach, build_request, call_tool

NAME = "dynamic_data"
#: How long one request may take.
TIMEOUT_SECONDS = 5.0
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def at_path(data: Any, path: str) -> Any:
    """The value at a JSON path ("$.a.b[0].c", "a.b[0].c"); None when there is none."""
    path = path.strip().removeprefix("$").lstrip(".")
    for name, index in _STEP.findall(path):
        if index:
            if not isinstance(data, list) or int(index) >= len(data):
                return None
            data = data[int(index)]
        elif isinstance(data, dict) and name in data:
            data = data[name]
        else:
            return None
    return data


def system_values(call: Call) -> dict[str, str]:
    """What Bland lets a request's body name: from, to, short_from, short_to, call_id."""
    return {
        "from": call.from_number,
        "to": call.to_number,
        "short_from": call.from_number.removeprefix("+1").lstrip("+"),
        "short_to": call.to_number.removeprefix("+1").lstrip("+"),
        "call_id": call.id,
    }


def _spec(request: Mapping[str, Any], secret_key: str) -> ToolSpec:
    body = request.get("body")
    if isinstance(body, str):
        with contextlib.suppress(ValueError):
            body = json.loads(body)
    kept = {
        "name": NAME,
        "url": request["url"],
        "method": (request.get("method") or "GET").upper(),
        "headers": request.get("headers") or {},
        "body": body,
        "timeout_seconds": TIMEOUT_SECONDS,
    }
    return tool_spec(kept, secret_key)


@dataclass
class Fetched:
    """What the requests came to: the variables they filled and an action line for each."""

    variables: dict[str, Any] = field(default_factory=dict)
    contexts: list[str] = field(default_factory=list)
    actions: list[CallAction] = field(default_factory=list)


async def fetch(call: Call, reach: Reach, secret_key: str) -> Fetched:
    """Make the call's requests, one after the other (a later one may use an earlier's)."""
    out = Fetched()
    values: dict[str, Any] = {**(call.variables or {}), **system_values(call)}
    for request in call.dynamic_data or ():
        spec = _spec(request, secret_key)
        answer = await call_tool(spec, {}, values, reach)
        arguments = {"method": spec.method, "url": build_request(spec, {}, values).url}
        if answer.status != "succeeded":
            out.actions.append(_action(answer.status, arguments, answer.error, answer.latency_ms))
            continue
        found = _read(answer.result, request.get("response_data") or ())
        values.update(found)
        out.variables.update(found)
        out.contexts += _contexts(request.get("response_data") or (), values)
        out.actions.append(_action("succeeded", arguments, found, answer.latency_ms))
    return out


def _read(result: Any, items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in items:
        value = at_path(result, str(item.get("data") or ""))
        if item.get("name") and value is not None:
            found[str(item["name"])] = value
    return found


def _contexts(items: Sequence[Mapping[str, Any]], values: Mapping[str, Any]) -> list[str]:
    lines = []
    for item in items:
        context, name = str(item.get("context") or "").strip(), str(item.get("name") or "")
        if not context or name not in values:
            continue
        filled = fill(context, values) or ""
        lines.append(filled if PLACEHOLDER.search(context) else f"{filled} {values[name]}")
    return lines


def _action(
    status: Any, arguments: dict[str, Any], result: Any, latency_ms: int | None
) -> CallAction:
    where = arguments["url"]
    summary = (
        f"Dynamic data from {where} in {latency_ms} ms"
        if status == "succeeded"
        else f"Dynamic data from {where} {'timed out' if status == 'timed-out' else 'failed'}"
        f": the call goes on without it"
    )
    return CallAction(
        kind="tool",
        name=NAME,
        status=status,
        summary=summary,
        arguments=arguments,
        result=result,
        latency_ms=latency_ms,
    )


def apply(call: Call, fetched: Fetched) -> None:
    """Fill the call's texts with what was fetched (and drop the placeholders still without a
    value); the contexts go at the end of the prompt."""
    variables = {**(call.variables or {}), **fetched.variables}
    call.variables = variables or None
    for name in TEMPLATED:
        text = getattr(call, name)
        if text:
            setattr(call, name, PLACEHOLDER.sub("", fill(text, variables) or ""))
    if fetched.contexts:
        call.prompt = call.prompt + "\n\n" + "\n".join(fetched.contexts)
