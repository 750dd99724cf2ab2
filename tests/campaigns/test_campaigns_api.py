"""Campaigns through the API: a draft from one's own agent, contacts loaded from a CSV file with
the report, the state moves and their refusals, the contacts list, the results export; and the
dialler's clock: a campaign whose window is closed in the callee's zone dials nothing until it
opens there, while the pace and the concurrency cap bound what one tick starts."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.campaigns import contacts as reading
from callwright.campaigns.dialler import Dialler
from callwright.models import Call, CampaignContact
from tests.factories import ApiClient, signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental, confirming {{name}}'s cleaning at {{time}}."
NEW_YORK = "+12125550123"  # America/New_York
LOS_ANGELES = "+14155552671"  # America/Los_Angeles


async def _agent(client: ApiClient) -> str:
    response = await client.api(
        "POST",
        "agents",
        json={"name": "Reminder", "prompt": PROMPT, "voice": "joe", "max_duration": 2},
    )
    assert response.status_code == 201, response.text
    return str(response.json()["data"]["id"])


async def _campaign(client: ApiClient, agent_id: str, **fields: Any) -> dict[str, Any]:
    body = {"name": "Cleanings", "agent_id": agent_id} | fields
    response = await client.api("POST", "campaigns", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json()["data"])


async def _load(client: ApiClient, campaign_id: str, text: str) -> httpx.Response:
    files = {"file": ("contacts.csv", text.encode(), "text/csv")}
    return await client.api("POST", f"campaigns/{campaign_id}/contacts", files=files)


async def test_a_draft_is_loaded_with_a_report_then_started_paused_resumed_cancelled(
    app: FastAPI,
) -> None:
    client, _ = await signed_in(app, "c@example.com", balance_cents=10_000)
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(
            client, agent_id, retries={"busy": {"attempts": 2, "wait_minutes": 5}}
        )
        assert (campaign["state"], campaign["days"], campaign["calling_window"]) == (
            "draft",
            [0, 1, 2, 3, 4],
            "09:00-20:00",
        )
        cid = campaign["id"]
        empty = await client.api("POST", f"campaigns/{cid}/start")
        assert empty.status_code == 409
        assert empty.json()["message"] == "Load the contacts first: the campaign has none to call."
        report = await _load(
            client,
            cid,
            "Name,Phone,Time\n"
            f"Ann,{NEW_YORK},3 pm\n"
            "Bob,(415) 555-2671,4 pm\n"  # national format, default region US
            f"Cy,{NEW_YORK},5 pm\n"  # duplicate
            "Di,911,1 pm\n"
            "Ed,+12125550124,\n",  # the agent needs {{time}}
        )
        assert report.status_code == 200, report.text
        data = report.json()["data"]
        assert (data["accepted"], data["refused_count"], data["variables"]) == (
            2,
            3,
            ["name", "time"],
        )
        assert [(r["row"], r["reason"]) for r in data["refused"]] == [
            (4, reading.DUPLICATE),
            (5, reading.EMERGENCY),
            (6, reading.MISSING_VARIABLE.format(name="time")),
        ]
        listed = (await client.api("GET", f"campaigns/{cid}/contacts")).json()
        assert [(c["row"], c["phone_number"], c["variables"]["name"]) for c in listed["data"]] == [
            (2, NEW_YORK, "Ann"),
            (3, LOS_ANGELES, "Bob"),
        ]
        found = (await client.api("GET", f"campaigns/{cid}/contacts?search=Bob")).json()
        assert [c["row"] for c in found["data"]] == [3]
        started = await client.api("POST", f"campaigns/{cid}/start")
        assert started.status_code == 200, started.text
        assert started.json()["data"]["state"] == "scheduled"
        assert started.json()["data"]["counters"]["pending"] == 2
        assert started.json()["data"]["max_remaining_cost"] == pytest.approx(2 * 2 * 0.49)
        again = await _load(client, cid, f"Name,Phone,Time\nAnn,{NEW_YORK},3 pm\n")
        assert again.status_code == 409
        assert (await client.api("POST", f"campaigns/{cid}/resume")).status_code == 409
        paused = await client.api("POST", f"campaigns/{cid}/pause")
        assert paused.json()["message"] == "Campaign paused: calls in progress will finish."
        assert (await client.api("POST", f"campaigns/{cid}/resume")).json()["data"]["state"] == (
            "scheduled"
        )
        cancelled = (await client.api("POST", f"campaigns/{cid}/cancel")).json()["data"]
        assert (cancelled["state"], cancelled["counters"]["skipped"]) == ("cancelled", 2)
        assert (await client.api("POST", f"campaigns/{cid}/cancel")).status_code == 409
        exported = await client.api("GET", f"campaigns/{cid}/export")
        rows = list(csv.DictReader(io.StringIO(exported.text)))
        assert [(r["row"], r["phone_number"], r["status"], r["name"], r["time"]) for r in rows] == [
            ("2", NEW_YORK, "skipped", "Ann", "3 pm"),
            ("3", LOS_ANGELES, "skipped", "Bob", "4 pm"),
        ]


async def test_bad_input_is_refused_with_clear_messages(app: FastAPI) -> None:
    client, _ = await signed_in(app, "bad@example.com")
    other, _ = await signed_in(app, "other@example.com")
    async with client, other:
        agent_id = await _agent(client)
        theirs = await other.api("POST", "campaigns", json={"name": "x", "agent_id": agent_id})
        assert theirs.status_code == 404
        for fields, key in (
            ({"calling_window": "21:00-08:00"}, "calling_window"),
            ({"days": [7]}, "days.0"),
            ({"concurrency": 0}, "concurrency"),
            ({"retries": {"busy": {"attempts": 9, "wait_minutes": 1}}}, "retries.busy.attempts"),
        ):
            response = await client.api(
                "POST", "campaigns", json={"name": "x", "agent_id": agent_id} | fields
            )
            assert response.status_code == 422, response.text
            assert key in response.json()["errors"], response.json()
        campaign = await _campaign(client, agent_id)
        no_phone = await _load(client, campaign["id"], "name,city\nAnn,Paris\n")
        assert no_phone.status_code == 422
        assert no_phone.json()["errors"]["file"] == [reading.NO_PHONE_COLUMN]
        assert (await other.api("GET", f"campaigns/{campaign['id']}")).status_code == 404


@pytest.fixture
def clock(app: FastAPI) -> Iterator[list[datetime]]:
    """The app's dialler on a clock the test sets (its nudges after a call use it too)."""
    dialler: Dialler = app.state.dialler
    now = [datetime(2026, 11, 25, 13, 0, tzinfo=UTC)]  # a Wednesday
    real = dialler.clock
    dialler.clock = lambda: now[0]
    yield now
    dialler.clock = real


async def test_a_closed_window_dials_nothing_until_it_opens_in_the_callees_zone(
    app: FastAPI, clock: list[datetime]
) -> None:
    dialler: Dialler = app.state.dialler
    client, _ = await signed_in(app, "w@example.com", balance_cents=10_000)
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(
            client, agent_id, calling_window="09:00-17:00", days=[0, 1, 2, 3, 4]
        )
        cid = campaign["id"]
        await _load(client, cid, f"name,phone,time\nNY,{NEW_YORK},3\nLA,{LOS_ANGELES},4\n")
        await client.api("POST", f"campaigns/{cid}/start")
    # 13:00 UTC: 08:00 in New York, 05:00 in Los Angeles.
    assert (await dialler.tick()).placed == 0
    assert await _dialled(app, cid) == []
    due = await _next_attempts(app, cid)
    assert due == {
        NEW_YORK: datetime(2026, 11, 25, 14, 0, tzinfo=UTC),
        LOS_ANGELES: datetime(2026, 11, 25, 17, 0, tzinfo=UTC),
    }
    clock[0] = datetime(2026, 11, 25, 13, 59, tzinfo=UTC)
    assert (await dialler.tick()).placed == 0
    clock[0] = datetime(2026, 11, 25, 14, 0, tzinfo=UTC)  # 09:00 in New York
    assert (await dialler.tick()).placed == 1
    assert await _dialled(app, cid) == [NEW_YORK]
    clock[0] = datetime(2026, 11, 25, 17, 0, tzinfo=UTC)  # 09:00 in Los Angeles
    await dialler.tick()
    assert sorted(await _dialled(app, cid)) == sorted([NEW_YORK, LOS_ANGELES])


async def test_a_saturday_waits_for_monday(app: FastAPI, clock: list[datetime]) -> None:
    """And the contact says why it waits and until when, in its owner's zone, on the campaign's
    contacts and in the export."""
    dialler: Dialler = app.state.dialler
    client, _ = await signed_in(app, "sat@example.com", balance_cents=10_000)
    async with client:
        await client.api("PUT", "user/timezone", json={"timezone": "Europe/Berlin"})
        agent_id = await _agent(client)
        campaign = await _campaign(client, agent_id, calling_window="09:00-17:00")
        await _load(client, campaign["id"], f"name,phone,time\nNY,{NEW_YORK},3\n")
        await client.api("POST", f"campaigns/{campaign['id']}/start")
        clock[0] = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)  # Saturday 10:00 in New York
        assert (await dialler.tick()).placed == 0
        assert await _next_attempts(app, campaign["id"]) == {
            NEW_YORK: datetime(2026, 11, 30, 14, 0, tzinfo=UTC)  # Monday 09:00
        }
        why = (
            "Waiting for the campaign's calling window (09:00-17:00 on its days in "
            "America/New_York): it opens at Mon 30 Nov 15:00 your time (Europe/Berlin)."
        )
        listed = (await client.api("GET", f"campaigns/{campaign['id']}/contacts")).json()
        assert [(c["note"], c["next_attempt_at"]) for c in listed["data"]] == [
            (why, "2026-11-30T14:00:00Z")
        ]
        exported = await client.api("GET", f"campaigns/{campaign['id']}/export")
        rows = list(csv.DictReader(io.StringIO(exported.text)))
        assert [(r["status"], r["next_attempt_at"], r["note"]) for r in rows] == [
            ("pending", "2026-11-30T14:00:00+00:00", why)
        ]
        # Monday 09:00 in New York: it is called, and no longer says it waits.
        clock[0] = datetime(2026, 11, 30, 14, 0, tzinfo=UTC)
        assert (await dialler.tick()).placed == 1
        listed = (await client.api("GET", f"campaigns/{campaign['id']}/contacts")).json()
        assert [(c["status"], c["note"]) for c in listed["data"]] == [("calling", None)]


async def _dialled(app: FastAPI, campaign_id: str) -> list[str]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.scalars(select(Call.to_number).where(Call.campaign_id == campaign_id))
        return list(rows)


async def _next_attempts(app: FastAPI, campaign_id: str) -> dict[str, datetime | None]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.execute(
            select(CampaignContact.phone, CampaignContact.next_attempt_at).where(
                CampaignContact.campaign_id == campaign_id
            )
        )
        return dict(rows.all())


async def test_one_tick_starts_no_more_than_the_cap_and_the_pace(
    app: FastAPI, clock: list[datetime]
) -> None:
    dialler: Dialler = app.state.dialler
    client, _ = await signed_in(app, "cap@example.com", balance_cents=100_000)
    numbers = [f"+1212555{n:04d}" for n in range(120, 130)]
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(
            client,
            agent_id,
            calling_window="00:00-24:00",
            days=list(range(7)),
            concurrency=4,
            pace_per_minute=3,
        )
        await _load(
            client, campaign["id"], "phone,name,time\n" + "".join(f"{n},A,1\n" for n in numbers)
        )
        await client.api("POST", f"campaigns/{campaign['id']}/start")
    assert (await dialler.tick()).placed == 3  # the pace
    async with app.state.db.sessionmaker() as session:
        calling = await session.scalar(
            select(func.count()).where(
                CampaignContact.campaign_id == campaign["id"], CampaignContact.status != "pending"
            )
        )
    assert calling is not None
    assert calling <= 4


async def test_a_draft_is_edited_and_previews_when_each_zone_opens(
    app: FastAPI, clock: list[datetime]
) -> None:
    client, _ = await signed_in(app, "zones@example.com", balance_cents=10_000)
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(client, agent_id)
        cid = campaign["id"]
        text = f"name,phone,time\nNY,{NEW_YORK},3\nNY2,+12125550124,3\nLA,{LOS_ANGELES},4\n"
        await _load(client, cid, text)
        changed = await client.api(
            "PUT",
            f"campaigns/{cid}",
            json={
                "name": "Renamed",
                "agent_id": agent_id,
                "calling_window": "10:00-12:00",
                "days": [0, 1, 2, 3, 4, 5, 6],
                "spend_cap": 12.5,
            },
        )
        assert changed.status_code == 200, changed.text
        data = changed.json()["data"]
        assert (data["name"], data["calling_window"], data["spend_cap"]) == (
            "Renamed",
            "10:00-12:00",
            12.5,
        )
        # The preview is computed from the real clock: check the shape and the order.
        zones = (await client.api("GET", f"campaigns/{cid}/zones")).json()["data"]
        assert [(z["zones"], z["contacts"]) for z in zones] == [
            ("America/New_York", 2),
            ("America/Los_Angeles", 1),
        ]
        for zone in zones:
            assert zone["open_now"] or zone["opens_at"] is not None
        await client.api("POST", f"campaigns/{cid}/start")
        late = await client.api(
            "PUT", f"campaigns/{cid}", json={"name": "Again", "agent_id": agent_id}
        )
        assert late.status_code == 409
        assert late.json()["message"] == "Only a draft campaign can be changed."


async def test_a_dial_lost_with_a_crashed_worker_is_sent_again_by_the_sweep(
    app: FastAPI, clock: list[datetime], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tick commits the attempt, then its dial job is lost (the worker died): the contact
    is not lost, the due-call sweep sends the dial again and the dial claims the call."""
    dialler: Dialler = app.state.dialler
    client, _ = await signed_in(app, "crash@example.com", balance_cents=10_000)
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(
            client, agent_id, calling_window="00:00-24:00", days=list(range(7))
        )
        await _load(client, campaign["id"], f"name,phone,time\nNY,{NEW_YORK},3\n")
        await client.api("POST", f"campaigns/{campaign['id']}/start")
    jobs = app.state.jobs
    real_send = jobs.send
    lost: list[str] = []

    async def lose_dials(name: str, *args: object) -> None:
        if name == "calls.dial":
            lost.append(str(args[0]))
            return
        await real_send(name, *args)

    monkeypatch.setattr(jobs, "send", lose_dials)
    assert (await dialler.tick()).placed == 1
    assert len(lost) == 1
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, lost[0])
        contact = await session.scalar(
            select(CampaignContact).where(CampaignContact.campaign_id == campaign["id"])
        )
    assert call is not None
    assert contact is not None
    assert (call.status, call.media_token_hash) == ("queued", None)
    assert (contact.status, contact.last_call_id) == ("calling", call.id)
    monkeypatch.setattr(jobs, "send", real_send)
    claimed: list[str] = []
    flows = app.state.calls.flows
    real_dial = flows.dial

    async def dial(call_id: str) -> None:
        claimed.append(call_id)
        await real_dial(call_id)

    monkeypatch.setattr(flows, "dial", dial)
    monkeypatch.setattr(flows, "jobs", None)  # the sweep dials in this process
    assert await flows.dial_due() == 1
    assert claimed == [call.id]
    async with app.state.db.sessionmaker() as session:
        dialled = await session.get(Call, call.id)
    assert dialled is not None
    assert dialled.status != "queued" or dialled.media_token_hash is not None


async def test_the_review_says_which_zone_the_legal_rule_uses_where_the_file_disagrees(
    app: FastAPI,
) -> None:
    client, _ = await signed_in(app, "zones@example.com", balance_cents=10_000)
    async with client:
        agent_id = await _agent(client)
        campaign = await _campaign(client, agent_id)
        report = await _load(
            client,
            campaign["id"],
            "name,phone,time,timezone\n"
            f"Ann,{NEW_YORK},3,America/New_York\n"  # agrees
            f"Bob,{LOS_ANGELES},4,Europe/London\n"  # a Los Angeles number, a London zone
            "Cy,+18002752273,5,Europe/London\n",  # toll-free: the number does not say where
        )
    data = report.json()["data"]
    assert data["accepted"] == 3
    assert data["calling_hours"] == "08:00-21:00"
    assert data["zone_mismatch_count"] == 1
    assert data["zone_mismatches"] == [
        {
            "row": 3,
            "phone_number": LOS_ANGELES,
            "file_zone": "Europe/London",
            "number_zones": ["America/Los_Angeles"],
        }
    ]
