"""An agent's keypad setting: `precall_dtmf_sequence` (keys its calls press when answered) is
saved with a clear message for a bad one, and a call started from the agent carries it to the
voice agent's plan (a call's own sequence over the agent's)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.agents.settings import DTMF_MESSAGE
from tests.agents.test_agents_api import _call, agent_body, from_agent, send_call
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio


async def test_an_agents_precall_sequence_is_saved_checked_and_dialled(app: FastAPI) -> None:
    client, user = await signed_in(app, "keys@example.com", balance_cents=10_000)
    async with client:
        created = await client.api(
            "POST", "agents", json=agent_body(precall_dtmf_sequence=" 1w 2# ")
        )
        assert created.status_code == 201, created.text
        agent = created.json()["data"]
        assert agent["precall_dtmf_sequence"] == "1w2#", "spaces dropped"
        for bad in ("12a", "1-2", "9" * 65):
            refused = await client.api(
                "PUT", f"agents/{agent['id']}", json=agent_body(precall_dtmf_sequence=bad)
            )
            assert refused.status_code == 422, refused.text
            assert refused.json()["errors"]["precall_dtmf_sequence"] == [DTMF_MESSAGE]
        cleared = await client.api(
            "PUT", f"agents/{agent['id']}", json=agent_body(precall_dtmf_sequence="")
        )
        assert cleared.json()["data"]["precall_dtmf_sequence"] is None
        await client.api(
            "PUT", f"agents/{agent['id']}", json=agent_body(precall_dtmf_sequence="*9")
        )
        response = await send_call(
            client, from_agent(user.id, agent["id"], variables={"name": "Ann", "day": "Friday"})
        )
        assert response.status_code == 200, response.text
    call = await _call(app, response.json()["callId"])
    assert call.precall_dtmf_sequence == "*9"
    plan = await app.state.calls.media.plan(call.id)
    assert plan is not None
    assert plan.precall_dtmf_sequence == "*9"
