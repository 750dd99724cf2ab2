"""A call's order on a conversation flow (calls.builder): an agent's flow is pinned at its
latest published version, a request's own `flow` wins, and the flow needs no prompt."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import builder
from callwright.calls.builder import CallRequest, FlowChoice, OrderRefused, PinnedFlow, build_order
from callwright.models import Agent
from callwright.voice_agent.flow_graph import FlowGraph
from tests.factories import add_user
from tests.voice_agent.flow_fixtures import flow_json

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sarah from Bright Dental, confirming appointments politely."


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, int | None]]:
    """Stands in for the flows' storage: every flow is published at version 5 (the lookups
    asked are kept); "gone" is not found."""
    lookups: list[tuple[int, str, int | None]] = []

    async def lookup(
        _session: AsyncSession, user_id: int, flow_id: str, version: int | None
    ) -> PinnedFlow:
        lookups.append((user_id, flow_id, version))
        if flow_id == "gone":
            raise OrderRefused("flow", "not-found", builder.FLOW_NOT_FOUND)
        return PinnedFlow(flow_id, version or 5, FlowGraph.model_validate(flow_json("appointment")))

    monkeypatch.setattr(builder, "published_flow", lookup)
    return lookups


async def test_an_agents_flow_is_pinned_and_a_requests_own_wins(
    app: FastAPI, asked: list[tuple[int, str, int | None]]
) -> None:
    user = await add_user(app, email="flow-orders@example.com")
    async with app.state.db.sessionmaker() as session:
        agent = Agent(
            user_id=user.id, name="Reminders", prompt=PROMPT, voice="joe", flow_id="agent-flow"
        )
        session.add(agent)
        await session.commit()
        request = CallRequest(
            kind="api", to_number="+15005550050", user_id=user.id, agent_id=agent.id
        )
        order = await build_order(session, request)
        assert (order.flow_id, order.flow_version, order.start_node_id) == ("agent-flow", 5, None)
        assert order.flow_graph == FlowGraph.model_validate(flow_json("appointment")).model_dump(
            mode="json"
        )
        assert order.prompt == PROMPT, "the agent's prompt is kept"
        own = CallRequest(
            kind="api",
            to_number="+15005550050",
            user_id=user.id,
            agent_id=agent.id,
            flow=FlowChoice("own-flow", 2, "confirm"),
        )
        order = await build_order(session, own)
        assert (order.flow_id, order.flow_version, order.start_node_id) == (
            "own-flow",
            2,
            "confirm",
        )
        switched_off = CallRequest(
            kind="dashboard",
            to_number="+15005550050",
            user_id=user.id,
            agent_id=agent.id,
            no_flow=True,
        )
        order = await build_order(session, switched_off)
        assert (order.flow_id, order.flow_graph, order.prompt) == (None, None, PROMPT), (
            "the agent's flow switched off for this call: its prompt leads it"
        )
        bare = CallRequest(
            kind="api", to_number="+15005550050", user_id=user.id, flow=FlowChoice("f")
        )
        order = await build_order(session, bare)
        assert order.prompt == 'Follow the conversation flow "f" (version 5).'
        plain = await build_order(
            session,
            CallRequest(
                kind="api", to_number="+15005550050", user_id=user.id, settings={"prompt": PROMPT}
            ),
        )
        assert (plain.flow_id, plain.flow_graph) == (None, None)
        with pytest.raises(OrderRefused) as refused:
            await build_order(
                session,
                CallRequest(kind="api", to_number="+1", user_id=user.id, flow=FlowChoice("gone")),
            )
        assert refused.value.errors == {"flow": [builder.FLOW_NOT_FOUND]}
    assert asked[:3] == [
        (user.id, "agent-flow", None),
        (user.id, "own-flow", 2),
        (user.id, "f", None),
    ]


async def test_an_agents_flow_is_saved_and_read_back(app: FastAPI) -> None:
    from tests.agents.test_agents_api import agent_body
    from tests.factories import signed_in

    client, _ = await signed_in(app, "agent-flow@example.com")
    async with client:
        created = await client.api("POST", "agents", json=agent_body(flow_id="appt-flow"))
        assert created.status_code == 201, created.text
        agent = created.json()["data"]
        assert agent["flow_id"] == "appt-flow"
        cleared = await client.api("PUT", f"agents/{agent['id']}", json=agent_body(flow_id=None))
        assert cleared.json()["data"]["flow_id"] is None
        long = await client.api("PUT", f"agents/{agent['id']}", json=agent_body(flow_id="x" * 37))
        assert long.status_code == 422
        assert "flow_id" in long.json()["errors"]


async def test_send_call_runs_a_published_flow_from_a_chosen_node(app: FastAPI) -> None:
    """The dashboard's Send Call (`flow_id`, `flow_version`, `start_node_id`): refused naming
    `flow` until the flow is published or for a node it lacks; then placed with no prompt,
    pinned at the published version."""
    from sqlalchemy import select

    from callwright.models import Call
    from tests.agents.test_agents_api import agent_body
    from tests.calls.test_calls_api import payload
    from tests.factories import signed_in

    client, user = await signed_in(app, "send-flow@example.com", balance_cents=10_000)
    async with client:
        made = await client.api("POST", "flows", json={"name": "Appts", "starter": "appointment"})
        flow_id = made.json()["data"]["id"]
        body = payload(user.id, phone="+15005550050", prompt=None, flow_id=flow_id)
        unpublished = await client.api("POST", "send-call", json=body)
        assert unpublished.status_code == 422, unpublished.text
        assert unpublished.json()["errors"] == {"flow": ["The flow has no published version."]}
        assert (await client.api("POST", f"flows/{flow_id}/publish")).status_code == 200
        no_node = await client.api("POST", "send-call", json=body | {"start_node_id": "nowhere"})
        assert no_node.status_code == 422
        assert no_node.json()["errors"] == {"flow": ["The flow has no node 'nowhere' to start at."]}
        placed = await client.api(
            "POST", "send-call", json=body | {"flow_version": 1, "start_node_id": "confirm"}
        )
        assert placed.status_code == 200, placed.text
        # An agent on the flow, with the flow switched off for one call ("None" picked).
        made_agent = await client.api("POST", "agents", json=agent_body(flow_id=flow_id))
        agent = made_agent.json()["data"]
        prompt_led = payload(user.id, phone="+15005550050", prompt=agent["prompt"])
        off = await client.api(
            "POST",
            "send-call",
            json=prompt_led
            | {
                "agentId": agent["id"],
                "flow_id": "",
                "variables": {"name": "Ann", "day": "Friday"},
            },
        )
        assert off.status_code == 200, off.text
    async with app.state.db.sessionmaker() as session:
        calls = (
            await session.scalars(
                select(Call).where(Call.user_id == user.id).order_by(Call.queued_at)
            )
        ).all()
    assert [(c.flow_id, c.flow_version, c.start_node_id) for c in calls] == [
        (flow_id, 1, "confirm"),
        (None, None, None),
    ]
    assert calls[0].prompt == 'Follow the conversation flow "Appts" (version 1).'
    assert "Confirm Ann's cleaning on Friday" in calls[1].prompt, "the agent's prompt leads it"
