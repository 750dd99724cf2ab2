"""Money and durations are strictly typed at the edge (issue 27, finding 6): a JSON number is
required, so `true` is not one minute and the text "1e2" is not 100 dollars; and a CSV file with
a NUL character is refused like a JSON body with one, whole, before any row is kept."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.campaigns.contacts import NUL_IN_FILE
from callwright.kit.bounds import MOMENT_RANGE, too_big_message
from callwright.models import CampaignContact, TopUp
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental, confirming {{name}}'s cleaning at three pm."


@pytest.mark.parametrize("amount", ["1e2", "100", True])
async def test_a_top_up_amount_must_be_a_number(app: FastAPI, amount: Any) -> None:
    client, _ = await signed_in(app, "money@example.com")
    async with client:
        response = await client.api("POST", "billing/top-ups", json={"amount": amount})
    assert response.status_code == 422, response.text
    assert list(response.json()["errors"]) == ["amount"]
    async with app.state.db.sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(TopUp)) == 0


async def test_auto_recharge_takes_whole_dollars_as_numbers_only(app: FastAPI) -> None:
    client, _ = await signed_in(app, "recharge@example.com")
    async with client:
        for body in (
            {"enabled": True, "threshold": "20", "amount": 25},
            {"enabled": True, "threshold": 20, "amount": 25.0},
            {"enabled": True, "threshold": True, "amount": 25},
        ):
            response = await client.api("PUT", "billing/auto-recharge", json=body)
            assert response.status_code == 422, (body, response.text)


@pytest.mark.parametrize("value", [True, "5", 5.5])
async def test_a_duration_must_be_whole_minutes(app: FastAPI, value: Any) -> None:
    client, user = await signed_in(app, "minutes@example.com", balance_cents=10_000)
    call = {"userId": user.id, "phone": "+15005550001", "prompt": PROMPT, "max_duration": value}
    agent = {"name": "Reminder", "prompt": PROMPT, "voice": "joe", "max_duration": value}
    async with client:
        sent = await client.api("POST", "send-call", json=call)
        saved = await client.api("POST", "agents", json=agent)
    for response in (sent, saved):
        assert response.status_code == 422, response.text
        assert list(response.json()["errors"]) == ["max_duration"]


async def test_a_contacts_file_with_a_nul_is_refused_whole(app: FastAPI) -> None:
    client, _ = await signed_in(app, "nul-csv@example.com", balance_cents=10_000)
    async with client:
        agent = await client.api(
            "POST", "agents", json={"name": "R", "prompt": PROMPT, "voice": "joe"}
        )
        assert agent.status_code == 201, agent.text
        made = await client.api(
            "POST", "campaigns", json={"name": "C", "agent_id": agent.json()["data"]["id"]}
        )
        campaign_id = made.json()["data"]["id"]
        text = "phone,name\n+14155552671,Ann\n+12125550123,B\x00b\n"
        files = {"file": ("contacts.csv", text.encode(), "text/csv")}
        response = await client.api("POST", f"campaigns/{campaign_id}/contacts", files=files)
    assert response.status_code == 422, response.text
    assert response.json()["errors"] == {"file": [NUL_IN_FILE.format(row=3)]}
    async with app.state.db.sessionmaker() as session:
        kept = select(func.count()).select_from(CampaignContact)
        assert await session.scalar(kept) == 0


async def test_send_call_variables_are_bounded_in_size(app: FastAPI) -> None:
    client, user = await signed_in(app, "vars@example.com", balance_cents=10_000)
    variables = {f"v{i}": "x" * 100 for i in range(200)}  # about 22 KiB
    body = {"userId": user.id, "phone": "+15005550001", "prompt": PROMPT, "variables": variables}
    async with client:
        response = await client.api("POST", "send-call", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["errors"] == {"variables": [too_big_message()]}


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"])
async def test_times_out_of_range_are_refused_not_stored(app: FastAPI, when: str) -> None:
    """A campaign's start or end, a post's date: "9999-12-31T23:59:59-23:59" cannot be moved
    to UTC, and was a 500 where it was stored (issue 27, finding 3's dashboard side)."""
    client, _ = await signed_in(app, "moments@example.com", balance_cents=10_000, role="admin")
    async with client:
        agent = await client.api(
            "POST", "agents", json={"name": "R", "prompt": PROMPT, "voice": "joe"}
        )
        agent_id = agent.json()["data"]["id"]
        for field in ("start_at", "end_at"):
            body = {"name": "C", "agent_id": agent_id, field: when}
            response = await client.api("POST", "campaigns", json=body)
            assert response.status_code == 422, response.text
            assert response.json()["errors"] == {field: [MOMENT_RANGE]}
        post = {"title": "T", "description": "D", "content": "<p>C</p>", "post_date": when}
        response = await client.api("POST", "admin/posts", json=post)
    assert response.status_code == 422, response.text
    assert response.json()["errors"] == {"post_date": [MOMENT_RANGE]}
