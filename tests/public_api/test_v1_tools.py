"""`/v1/calls` with Bland's `tools` and `dynamic_data`: checked like an agent's tools (a 400
naming `tools[i]`), kept on the call with their header values sealed, and the call accepted
with placeholders the dynamic data fills (docs/actions.md). Whole calls that use them:
tests/calls/test_tool_calls.py."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from callwright.calls.dynamic_data import at_path
from callwright.kit.security import unseal
from tests.public_api.test_v1_api import LATER, api, keyed, stored

pytestmark = pytest.mark.asyncio

TOOL = {
    "name": "check_calendar",
    "description": "Whether a day is free.",
    "url": "https://api.example.com/calendar",
    "method": "post",
    "headers": {"Authorization": "Bearer s3cret"},
    "input_schema": {"type": "object", "properties": {"day": {"type": "string"}}},
    "speech": "Let me look.",
    "timeout": 2500,
    "response_data": [{"name": "free", "data": "$.free"}],
}


def send(**fields: Any) -> dict[str, Any]:
    return {"phone_number": "+15005550030", "task": "You are Nova from Acme Dental."} | fields


async def test_tools_and_dynamic_data_are_kept_on_the_call(app: FastAPI) -> None:
    _user, key = await keyed(app, "v1-tools@example.com")
    dynamic = {
        "url": "https://crm.example.com/customers/{{customer_id}}",
        "headers": {"X-Key": "k3y"},
        "response_data": [{"name": "customer_name", "data": "$.data.name", "context": "Name:"}],
    }
    body = send(
        first_sentence="Hi {{customer_name}}.",
        request_data={"customer_id": "c-1"},
        tools=[TOOL],
        dynamic_data=[dynamic],
        start_time=LATER,  # scheduled: not dialled during the test
    )
    async with api(app, key) as client:
        answer = await client.post("/v1/calls", json=body)
    assert answer.status_code == 200, answer.text
    call = await stored(app, answer.json()["call_id"])
    assert call.first_sentence == "Hi {{customer_name}}.", "filled when the call is dialled"
    assert call.tools is not None
    (tool,) = call.tools
    assert tool["method"] == "POST"
    assert tool["waiting_line"] == "Let me look."
    assert tool["timeout_seconds"] == 2.5
    assert tool["parameters"] == TOOL["input_schema"]
    secret = app.state.settings.secret_key
    assert unseal(secret, tool["headers"]["Authorization"]) == "Bearer s3cret"
    assert call.dynamic_data is not None
    assert unseal(secret, call.dynamic_data[0]["headers"]["X-Key"]) == "k3y"
    assert call.dynamic_data[0]["response_data"][0]["name"] == "customer_name"


@pytest.mark.parametrize(
    ("tool", "field", "message"),
    [
        ({"name": "end_call"}, "tools[0]", "built-in tool's name"),
        ({"input_schema": {"type": "array"}}, "tools[0]", '"type": "object"'),
        ({"url": "file:///etc/passwd"}, "tools[0]", "must start with http:// or https://"),
    ],
)
async def test_a_bad_tool_is_refused(
    app: FastAPI, tool: dict[str, Any], field: str, message: str
) -> None:
    _user, key = await keyed(app, f"v1-bad-{field}-{len(message)}@example.com")
    async with api(app, key) as client:
        answer = await client.post("/v1/calls", json=send(tools=[TOOL | tool]))
    assert answer.status_code == 400, answer.text
    errors = answer.json()["errors"]
    assert message in " ".join(errors[field])


async def test_a_tool_listed_twice_is_refused(app: FastAPI) -> None:
    _user, key = await keyed(app, "v1-twice@example.com")
    async with api(app, key) as client:
        answer = await client.post("/v1/calls", json=send(tools=[TOOL, TOOL]))
    assert answer.status_code == 400
    assert answer.json()["errors"]["tools[1]"] == ['The tool "check_calendar" is listed twice.']


def test_json_paths_of_dynamic_data() -> None:
    data = {"data": {"name": "Ann"}, "user": {"flights": [{"status": "late"}]}, "n": 0}
    assert at_path(data, "$.data.name") == "Ann"
    assert at_path(data, "data.name") == "Ann"
    assert at_path(data, "user.flights[0].status") == "late"
    assert at_path(data, "$.n") == 0
    assert at_path(data, "user.flights[3].status") is None
    assert at_path(data, "$.missing.name") is None


async def test_a_bland_tool_id_is_refused_naming_the_field(app: FastAPI) -> None:
    """Bland's saved tools (`"tools": ["TL-..."]`) live on Bland's side: a 400 that says to
    send the tool object inline, not a call that quietly has no tool."""
    _user, key = await keyed(app, "v1-tool-id@example.com")
    async with api(app, key) as client:
        answer = await client.post("/v1/calls", json=send(tools=[TOOL, "TL-8f2c"]))
    assert answer.status_code == 400, answer.text
    (message,) = answer.json()["errors"]["tools"]
    assert message.startswith("tools[1] is one of Bland's saved tool ids ('TL-8f2c')")
    assert "send the tool object inline" in message
    assert answer.json()["message"] == message
