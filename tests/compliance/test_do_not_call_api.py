"""The do-not-call lists through the API: a user's list and the admins' global list are added
to (numbers as people write them, stored in E.164), searched, imported from CSV with a report
of every refused row, exported and removed from; a listed number is refused by Send Call, the
`/v1` API and (global list) the free test call, and a scheduled call listed before its time is
never dialled. The frequency cap refuses a fourth call to a number within 24 hours."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from callwright.compliance.do_not_call import ON_GLOBAL_LIST, ON_YOUR_LIST
from callwright.kit.phone import LIST_NUMBER_FORMAT
from callwright.kit.time import utcnow
from callwright.models import Call
from tests.factories import ApiClient, add_api_key, make_client, queued_call, signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental, confirming the cleaning tomorrow at 3 pm."


def send_call(user_id: int, phone: str) -> dict[str, Any]:
    return {
        "userId": user_id,
        "phone": phone,
        "prompt": PROMPT,
        "max_duration": 1,
        "voice": "joe",
        "waitGreeting": False,
        "temperature": 0.7,
        "interruption_threshold": 100,
        "background_audio": "null",
    }


async def upload(client: ApiClient, path: str, text: str) -> httpx.Response:
    files = {"file": ("numbers.csv", text.encode(), "text/csv")}
    return await client.api("POST", path, files=files)


async def test_a_number_is_added_as_written_searched_and_removed(app: FastAPI) -> None:
    client, _ = await signed_in(app, "dnc@example.com")
    async with client:
        added = await client.api(
            "POST", "do-not-call", json={"phone_number": " +1 (415) 555-0100 ", "note": "asked"}
        )
        assert added.status_code == 200, added.text
        body = added.json()
        assert body["created"] is True
        entry = body["data"]
        assert (entry["phone_number"], entry["source"], entry["note"]) == (
            "+14155550100",
            "manual",
            "asked",
        )
        again = await client.api("POST", "do-not-call", json={"phone_number": "+14155550100"})
        assert again.json()["created"] is False
        assert again.json()["data"]["id"] == entry["id"]
        bad = await client.api("POST", "do-not-call", json={"phone_number": "415 555 0100"})
        assert bad.status_code == 422
        assert bad.json()["errors"]["phone_number"] == [LIST_NUMBER_FORMAT]
        await client.api("POST", "do-not-call", json={"phone_number": "+442079460000"})
        found = (await client.api("GET", "do-not-call?search=415")).json()
        assert [e["phone_number"] for e in found["data"]] == ["+14155550100"]
        everything = (await client.api("GET", "do-not-call")).json()
        assert everything["pagination"]["total"] == 2
        gone = await client.api("DELETE", f"do-not-call/{entry['id']}")
        assert gone.status_code == 200
        assert gone.json()["message"] == "Number removed from the do-not-call list."
        assert (await client.api("DELETE", f"do-not-call/{entry['id']}")).status_code == 404


async def test_an_import_reports_every_row_and_the_export_returns_the_list(app: FastAPI) -> None:
    client, _ = await signed_in(app, "import@example.com")
    async with client:
        await client.api("POST", "do-not-call", json={"phone_number": "+14155550100"})
        text = (
            "Name,Phone Number\n"
            "Ada,+1 415 555 0100\n"  # listed already
            "Bob,+1 (415) 555-0101\n"
            "Cy,+14155550101\n"  # the same number again
            "Di,555-0102\n"  # no country
            "\n"
            "Ed,+442079460001\n"
        )
        report = await upload(client, "do-not-call/import", text)
        assert report.status_code == 200, report.text
        assert report.json()["data"] == {
            "added": 2,
            "already_listed": 1,
            "refused": [
                {"row": 4, "value": "+14155550101", "reason": "Duplicate of an earlier row."},
                {"row": 5, "value": "555-0102", "reason": LIST_NUMBER_FORMAT},
            ],
            "refused_count": 2,
        }
        # Numbers alone, no header.
        bare = await upload(client, "do-not-call/import", "+14155550103\n+14155550104\n")
        assert bare.json()["data"]["added"] == 2
        unreadable = await upload(client, "do-not-call/import", "name,city\nAda,Paris\n")
        assert unreadable.status_code == 422
        assert "phone number column" in unreadable.json()["errors"]["file"][0]
        exported = await client.api("GET", "do-not-call/export")
        assert exported.status_code == 200
        assert exported.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(exported.text)))
        assert [r["phone_number"] for r in rows] == [
            "+14155550100",
            "+14155550101",
            "+442079460001",
            "+14155550103",
            "+14155550104",
        ]
        assert [r["source"] for r in rows] == ["manual"] + ["import"] * 4


async def test_a_listed_number_is_never_called(app: FastAPI) -> None:
    client, user = await signed_in(app, "caller@example.com", balance_cents=10_000)
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    key = await add_api_key(app, user)
    async with client, admin:
        await client.api("POST", "do-not-call", json={"phone_number": "+14155550100"})
        await admin.api("POST", "admin/do-not-call", json={"phone_number": "+14155550199"})
        for number, message in (("+14155550100", ON_YOUR_LIST), ("+14155550199", ON_GLOBAL_LIST)):
            refused = await client.api("POST", "send-call", json=send_call(user.id, number))
            assert refused.status_code == 400, refused.text
            assert refused.json()["message"] == message
        transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", headers={"authorization": key}
        ) as api:
            v1 = await api.post("/v1/calls", json={"phone_number": "+14155550100", "task": PROMPT})
        assert v1.status_code == 400
        assert v1.json() == {
            "status": "error",
            "message": ON_YOUR_LIST,
            "errors": {"phone_number": [ON_YOUR_LIST]},
        }
        # The global list binds the landing page's free test call; a user's list does not.
        async with make_client(app, ip="203.0.113.77") as visitor:
            test_call = await visitor.api(
                "POST", "test-call", json={"phone_number": "+14155550199"}
            )
            assert test_call.status_code == 400
            assert test_call.json()["message"] == ON_GLOBAL_LIST
    async with app.state.db.sessionmaker() as session:
        stored = await session.scalar(select(func.count()).where(Call.user_id == user.id))
    assert stored == 0, "a refused call is not stored"


async def test_a_scheduled_call_listed_before_its_time_is_not_dialled(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialled: list[str] = []

    async def dial(request: Any) -> str:
        dialled.append(request.call_id)
        return "CA" + "1".rjust(32, "0")

    monkeypatch.setattr(app.state.calls.flows.carrier, "dial", dial)
    client, user = await signed_in(app, "later@example.com", balance_cents=1_000)
    call = await queued_call(
        app, user.id, to_number="+14155550100", start_at=utcnow() - timedelta(seconds=1)
    )
    async with client:
        await client.api("POST", "do-not-call", json={"phone_number": "+14155550100"})
    await app.state.calls.flows.dial(call.id)
    assert dialled == []
    async with app.state.db.sessionmaker() as session:
        stored = await session.get(Call, call.id)
        assert stored is not None
        assert (stored.status, stored.error) == ("failed", ON_YOUR_LIST)
        assert stored.finalized_at is not None


async def test_a_number_is_called_at_most_three_times_a_day(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.calls.service.settings, "max_calls_per_number_per_day", 3)
    client, user = await signed_in(app, "often@example.com", balance_cents=10_000)
    placed = [await queued_call(app, user.id, to_number="+14155550100") for _ in range(3)]
    now = utcnow()
    # 23 and 10 hours ago count; a day and a minute ago does not.
    ages = (timedelta(hours=23), timedelta(hours=10), timedelta(hours=24, minutes=1))
    async with app.state.db.sessionmaker() as session:
        for call, age in zip(placed, ages, strict=True):
            await session.execute(
                update(Call).where(Call.id == call.id).values(queued_at=now - age)
            )
        await session.commit()
    earlier = now - ages[0]
    async with client:
        third = await client.api("POST", "send-call", json=send_call(user.id, "+14155550100"))
        assert third.status_code == 200, third.text
        fourth = await client.api("POST", "send-call", json=send_call(user.id, "+14155550100"))
    assert fourth.status_code == 429
    message = fourth.json()["message"]
    assert message.startswith("This number has already been called 3 times in the last 24 hours.")
    assert f"after {(earlier + timedelta(hours=24)):%Y-%m-%d %H:}" in message
