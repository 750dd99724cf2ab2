"""An agent's custom tools: add, list, replace, delete with clear validation messages; header
values kept sealed and never answered (a replacement that leaves a value out keeps it); the
"test a tool" endpoint calling the endpoint as a call would (arguments, headers, variables,
timeout, the request-forgery guard); a call from the agent carries its tools."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.kit.security import unseal
from callwright.kit.serving import free_port, serving
from callwright.models import AgentTool, Call
from tests.agents.test_agents_api import agent_body, from_agent
from tests.agents.tool_server import ToolServer
from tests.factories import ApiClient, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

PARAMETERS = {
    "type": "object",
    "properties": {"day": {"type": "string", "description": "The day asked about"}},
    "required": ["day"],
}


def tool_body(url: str = "https://tools.example.com/calendar", **overrides: Any) -> dict[str, Any]:
    return {
        "name": "check_calendar",
        "description": "Whether a day has free times.",
        "parameters": PARAMETERS,
        "method": "POST",
        "url": url,
        "headers": [{"name": "Authorization", "value": "Bearer s3cret-token"}],
        "timeout_seconds": 4,
    } | overrides


def messages(answer: httpx.Response) -> str:
    """Every validation message of a 422, as one text."""
    return " ".join(m for ms in answer.json()["errors"].values() for m in ms)


async def _agent(client: ApiClient) -> str:
    created = await client.api("POST", "agents", json=agent_body())
    assert created.status_code == 201, created.text
    return str(created.json()["data"]["id"])


async def test_tools_are_kept_with_their_secrets_sealed(app: FastAPI) -> None:
    client, _user = await signed_in(app, "tools@example.com")
    async with client:
        agent_id = await _agent(client)
        added = await client.api("POST", f"agents/{agent_id}/tools", json=tool_body())
        assert added.status_code == 201, added.text
        tool = added.json()["data"]
        assert tool["headers"] == [{"name": "Authorization", "set": True}]
        assert "s3cret" not in added.text
        assert tool["waiting_line"] == "One moment while I check that."
        assert tool["timeout_seconds"] == 4

        async with app.state.db.sessionmaker() as session:
            row = await session.scalar(select(AgentTool).where(AgentTool.id == tool["id"]))
        assert row is not None
        sealed = row.headers["Authorization"]
        assert "s3cret" not in sealed
        assert unseal(app.state.settings.secret_key, sealed) == "Bearer s3cret-token"

        # Replaced without the header's value: the value kept stays; a new header needs one.
        kept = tool_body(
            description="Free times on a day.",
            headers=[{"name": "Authorization"}, {"name": "X-Team", "value": "blue"}],
        )
        del kept["timeout_seconds"]
        replaced = await client.api("PUT", f"agents/{agent_id}/tools/{tool['id']}", json=kept)
        assert replaced.status_code == 200, replaced.text
        assert replaced.json()["data"]["timeout_seconds"] == 5  # the default
        assert replaced.json()["data"]["description"] == "Free times on a day."
        async with app.state.db.sessionmaker() as session:
            row = await session.scalar(select(AgentTool).where(AgentTool.id == tool["id"]))
        assert row is not None
        assert row.headers["Authorization"] == sealed
        assert unseal(app.state.settings.secret_key, row.headers["X-Team"]) == "blue"
        unknown = tool_body(headers=[{"name": "X-Other"}])
        refused = await client.api("PUT", f"agents/{agent_id}/tools/{tool['id']}", json=unknown)
        assert refused.status_code == 422
        assert 'The header "X-Other" needs a value.' in messages(refused)

        listed = await client.api("GET", f"agents/{agent_id}/tools")
        assert [t["name"] for t in listed.json()["data"]] == ["check_calendar"]
        deleted = await client.api("DELETE", f"agents/{agent_id}/tools/{tool['id']}")
        assert deleted.status_code == 200
        assert (await client.api("GET", f"agents/{agent_id}/tools")).json()["data"] == []


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name": "check calendar"}, "A tool's name starts with a letter"),
        ({"name": "end_call"}, "built-in tool's name"),
        ({"parameters": {"type": "array"}}, '"type": "object"'),
        ({"parameters": {"type": "object", "properties": 3}}, "not a valid JSON Schema"),
        ({"url": "ftp://tools.example.com/x"}, "must start with http:// or https://"),
        ({"timeout_seconds": 31}, "less than or equal to 30"),
        ({"method": "TRACE"}, "'GET', 'POST', 'PUT', 'PATCH' or 'DELETE'"),
        ({"headers": [{"name": "a b", "value": "x"}]}, "not a valid header name"),
    ],
)
async def test_a_tool_is_checked(app: FastAPI, overrides: dict[str, Any], message: str) -> None:
    client, _user = await signed_in(app, "checks@example.com")
    async with client:
        agent_id = await _agent(client)
        answer = await client.api("POST", f"agents/{agent_id}/tools", json=tool_body(**overrides))
    assert answer.status_code == 422, answer.text
    assert message in messages(answer)


async def test_another_users_agent_tools_are_not_found(app: FastAPI) -> None:
    owner, _ = await signed_in(app, "owner-tools@example.com")
    other, _ = await signed_in(app, "other-tools@example.com")
    async with owner:
        agent_id = await _agent(owner)
        tool = (await owner.api("POST", f"agents/{agent_id}/tools", json=tool_body())).json()
    async with other:
        assert (await other.api("GET", f"agents/{agent_id}/tools")).status_code == 404
        test = await other.api(
            "POST", f"agents/{agent_id}/tools/{tool['data']['id']}/test", json={}
        )
        assert test.status_code == 404


async def test_testing_a_tool_calls_its_endpoint(app: FastAPI) -> None:
    server = ToolServer(slow_seconds=5)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    client, user = await signed_in(app, "tester@example.com", balance_cents=5_000)
    async with client, serving(server.app(), port):
        agent_id = await _agent(client)
        tool = await client.api(
            "POST",
            f"agents/{agent_id}/tools",
            json=tool_body(
                f"{base}/calendar",
                # Not the 5 s default (the test above keeps it): this test runs beside the
                # call tests at the lowest priority, where seconds of wall time can pass before
                # its process is given the CPU to read the answer.
                timeout_seconds=30,
                headers=[
                    {"name": "Authorization", "value": "Bearer s3cret-token"},
                    {"name": "X-Customer", "value": "{{customer}}"},
                ],
            ),
        )
        tool_id = tool.json()["data"]["id"]
        tested = await client.api(
            "POST",
            f"agents/{agent_id}/tools/{tool_id}/test",
            json={"arguments": {"day": "Tuesday"}, "variables": {"customer": "c-42"}},
        )
        assert tested.status_code == 200, tested.text
        answer = tested.json()["data"]
        assert answer["status"] == "succeeded"
        assert answer["status_code"] == 200
        assert answer["latency_ms"] >= 0
        assert '"free":true' in answer["excerpt"]
        seen = server.requests[-1]
        assert seen["json"] == {"day": "Tuesday"}
        assert seen["headers"]["authorization"] == "Bearer s3cret-token"
        assert seen["headers"]["x-customer"] == "c-42"

        wrong = await client.api(
            "POST", f"agents/{agent_id}/tools/{tool_id}/test", json={"arguments": {"day": 3}}
        )
        assert wrong.status_code == 422
        assert "day: 3 is not of type 'string'" in messages(wrong)

        slow = await client.api(
            "POST",
            f"agents/{agent_id}/tools",
            json=tool_body(f"{base}/slow", name="slow_tool", method="GET", timeout_seconds=0.5),
        )
        timed = await client.api(
            "POST",
            f"agents/{agent_id}/tools/{slow.json()['data']['id']}/test",
            json={"arguments": {"day": "Monday"}},
        )
        assert timed.json()["data"]["status"] == "timed-out"
        assert server.requests[-1]["query"] == {"day": "Monday"}

        # A call from the agent carries its tools, secrets still sealed.
        placed = await client.api(
            "POST",
            "send-call",
            json=from_agent(user.id, agent_id, variables={"name": "Ann", "day": "Friday"}),
        )
        assert placed.status_code in (200, 201), placed.text
        async with app.state.db.sessionmaker() as session:
            call = await session.scalar(select(Call).where(Call.agent_id == agent_id))
        assert call is not None
        assert call.tools is not None
        assert [t["name"] for t in call.tools] == ["check_calendar", "slow_tool"]
        assert "s3cret" not in str(call.tools)


async def test_a_private_target_is_refused_where_the_server_refuses_them(app: FastAPI) -> None:
    client, _ = await signed_in(app, "private@example.com")
    app.state.settings.webhook_allow_private_targets = False
    try:
        async with client:
            agent_id = await _agent(client)
            tool = await client.api(
                "POST", f"agents/{agent_id}/tools", json=tool_body("http://127.0.0.1:9/x")
            )
            tested = await client.api(
                "POST",
                f"agents/{agent_id}/tools/{tool.json()['data']['id']}/test",
                json={"arguments": {"day": "Friday"}},
            )
    finally:
        app.state.settings.webhook_allow_private_targets = None
    answer = tested.json()["data"]
    assert answer["status"] == "failed"
    assert "loopback address" in answer["error"]
