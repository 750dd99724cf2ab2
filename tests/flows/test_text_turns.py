"""The editor's "test in text" through the API (POST /api/v1/flows/{id}/test): the appointment
starter answered turn by turn by the offline brain, the state carried by the client, the path
and captures reported; a published version by `?version=`; bad turns refused naming the field;
another user's flow is 404. The runner's own cases are in tests/voice_agent/test_flow_runner.py."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from tests.factories import ApiClient, signed_in

VARIABLES = {
    "customer_name": "Dana",
    "business_name": "Bright Dental",
    "appointment_time": "tomorrow at 3 pm",
}


async def _turn(client: ApiClient, flow_id: str, body: dict[str, Any], query: str = "") -> Any:
    response = await client.api("POST", f"flows/{flow_id}/test{query}", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def _appointment(client: ApiClient) -> str:
    created = await client.api(
        "POST", "flows", json={"name": "Cleanings", "starter": "appointment"}
    )
    assert created.status_code == 201, created.text
    flow_id: str = created.json()["data"]["id"]
    return flow_id


async def test_a_reschedule_typed_turn_by_turn(app: FastAPI) -> None:
    client, _ = await signed_in(app, "texter@example.com")
    async with client:
        flow_id = await _appointment(client)
        opening = await _turn(client, flow_id, {"variables": VARIABLES})
        assert "Hi Dana, this is Bright Dental's AI assistant" in opening["lines"][0]
        assert opening["state"]["node_id"] == "confirm"
        assert [s["node_id"] for s in opening["steps"]][:1] == ["greeting"]
        assert not opening["ended"]

        moved = await _turn(
            client, flow_id, {"state": opening["state"], "said": "I can't make it, sorry."}
        )
        assert moved["state"]["node_id"] == "new_time"
        assert moved["steps"][0]["node_id"] == "confirm"
        assert moved["steps"][0]["reason"]
        assert any("What day and time would suit you better?" in line for line in moved["lines"])

        said = {"state": moved["state"], "said": "How about Tuesday at 10 am?"}
        read_back = await _turn(client, flow_id, said)
        assert read_back["state"]["node_id"] == "read_back"
        assert read_back["state"]["variables"]["new_time"]
        assert any("Just to confirm" in line for line in read_back["lines"])

        done = await _turn(client, flow_id, {"state": read_back["state"], "said": "Yes, correct."})
        assert done["ended"]
        assert done["end_reason"] == "end_call"
        assert done["steps"][-1]["node_id"] == "rescheduled"


async def test_a_global_fires_and_the_transfer_is_described_not_placed(app: FastAPI) -> None:
    client, _ = await signed_in(app, "person@example.com")
    async with client:
        flow_id = await _appointment(client)
        opening = await _turn(client, flow_id, {"variables": VARIABLES})
        said = {"state": opening["state"], "said": "Can I speak to a real person please?"}
        turn = await _turn(client, flow_id, said)
        assert [s["node_id"] for s in turn["steps"]][:1] == ["ask_person"]
        assert any("transfer" in action for action in turn["actions"])


async def test_a_published_version_and_refused_turns(app: FastAPI) -> None:
    client, _ = await signed_in(app, "versions@example.com")
    async with client:
        flow_id = await _appointment(client)
        unpublished = await client.api("POST", f"flows/{flow_id}/test?version=1", json={})
        assert unpublished.status_code == 404
        assert (await client.api("POST", f"flows/{flow_id}/publish")).status_code == 200
        opening = await _turn(client, flow_id, {"variables": VARIABLES}, "?version=1")
        assert opening["state"]["node_id"] == "confirm"

        empty = await client.api(
            "POST", f"flows/{flow_id}/test", json={"state": opening["state"], "said": "  "}
        )
        assert empty.status_code == 422
        assert list(empty.json()["errors"]) == ["said"]
        gone = dict(opening["state"], node_id="no_such_node")
        stale = await client.api(
            "POST", f"flows/{flow_id}/test", json={"state": gone, "said": "yes"}
        )
        assert stale.status_code == 422
        assert list(stale.json()["errors"]) == ["state"]
        extra = await client.api("POST", f"flows/{flow_id}/test", json={"mood": "happy"})
        assert extra.status_code == 422
        assert "mood" in str(extra.json()["errors"])


async def test_another_users_flow_cannot_be_tested(app: FastAPI) -> None:
    owner, _ = await signed_in(app, "owner@example.com")
    other, _ = await signed_in(app, "other@example.com")
    async with owner, other:
        flow_id = await _appointment(owner)
        response = await other.api("POST", f"flows/{flow_id}/test", json={})
        assert response.status_code == 404
