"""The user's call API: validation with the spec's messages, the hold at send, ownership
(another user's ids answer 403/404 and never data), history, stats, by-weekday figures,
recordings with Range, reports and the post-call analysis."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright import analysis as analysing
from callwright.models import Call, CallReport, LedgerEntry, TranscriptEntry, User
from tests.factories import ARABIC_INDIC, add_user, in_digits, queued_call, signed_in

PROMPT = "You are Sam from Acme Dental, confirming tomorrow's cleaning appointment at 3 pm."


def payload(user_id: int, **overrides: Any) -> dict[str, Any]:
    return {
        "userId": user_id,
        "phone": "+15005550001",
        "prompt": PROMPT,
        "max_duration": 1,
        "voice": "joe",
        "waitGreeting": False,
        "temperature": 0.7,
        "interruption_threshold": 100,
        "background_audio": "null",
    } | overrides


async def add_call(app: FastAPI, user_id: int | None, **values: Any) -> Call:
    defaults: dict[str, Any] = {
        "user_id": user_id,
        "carrier": "sandbox",
        "from_number": "+18885550100",
        "to_number": "+15551230000",
        "prompt": PROMPT,
        "voice": "joe",
        "status": "completed",
        "duration_seconds": 61,
        "max_duration": 2,
    }
    async with app.state.db.sessionmaker() as session:
        call = Call(**(defaults | values))
        session.add(call)
        await session.commit()
        return call


async def balance_of(app: FastAPI, user_id: int) -> int:
    async with app.state.db.sessionmaker() as session:
        user = await session.get(User, user_id)
        assert user is not None
        return int(user.balance_cents)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("phone", "   ", "Phone number cannot be empty"),
        (
            "phone",
            "call me maybe",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
        (
            "phone",
            "555123",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
        (
            "phone",
            "+123456789",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
        ("prompt", "  too short  ", "The prompt must be at least 10 characters long"),
        ("max_duration", 0, None),
        ("max_duration", 121, None),
        ("temperature", 1.5, None),
        ("interruption_threshold", 40, None),
        ("interruption_threshold", 210, None),
        ("background_audio", "stadium", None),
        ("voice", "nobody", "The selected voice is not available."),
    ],
)
async def test_send_call_validates_like_the_client(
    app: FastAPI, field: str, value: Any, message: str | None
) -> None:
    client, user = await signed_in(app, "v@example.com", balance_cents=10_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(user.id, **{field: value}))
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["success"] is False
    assert field in body["errors"]
    if message:
        assert body["errors"][field] == [message]
    assert await balance_of(app, user.id) == 10_000  # nothing held


@pytest.mark.parametrize(
    ("number", "message"),
    [
        (
            "+1555000\u00b9\u00b2\u00b3\u2074",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
        (
            "+99912345678",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
        (
            "+1\u00a0555\u00a0123",
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)',
        ),
    ],
)
async def test_send_call_refuses_numbers_no_phone_could_dial(
    app: FastAPI, number: str, message: str
) -> None:
    client, user = await signed_in(app, "v@example.com", balance_cents=10_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(user.id, phone=number))
    assert response.status_code == 422
    assert response.json()["errors"]["phone"] == [message]


@pytest.mark.parametrize(
    "written", ["+1 555 123 0002", "(555) 123-0002", "555.123.0002", "1-555-123-0002"]
)
async def test_send_call_tidies_the_number_to_e164(app: FastAPI, written: str) -> None:
    """Issue 20: a number as people write it is tidied, not refused (read in the default
    region, US, when it has no "+")."""
    client, user = await signed_in(app, "v@example.com", balance_cents=10_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(user.id, phone=written))
    assert response.status_code == 200, response.text
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, response.json()["callId"])
    assert call is not None
    assert call.to_number == "+15551230002"


async def test_send_call_dials_the_number_in_e164(app: FastAPI) -> None:
    """Issue 15, finding 5: the number is stored and dialled in one spelling, ASCII E.164."""
    client, user = await signed_in(app, "v@example.com", balance_cents=10_000)
    async with client:
        response = await client.api(
            "POST",
            "send-call",
            json=payload(user.id, phone=in_digits("+15551230001", ARABIC_INDIC)),
        )
    assert response.status_code == 200, response.text
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, response.json()["callId"])
    assert call is not None
    assert call.to_number == "+15551230001"


async def test_send_call_only_for_yourself(app: FastAPI) -> None:
    other = await add_user(app, email="other@example.com", balance_cents=10_000)
    client, _user = await signed_in(app, "me@example.com", balance_cents=10_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(other.id))
    assert response.status_code == 403
    assert await balance_of(app, other.id) == 10_000


async def test_insufficient_balance_says_what_is_needed(app: FastAPI) -> None:
    client, user = await signed_in(app, "poor@example.com", balance_cents=1_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(user.id, max_duration=30))
    assert response.status_code == 402
    assert response.json()["message"] == (
        "Insufficient balance to make this call. Required: $14.70, Available: $10.00. "
        "Please add funds."
    )
    assert await balance_of(app, user.id) == 1_000


async def test_send_call_holds_then_a_failed_dial_releases(app: FastAPI) -> None:
    client, user = await signed_in(app, "rich@example.com", balance_cents=5_000)
    async with client:
        response = await client.api("POST", "send-call", json=payload(user.id, max_duration=10))
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["from"] == "+18885550100"
        assert body["balance"] == 45.10  # 50.00 - 10 x 0.49 held
        call_id = body["callId"]
        # The test app's carrier cannot reach a phone network: the dial job fails the call,
        # and settling releases the whole hold.
        await app.state.jobs.drain()
        call = await app.state.calls.flows.wait_finalized(call_id, within=10, poll=0.05)
        assert call.status == "failed"
        assert call.cost_cents == 0
        assert await balance_of(app, user.id) == 5_000
        details = (await client.api("GET", f"call-details/{call_id}")).json()["data"]
        assert details["completed"] is True
        assert details["status"] == "failed"
        assert (details["outcome"], details["answered_by"]) == ("failed", None)
        assert details["error"], "a failure says its reason"
        assert call.error == details["error"]
        page = (await client.api("GET", f"user/{user.id}/calls")).json()["data"]
        assert [(c["call_id"], c["outcome"]) for c in page] == [(call_id, "failed")]
    async with app.state.db.sessionmaker() as session:
        kinds = [
            (e.kind, e.amount_cents, e.balance_after_cents)
            for e in await session.scalars(
                select(LedgerEntry).where(LedgerEntry.call_id == call_id).order_by(LedgerEntry.id)
            )
        ]
    assert kinds == [("hold", -490, 4510), ("release", 490, 5000), ("charge", 0, 5000)]


async def test_another_users_calls_are_out_of_reach(app: FastAPI) -> None:
    owner_client, owner = await signed_in(app, "owner@example.com")
    intruder_client, intruder = await signed_in(app, "intruder@example.com")
    admin_client, _admin = await signed_in(app, "boss@example.com", role="admin")
    call = await add_call(app, owner.id, recording_path="x.mp3")
    async with owner_client, intruder_client, admin_client:
        for method, path in [
            ("GET", f"call-details/{call.id}"),
            ("GET", f"call/{call.id}/transcript"),
            ("GET", f"call/{call.id}/latency"),
            ("POST", f"stop-call/{call.id}"),
            ("GET", f"download-recording/{call.id}"),
            ("GET", f"play-recording/{call.id}"),
            ("POST", f"analyze-call/{call.id}"),
        ]:
            response = await intruder_client.api(method, path, json={})
            assert response.status_code == 404, (path, response.text)
            assert call.id not in response.text
        report = await intruder_client.api("POST", f"call/{call.id}/report", json={"reason": "x"})
        assert report.status_code == 404
        for path in ("calls", "stats", "analysis", "live-calls"):
            response = await intruder_client.api("GET", f"user/{owner.id}/{path}")
            assert response.status_code == 403, path
            assert call.id not in response.text
        assert (await owner_client.api("GET", f"call-details/{call.id}")).status_code == 200
        # Admins see everything.
        assert (await admin_client.api("GET", f"call-details/{call.id}")).status_code == 200
        listed = (await admin_client.api("GET", f"user/{owner.id}/calls")).json()
        assert [c["call_id"] for c in listed["data"]] == [call.id]
        assert (await intruder_client.api("GET", f"user/{intruder.id}/calls")).json()["data"] == []


async def test_history_is_newest_first_and_paginated(app: FastAPI) -> None:
    client, user = await signed_in(app, "h@example.com")
    start = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
    ids = [
        (await add_call(app, user.id, created_at=start + timedelta(hours=i))).id for i in range(9)
    ]
    async with client:
        first = (await client.api("GET", f"user/{user.id}/calls?page=1&per_page=7")).json()
        second = (await client.api("GET", f"user/{user.id}/calls?page=2&per_page=7")).json()
        past = (await client.api("GET", f"user/{user.id}/calls?page=5&per_page=7")).json()
        bad = await client.api("GET", f"user/{user.id}/calls?per_page=1000")
    assert [c["call_id"] for c in first["data"]] == ids[::-1][:7]
    assert [c["call_id"] for c in second["data"]] == ids[::-1][7:]
    assert first["pagination"] == {"current_page": 1, "last_page": 2, "per_page": 7, "total": 9}
    assert second["pagination"]["total"] == 9
    # A page past the end is empty and still knows the total.
    assert past["data"] == []
    assert past["pagination"] == {"current_page": 5, "last_page": 2, "per_page": 7, "total": 9}
    record = first["data"][0]
    assert record["from"] == "+18885550100"
    assert record["corrected_duration"] == 61
    assert record["record_url"] is None
    assert bad.status_code == 422


async def test_stats_count_calls_minutes_and_balance(app: FastAPI) -> None:
    client, user = await signed_in(app, "s@example.com", name="Stat Person", balance_cents=1234)
    await add_call(app, user.id, duration_seconds=90)
    await add_call(app, user.id, duration_seconds=45)
    await add_call(app, user.id, status="no-answer", duration_seconds=None)
    async with client:
        body = (await client.api("GET", f"user/{user.id}/stats")).json()
    assert body["data"] == {
        "name": "Stat Person",
        "balance": 12.34,
        "totalCalls": 3,
        "totalMinutesUsed": 2.25,
    }


async def test_analysis_groups_by_local_weekday_monday_first(app: FastAPI) -> None:
    client, user = await signed_in(app, "a@example.com")
    monday = datetime(2026, 11, 16, 10, 0, tzinfo=UTC)  # a Monday
    await add_call(app, user.id, created_at=monday, duration_seconds=61, status="completed")
    await add_call(app, user.id, created_at=monday, duration_seconds=0, status="no-answer")
    await add_call(app, user.id, created_at=monday, duration_seconds=0, status="busy")
    await add_call(app, user.id, created_at=monday, duration_seconds=0, status="ringing")
    # Sunday 23:30 UTC is Monday 01:30 at UTC+2.
    await add_call(
        app,
        user.id,
        created_at=datetime(2026, 11, 15, 23, 30, tzinfo=UTC),
        duration_seconds=120,
        status="completed",
    )
    async with client:
        utc = (await client.api("GET", f"user/{user.id}/analysis")).json()["data"]
        plus2 = (await client.api("GET", f"user/{user.id}/analysis?tz_offset=120")).json()["data"]
    assert [d["day"] for d in utc] == [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
    mon = utc[0]
    assert mon["totalCalls"] == 4
    assert mon["totalDuration"] == 61
    assert mon["successfulCalls"] == 1
    assert mon["failedCalls"] == 2  # no-answer and busy; ringing counts in neither
    assert mon["averageDuration"] == 61
    assert mon["usedBalance"] == 0.98  # full duration: 2 minutes
    assert utc[6]["totalCalls"] == 1
    assert plus2[0]["totalCalls"] == 5
    assert plus2[6]["totalCalls"] == 0
    assert plus2[0]["averageDuration"] == 90.5


async def test_recordings_download_and_play_with_range(app: FastAPI) -> None:
    client, user = await signed_in(app, "r@example.com")
    call = await add_call(app, user.id)
    folder = app.state.settings.data_dir / "recordings"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{call.id}.mp3").write_bytes(bytes(range(256)) * 8)
    async with client:
        missing = await client.api("GET", f"play-recording/{call.id}")
        assert missing.status_code == 404
        async with app.state.db.sessionmaker() as session:
            row = await session.get(Call, call.id)
            assert row is not None
            row.recording_path = f"{call.id}.mp3"
            await session.commit()
        download = await client.api("GET", f"download-recording/{call.id}")
        assert download.status_code == 200
        assert download.headers["content-type"] == "audio/mpeg"
        assert (
            download.headers["content-disposition"]
            == f'attachment; filename="recording_{call.id}.mp3"'
        )
        assert len(download.content) == 2048
        part = await client.api(
            "GET", f"play-recording/{call.id}", headers={"Range": "bytes=100-199"}
        )
        assert part.status_code == 206
        assert part.headers["content-range"] == "bytes 100-199/2048"
        assert part.content == (bytes(range(256)) * 8)[100:200]
        assert part.headers["content-disposition"].startswith("inline")
        listed = (await client.api("GET", f"user/{user.id}/calls")).json()["data"][0]
        assert listed["record_url"] == f"/api/v1/play-recording/{call.id}"


async def test_report_needs_a_reason(app: FastAPI) -> None:
    client, user = await signed_in(app, "rep@example.com")
    call = await add_call(app, user.id)
    async with client:
        empty = await client.api("POST", f"call/{call.id}/report", json={"reason": "   "})
        assert empty.status_code == 422
        assert empty.json()["errors"]["reason"] == ["The reason field is required."]
        ok = await client.api(
            "POST", f"call/{call.id}/report", json={"reason": " The agent was rude. "}
        )
        assert ok.status_code == 201
        assert ok.json()["message"] == "Call reported successfully"
    async with app.state.db.sessionmaker() as session:
        reports = (await session.scalars(select(CallReport))).all()
    assert [(r.call_id, r.user_id, r.reason) for r in reports] == [
        (call.id, user.id, "The agent was rude.")
    ]


async def test_stop_cancels_a_call_not_dialled_yet(app: FastAPI) -> None:
    client, user = await signed_in(app, "stop@example.com", balance_cents=1000)
    queued = await queued_call(app, user.id)
    assert await balance_of(app, user.id) == 1000 - 98
    async with client:
        stopped = await client.api("POST", f"stop-call/{queued.id}")
        assert stopped.status_code == 200
        assert stopped.json()["message"] == "Call stopped successfully"
        await app.state.calls.flows.wait_finalized(queued.id, within=10, poll=0.05)
        again = await client.api("POST", f"stop-call/{queued.id}")
        assert again.status_code == 409
    assert await balance_of(app, user.id) == 1000


async def test_analyze_call_offline_cites_its_lines(app: FastAPI) -> None:
    client, user = await signed_in(app, "an@example.com")
    call = await add_call(app, user.id, answered_at=datetime(2026, 11, 16, 10, 0, tzinfo=UTC))
    async with app.state.db.sessionmaker() as session:
        for seq, (speaker, text) in enumerate(
            [
                ("assistant", "Hi, this is Sam from Acme Dental about your cleaning tomorrow."),
                ("user", "Oh hi."),
                ("assistant", "Does 3 pm still work for you?"),
                ("user", "Yes, 3 pm tomorrow works for me. Thanks!"),
            ],
            1,
        ):
            session.add(TranscriptEntry(call_id=call.id, seq=seq, speaker=speaker, text=text))
        await session.commit()
    async with client:
        response = await client.api("POST", f"analyze-call/{call.id}")
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        details = (await client.api("GET", f"call-details/{call.id}")).json()["data"]
    assert data["method"] == "offline"
    assert data["outcome"] == "interested"
    assert data["sentiment"] == "positive"
    assert {"fact": "Yes, 3 pm tomorrow works for me. Thanks!", "lines": [4]} in data["key_facts"]
    assert "Acme Dental" in data["summary"]
    assert details["analysis"] == data


@pytest.mark.parametrize(
    ("lines", "outcome"),
    [
        (["Sorry, you have the wrong number."], "wrong number"),
        (["I'm busy right now, can you call me back tomorrow?"], "callback requested"),
        (["No thanks, I'm not interested."], "not interested"),
        (["Hmm."], "undetermined"),
    ],
)
def test_offline_outcomes(lines: list[str], outcome: str) -> None:
    call = Call(
        to_number="+15551230000",
        prompt=PROMPT,
        status="completed",
        duration_seconds=30,
        answered_at=datetime(2026, 11, 16, tzinfo=UTC),
    )
    entries = [TranscriptEntry(speaker="user", text=t, seq=i) for i, t in enumerate(lines, 1)]
    assert analysing.analyze_offline(call, entries).outcome == outcome


async def test_llm_analysis_parses_and_checks_the_answer() -> None:
    import httpx

    seen: dict[str, Any] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen["url"] = str(request.url)
        seen["auth"] = request.headers.get("authorization")
        content = (
            'Here you go: {"summary": "The callee confirmed.", "outcome": "Interested", '
            '"sentiment": "positive", "key_facts": [{"fact": "3 pm works", "lines": [2, 99]}]}'
        )
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    call = Call(to_number="+1555", prompt=PROMPT, status="completed")
    lines = [
        TranscriptEntry(speaker="assistant", text="Does 3 pm work?", seq=1),
        TranscriptEntry(speaker="user", text="Yes it does.", seq=2),
    ]
    result = await analysing.analyze_with_llm(
        call,
        lines,
        base_url="http://llm.local/v1/",
        api_key="k",
        model="m",
        transport=httpx.MockTransport(handler),
    )
    assert seen == {"url": "http://llm.local/v1/chat/completions", "auth": "Bearer k"}
    assert result.method == "llm"
    assert result.outcome == "interested"
    assert result.key_facts[0].lines == [2]  # line 99 does not exist


async def test_a_stop_during_the_dial_wins(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop right after send: the dial job is already talking to the carrier. The call ends
    stopped and the carrier's call is hung up as soon as the dial returns (it never rings on)."""
    client, user = await signed_in(app, "race@example.com", balance_cents=1000)
    engine = app.state.calls.flows
    dialling, release = asyncio.Event(), asyncio.Event()
    hung_up: list[str] = []

    async def slow_dial(request: Any) -> str:
        dialling.set()
        await release.wait()
        return "CA" + "7" * 32

    async def hang_up(carrier_call_id: str) -> None:
        hung_up.append(carrier_call_id)

    monkeypatch.setattr(engine.carrier, "dial", slow_dial)
    monkeypatch.setattr(engine.carrier, "hang_up", hang_up)
    queued = await queued_call(app, user.id)  # the test runs the dial job itself
    job = asyncio.create_task(engine.dial(queued.id))
    await asyncio.wait_for(dialling.wait(), 5)
    async with client:
        stopped = await client.api("POST", f"stop-call/{queued.id}")
        assert stopped.status_code == 200
    release.set()
    await asyncio.wait_for(job, 5)
    assert hung_up == ["CA" + "7" * 32], "the carrier's call is hung up once the dial returns"
    done = await engine.wait_finalized(queued.id, within=10, poll=0.05)
    assert done.status == "canceled"
    assert done.end_reason == "stopped"
    assert await balance_of(app, user.id) == 1000, "a stopped call costs nothing"


async def test_live_calls_bring_back_a_call_in_progress(app: FastAPI) -> None:
    """Send Call picks up the user's calls still going on, with their settings, the answer time
    and the transcript so far in the order spoken; ended calls are not live."""
    client, user = await signed_in(app, "live@example.com", balance_cents=5000)
    answered = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    live = await queued_call(app, user.id, temperature=0.4, wait_for_greeting=True)
    done = await queued_call(app, user.id)
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, live.id)
        assert call is not None
        call.status, call.answered_at = "in-progress", answered
        ended = await session.get(Call, done.id)
        assert ended is not None
        ended.status = "completed"
        # Kept out of order (the callee's answer before the agent's longer sentence ended).
        session.add_all(
            [
                TranscriptEntry(
                    call_id=live.id,
                    seq=1,
                    speaker="user",
                    text="Yes?",
                    created_at=answered + timedelta(seconds=6),
                ),
                TranscriptEntry(
                    call_id=live.id,
                    seq=2,
                    speaker="assistant",
                    text="Hi, this is Sam.",
                    created_at=answered + timedelta(seconds=1),
                ),
            ]
        )
        await session.commit()
    async with client:
        response = await client.api("GET", f"user/{user.id}/live-calls")
    assert response.status_code == 200
    [data] = response.json()["data"]
    assert data["call_id"] == live.id
    assert data["status"] == "in-progress"
    assert data["prompt"].startswith("You are Sam")
    assert data["temperature"] == 0.4
    assert data["wait_for_greeting"] is True
    assert datetime.fromisoformat(data["answered_at"]) == answered
    assert [(t["user"], t["text"], t["seq"]) for t in data["transcripts"]] == [
        ("assistant", "Hi, this is Sam.", 2),
        ("user", "Yes?", 1),
    ]
