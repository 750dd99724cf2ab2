"""A call's page (`call/{id}/page`, `admin/calls/{id}`): everything in one answer for its owner
(another user gets 404, an admin any call with its owner), the cost through the billing rule,
re-running the analysis, and the call log filtered by outcome and searched by number."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI

from callwright.models import CallEvent, LedgerEntry, TurnLatency
from tests.factories import finished_call, signed_in

pytestmark = pytest.mark.asyncio

AT = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
TALK = [
    ("assistant", "Hi, this is Sam from Acme Tours. Would you like the city tour on Friday?"),
    ("user", "Yes, Friday at 10 works for me."),
    ("assistant", "Great, you are booked. Goodbye!"),
]


async def _call_with_history(app: FastAPI, user_id: int) -> str:
    """A finished, settled call with events, a measured reply and its ledger rows."""
    call_id = await finished_call(
        app,
        user_id,
        TALK,
        duration_seconds=75,
        hold_cents=98,
        cost_cents=98,
        finalized_at=AT,
        temperature=0.4,
        first_sentence="Hi there!",
        variables={"name": "Ann"},
    )
    async with app.state.db.sessionmaker() as session:
        session.add_all(
            [
                CallEvent(
                    call_id=call_id, category="status", message="Call ringing", created_at=AT
                ),
                CallEvent(
                    call_id=call_id,
                    category="call",
                    message="Call connected",
                    created_at=AT + timedelta(seconds=2),
                ),
                TurnLatency(call_id=call_id, turn=1, stt_ms=300, llm_ms=5, tts_ms=90, total_ms=900),
                LedgerEntry(
                    user_id=user_id,
                    call_id=call_id,
                    kind="hold",
                    amount_cents=-98,
                    balance_after_cents=902,
                ),
                LedgerEntry(
                    user_id=user_id,
                    call_id=call_id,
                    kind="charge",
                    amount_cents=0,
                    balance_after_cents=902,
                ),
            ]
        )
        await session.commit()
    return call_id


async def test_the_page_has_everything_for_its_owner_only(app: FastAPI) -> None:
    owner_client, owner = await signed_in(app, "owner@example.com", name="Olive")
    other_client, _other = await signed_in(app, "other@example.com")
    admin_client, _admin = await signed_in(app, "boss@example.com", role="admin")
    call_id = await _call_with_history(app, owner.id)
    async with owner_client, other_client, admin_client:
        mine = await owner_client.api("GET", f"call/{call_id}/page")
        assert mine.status_code == 200, mine.text
        data = mine.json()["data"]
        for client, path in (
            (other_client, f"call/{call_id}/page"),
            (other_client, f"admin/calls/{call_id}"),
            (owner_client, f"admin/calls/{call_id}"),
            (owner_client, "call/no-such-call/page"),
        ):
            response = await client.api("GET", path)
            assert response.status_code in (403, 404), (path, response.text)
            assert "Acme Tours" not in response.text
        assert (await other_client.api("GET", f"call/{call_id}/page")).status_code == 404
        as_admin = (await admin_client.api("GET", f"admin/calls/{call_id}")).json()["data"]
        missing = await admin_client.api("GET", "admin/calls/no-such-call")
    assert missing.status_code == 404
    assert [line["text"] for line in data["transcripts"]] == [text for _, text in TALK]
    assert data["latencies"][0]["total_ms"] == 900
    assert data["settings"]["source"] == "dashboard"
    assert data["settings"]["temperature"] == 0.4
    assert data["settings"]["first_sentence"] == "Hi there!"
    assert data["settings"]["variables"] == {"name": "Ann"}
    assert [e["message"] for e in data["events"]] == ["Call ringing", "Call connected"]
    # The recording starts when the media stream connected (its "Call connected").
    assert data["times"]["recording_started_at"].startswith("2026-11-24T10:00:02")
    billing = data["billing"]
    assert (billing["billed_seconds"], billing["billed_minutes"], billing["cost"]) == (75, 2, 0.98)
    assert billing["hold"] == 0.98
    assert billing["capped"] is False
    assert "ceil((75 s - 1 s) / 60) = 2 min x $0.49 = $0.98" in billing["explanation"]
    assert [line["kind"] for line in billing["ledger"]] == ["hold", "charge"]
    assert data["owner"] is None
    assert as_admin["owner"] == {"id": owner.id, "name": "Olive", "email": "owner@example.com"}
    assert as_admin["transcripts"] == data["transcripts"]


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"duration_seconds": 200, "hold_cents": 98, "cost_cents": 98}, "capped at the $0.98"),
        ({"answered": False, "hold_cents": 98, "cost_cents": 0}, "Never connected"),
        ({"finalized_at": None, "hold_cents": 98}, "is held while the call is live"),
    ],
)
async def test_the_cost_is_explained_by_the_rule(
    app: FastAPI, values: dict[str, Any], words: str
) -> None:
    client, user = await signed_in(app, "cost@example.com")
    call_id = await finished_call(app, user.id, **({"finalized_at": AT} | values))
    async with client:
        billing = (await client.api("GET", f"call/{call_id}/page")).json()["data"]["billing"]
    assert words in billing["explanation"]
    assert billing["capped"] is ("capped" in words)


async def test_the_analysis_runs_again_on_request(app: FastAPI) -> None:
    owner_client, owner = await signed_in(app, "a@example.com")
    other_client, _other = await signed_in(app, "b@example.com")
    admin_client, _admin = await signed_in(app, "boss@example.com", role="admin")
    stale = {
        "summary": "An old summary.",
        "outcome": "undetermined",
        "sentiment": "neutral",
        "key_facts": [],
        "method": "offline",
    }
    call_id = await finished_call(app, owner.id, TALK, analysis=json.dumps(stale))
    async with owner_client, other_client, admin_client:
        kept = (await owner_client.api("POST", f"analyze-call/{call_id}", json={})).json()
        assert kept["data"]["summary"] == "An old summary."
        refused = await other_client.api("POST", f"analyze-call/{call_id}", json={"refresh": True})
        assert refused.status_code == 404
        again = await owner_client.api("POST", f"analyze-call/{call_id}", json={"refresh": True})
        assert again.status_code == 200, again.text
        fresh = again.json()["data"]
        page = (await owner_client.api("GET", f"call/{call_id}/page")).json()["data"]
        by_admin = await admin_client.api("POST", f"analyze-call/{call_id}", json={"refresh": True})
    assert fresh["summary"] != "An old summary."
    assert fresh["outcome"] == "interested"
    # Each fact names the transcript line it comes from.
    assert {"fact": "Yes, Friday at 10 works for me.", "lines": [2]} in fresh["key_facts"]
    assert page["analysis"] == fresh
    assert by_admin.status_code == 200


async def test_call_logs_filter_by_outcome_and_search_by_number(app: FastAPI) -> None:
    client, user = await signed_in(app, "logs@example.com")
    other_client, other = await signed_in(app, "nosy@example.com")
    ids = {}
    for n, (number, outcome) in enumerate(
        [
            ("+15551230000", "completed"),
            ("+15551230001", "busy"),
            ("+442071234567", "completed"),
            ("+15551230002", "no-answer"),
        ]
    ):
        ids[number] = await finished_call(
            app,
            user.id,
            to_number=number,
            end_reason=outcome,
            created_at=AT + timedelta(minutes=n),
            carrier_call_id=f"CA{n}",
        )
    await finished_call(app, other.id, to_number="+15551230000", carrier_call_id="CAx")

    async def listed(query: str) -> tuple[list[str], int]:
        body = (await client.api("GET", f"user/{user.id}/calls?per_page=2&{query}")).json()
        return [c["to"] for c in body["data"]], body["pagination"]["total"]

    async with client, other_client:
        assert await listed("outcome=completed") == (["+442071234567", "+15551230000"], 2)
        assert await listed("q=555 123") == (["+15551230002", "+15551230001"], 3)
        assert await listed("q=%2B1 (555) 123-0001") == (["+15551230001"], 1)
        assert await listed("q=555123&outcome=completed&page=1") == (["+15551230000"], 1)
        assert await listed("q=555123&page=2") == (["+15551230000"], 3)
        assert await listed("q=999") == ([], 0)
        bad = await client.api("GET", f"user/{user.id}/calls?q=robert")
        assert bad.status_code == 422
        assert bad.json()["errors"]["q"][0].startswith("Search by phone number")
        wrong = await client.api("GET", f"user/{user.id}/calls?outcome=happy")
        assert wrong.status_code == 422
        # Another user's calls stay out of reach, filtered or not.
        nosy = await other_client.api("GET", f"user/{user.id}/calls?outcome=completed")
        assert nosy.status_code == 403


async def test_a_flows_call_shows_its_path_and_the_graph_it_ran(app: FastAPI) -> None:
    from tests.voice_agent.flow_fixtures import flow_json

    client, user = await signed_in(app, "flows@example.com")
    step = {
        "node_id": "confirm",
        "node_name": "Confirm the time",
        "edge_id": "e_confirm",
        "reason": "answer 'Confirm' by the phrase 'that works'",
        "heard": "Yes, that works.",
        "captured": {},
        "at": 4.5,
    }
    graph = flow_json("appointment")
    call_id = await finished_call(
        app,
        user.id,
        TALK,
        flow_id="appt-flow",
        flow_version=2,
        start_node_id="confirm",
        flow_graph=graph,
        pathway_logs=[step],
    )
    plain = await finished_call(app, user.id, TALK, carrier_call_id="CA" + "6" * 32)
    async with client:
        page = (await client.api("GET", f"call/{call_id}/page")).json()["data"]
        details = (await client.api("GET", f"call-details/{call_id}")).json()["data"]
        other = (await client.api("GET", f"call/{plain}/page")).json()["data"]
    for answer in (page, details):
        assert (answer["flow_id"], answer["flow_version"], answer["start_node_id"]) == (
            "appt-flow",
            2,
            "confirm",
        )
        assert answer["pathway_logs"] == [step]
    assert page["flow_graph"]["start_node_id"] == "greet"
    assert [n["id"] for n in page["flow_graph"]["nodes"]] == [n["id"] for n in graph["nodes"]]
    assert (other["flow_id"], other["pathway_logs"], other["flow_graph"]) == (None, None, None)
