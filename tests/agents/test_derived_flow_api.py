"""The prompt agent made visible: GET /agents/{id}/derived-flow answers the flow the offline
brain follows for the agent's prompt, and POST ("Edit as flow") makes a flow of it, leaving the
agent on its prompt."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.voice_agent.flow_graph import FlowGraph, problems
from tests.agents.test_agents_api import agent_body
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

PROMPT = (
    "You are Sam from Acme Dental. You are calling to confirm {{name}}'s cleaning on Friday. "
    "Ask them if the time still works. Ask them whether they need parking."
)


async def test_the_derived_flow_and_edit_as_flow(app: FastAPI) -> None:
    client, _user = await signed_in(app, "a@example.com")
    async with client:
        body = agent_body(prompt=PROMPT, first_sentence=None, transfer_number="+15005550010")
        agent = (await client.api("POST", "agents", json=body)).json()["data"]
        answer = await client.api("GET", f"agents/{agent['id']}/derived-flow")
        assert answer.status_code == 200, answer.text
        data = answer.json()["data"]
        assert data["offline"] is True
        graph = FlowGraph.model_validate(data["graph"])
        assert problems(graph) == []
        texts = [getattr(n, "text", "") for n in graph.nodes]
        assert "Could you tell me if the time still works?" in texts
        assert "Could you tell me if you need parking?" in texts
        greeting = graph.node(graph.start_node_id)
        assert "I'm Acme Dental's AI assistant, {{name}}." in getattr(greeting, "text", "")
        assert {v.name for v in graph.variables} == {"name"}
        assert {n.id for n in graph.nodes} >= {"voicemail", "person", "transfer", "opt_out"}

        made = await client.api("POST", f"agents/{agent['id']}/derived-flow")
        assert made.status_code == 201, made.text
        flow = made.json()["data"]
        assert flow["name"] == "Dental reminder (from prompt)"
        assert FlowGraph.model_validate(flow["draft"]) == graph
        assert flow["published_version"] is None
        stored = (await client.api("GET", f"flows/{flow['id']}")).json()["data"]
        assert stored["draft"] == flow["draft"]
        published = await client.api("POST", f"flows/{flow['id']}/publish")
        assert published.status_code == 200, published.text
        # The agent is not switched to it.
        after = (await client.api("GET", f"agents/{agent['id']}")).json()["data"]
        assert after["flow_id"] is None
        assert after["prompt"] == PROMPT


async def test_the_prompt_saved_is_the_flow_shown_and_with_an_llm_it_is_not_offline(
    app: FastAPI,
) -> None:
    client, _user = await signed_in(app, "a@example.com")
    async with client:
        agent = (await client.api("POST", "agents", json=agent_body())).json()["data"]
        url = f"agents/{agent['id']}/derived-flow"
        before = (await client.api("GET", url)).json()["data"]["graph"]
        changed = agent_body(prompt="You are Sam from Acme. Ask them if they like apples.")
        await client.api("PUT", f"agents/{agent['id']}", json=changed)
        after = (await client.api("GET", url)).json()["data"]["graph"]
        assert after != before
        assert any(n.get("text") == "Could you tell me if you like apples?" for n in after["nodes"])
        settings = app.state.settings
        app.state.settings = settings.model_copy(update={"llm_base_url": "http://127.0.0.1:9/v1"})
        try:
            assert (await client.api("GET", url)).json()["data"]["offline"] is False
        finally:
            app.state.settings = settings


async def test_another_users_agent_is_not_found(app: FastAPI) -> None:
    owner, _user = await signed_in(app, "a@example.com")
    async with owner:
        agent = (await owner.api("POST", "agents", json=agent_body())).json()["data"]
    other, _other = await signed_in(app, "b@example.com")
    async with other:
        for method in ("GET", "POST"):
            answer = await other.api(method, f"agents/{agent['id']}/derived-flow")
            assert answer.status_code == 404, answer.text
        flows = (await other.api("GET", "flows")).json()
        assert flows["data"] == []


async def test_a_prompt_with_more_questions_than_a_flow_holds_is_a_422(app: FastAPI) -> None:
    client, _user = await signed_in(app, "a@example.com")
    asks = " ".join(f"Ask them if they like colour number {i}." for i in range(40))
    async with client:
        body = agent_body(prompt=f"You are Sam from Acme. {asks}")
        agent = (await client.api("POST", "agents", json=body)).json()["data"]
        for method in ("GET", "POST"):
            answer = await client.api(method, f"agents/{agent['id']}/derived-flow")
            assert answer.status_code == 422, answer.text
            assert "asks 40 questions" in answer.json()["errors"]["prompt"][0]
        assert (await client.api("GET", "flows")).json()["data"] == []
