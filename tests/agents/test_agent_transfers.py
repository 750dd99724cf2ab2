"""An agent's transfer settings (docs/actions.md, "Transfer"): a number or departments, cold
or warm, every number read with kit.phone and held to the number policy (the sandbox's own
numbers allowed on the sandbox carrier); Send Call takes the agent's, or its own number."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.agents.test_agents_api import _call, agent_body, create_agent, from_agent, send_call
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio


async def test_an_agents_transfer_settings_are_kept_and_reach_its_calls(app: FastAPI) -> None:
    client, user = await signed_in(app, "transfers@example.com", balance_cents=10_000)
    async with client:
        agent = await create_agent(
            client,
            transfer_number="+1 (500) 555-0011",
            transfer_list={" Sales ": "+15005550012", "default": "+1 500 555 0013"},
            transfer_mode="warm",
        )
        assert agent["transfer_number"] == "+15005550011"
        assert agent["transfer_list"] == {"Sales": "+15005550012", "default": "+15005550013"}
        assert agent["transfer_mode"] == "warm"
        sent = await send_call(
            client, from_agent(user.id, agent["id"], variables={"name": "A", "day": "B"})
        )
        assert sent.status_code == 200, sent.text
        call = await _call(app, sent.json()["callId"])
        assert (call.transfer_number, call.transfer_mode) == ("+15005550011", "warm")
        assert call.transfer_list == {"Sales": "+15005550012", "default": "+15005550013"}
        # Send Call's own number (and "" for none) over the agent's.
        own = from_agent(
            user.id,
            agent["id"],
            variables={"name": "A", "day": "B"},
            transfer_number="+15005550012",
            transfer_mode="cold",
        )
        call = await _call(app, (await send_call(client, own)).json()["callId"])
        assert (call.transfer_number, call.transfer_mode) == ("+15005550012", "cold")
        none = from_agent(
            user.id, agent["id"], variables={"name": "A", "day": "B"}, transfer_number=""
        )
        call = await _call(app, (await send_call(client, none)).json()["callId"])
        assert call.transfer_number is None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("transfer_number", "911", "An emergency number."),
        ("transfer_number", "+1 900 555 0123", "A premium-rate number."),
        ("transfer_number", "12", "Enter the transfer number with its country code"),
        ("transfer_list", {"Sales": "112"}, "Sales: An emergency number."),
        ("transfer_list", {"a": "+15005550011", "A": "+15005550012"}, "listed twice"),
        ("transfer_mode", "lukewarm", "Input should be 'cold' or 'warm'"),
    ],
)
async def test_transfer_settings_are_checked(
    app: FastAPI, field: str, value: object, message: str
) -> None:
    client, _ = await signed_in(app, f"t-{field}@example.com")
    async with client:
        response = await client.api("POST", "agents", json=agent_body(**{field: value}))
    assert response.status_code == 422, response.text
    assert message in response.json()["errors"][field][0]
