"""The `/v1` call API over plain HTTP: Bland's request and answer shapes, its errors, the
balance hold, keys acting only on their owner's calls, scheduling, agents and variables, the
list's filters, and the call lifecycle's webhook rows."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.developers.keys import INVALID, MISSING
from callwright.kit.time import utcnow
from callwright.models import Agent, ApiKey, Call, User, WebhookDelivery, WebhookEndpoint
from callwright.speech import tts
from tests.factories import add_api_key, add_user, queued_call

pytestmark = pytest.mark.asyncio

SAME_NUMBER_MESSAGE = "Calls can only be sent every 10 seconds to the same number."

TASK = "You are Sam from Acme Dental, confirming {{name}}'s cleaning tomorrow at 3 pm."
#: Scheduled a day ahead: nothing dials these calls during a test.
LATER = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S +00:00")


def api(app: FastAPI, key: str | None = None, **headers: str) -> httpx.AsyncClient:
    if key is not None:
        headers["authorization"] = key
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver", headers=headers)


async def keyed(
    app: FastAPI, email: str = "dev@example.com", cents: int = 10_000
) -> tuple[User, str]:
    user = await add_user(app, email=email, balance_cents=cents)
    return user, await add_api_key(app, user)


async def stored(app: FastAPI, call_id: str) -> Call:
    session: AsyncSession
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, call_id)
        assert call is not None
        return call


async def balance(app: FastAPI, user_id: int) -> int:
    session: AsyncSession
    async with app.state.db.sessionmaker() as session:
        user = await session.get(User, user_id)
        assert user is not None
        return user.balance_cents


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == "error"
    assert isinstance(body["message"], str)
    assert body["message"]
    assert isinstance(body["errors"], dict)
    return body


def order(**fields: Any) -> dict[str, Any]:
    return {"phone_number": "+15551230000", "task": TASK, "request_data": {"name": "Alex"}} | fields


async def test_a_scheduled_call_is_queued_with_every_setting_and_its_price_held(
    app: FastAPI,
) -> None:
    user, key = await keyed(app)
    async with api(app, key) as client:
        response = await client.post(
            "/v1/calls",
            json=order(
                phone_number="(555) 123-0000",  # Bland's clients: ten digits are +1
                first_sentence="Hi {{name}}, it's Sam.",
                voice="JOE",
                max_duration=4,
                temperature=0.3,
                interruption_threshold=150,
                background_track="office",
                wait_for_greeting=True,
                metadata={"crm_id": "lead-8812", "tags": ["vip"]},
                webhook="https://example.com/hook",
                voicemail={"action": "leave_message", "message": "Call us back, {{name}}."},
                summary_prompt="Did they confirm?",
                dispositions=["CONFIRMED", "RESCHEDULE"],
                analysis_schema={"confirmed": "boolean", "new_time": "the time they asked for"},
                start_time=LATER,
                model="base",  # accepted and ignored
                tools=None,
                pathway_id=None,
            ),
        )
    assert response.status_code == 200, response.text
    body = response.json()
    # A sandbox call scheduled outside calling hours in New York says what a real carrier
    # would have done (tests/compliance/test_calling_hours_calls.py); inside them, nothing.
    notice = body.pop("notice")
    assert notice is None or notice.startswith("Outside calling hours in America/New_York")
    assert body | {"call_id": "x"} == {
        "status": "success",
        "message": "Call successfully queued.",
        "call_id": "x",
        "batch_id": None,
    }
    call = await stored(app, body["call_id"])
    assert (call.to_number, call.user_id, call.status) == ("+15551230000", user.id, "queued")
    assert call.prompt == TASK.replace("{{name}}", "Alex")
    assert call.first_sentence == "Hi Alex, it's Sam."
    assert call.voicemail_message == "Call us back, Alex."
    assert (call.voice, call.max_duration, call.temperature) == ("joe", 4, 0.3)
    assert (call.interruption_threshold, call.background_audio) == (150, "office")
    assert call.wait_for_greeting is True
    assert call.voicemail_action == "leave_message"
    assert call.variables == {"name": "Alex"}
    assert call.call_metadata == {"crm_id": "lead-8812", "tags": ["vip"]}
    assert call.webhook_url == "https://example.com/hook"
    assert call.dispositions == ["CONFIRMED", "RESCHEDULE"]
    assert call.analysis_schema == [
        {"name": "confirmed", "type": "boolean", "description": ""},
        {"name": "new_time", "type": "string", "description": "the time they asked for"},
    ]
    assert call.start_at is not None
    assert call.start_at > utcnow() + timedelta(hours=23)
    assert call.api_key_id is not None
    assert await balance(app, user.id) == 10_000 - 4 * 49, "4 minutes at 49 cents held"

    # The call's own webhook gets nothing before the call is over (Bland's: the call object,
    # once, at its end).
    async with app.state.db.sessionmaker() as session:
        deliveries = (
            await session.scalars(select(WebhookDelivery).where(WebhookDelivery.call_id == call.id))
        ).all()
    assert deliveries == []


async def test_details_round_trip_metadata_and_variables_in_blands_fields(app: FastAPI) -> None:
    _, key = await keyed(app)
    async with api(app, key) as client:
        placed = await client.post(
            "/v1/calls",
            json=order(
                metadata={"order": 42}, request_data={"name": "Alex", "n": 3}, start_time=LATER
            ),
        )
        call_id = placed.json()["call_id"]
        response = await client.get(f"/v1/calls/{call_id}")
    assert response.status_code == 200, response.text
    detail = response.json()
    assert detail["call_id"] == detail["c_id"] == call_id
    assert (detail["to"], detail["from"]) == ("+15551230000", app.state.settings.from_number)
    assert (detail["status"], detail["queue_status"], detail["completed"]) == (
        "queued",
        "queued",
        False,
    )
    assert detail["metadata"] == {"order": 42}
    assert detail["request_data"] == {"name": "Alex", "n": "3"}, "strings, as the SDK reads them"
    assert detail["variables"]["name"] == "Alex"
    assert detail["variables"]["call_id"] == call_id
    assert detail["answered_by"] is None, "not asked for (answered_by_enabled), as Bland"
    assert detail["call_ended_by"] is None
    assert (detail["call_length"], detail["corrected_duration"], detail["price"]) == (0, 0, None)
    assert detail["transcripts"] == []
    assert detail["concatenated_transcript"] == ""
    assert (detail["error_message"], detail["batch_id"], detail["inbound"]) == ("", "", False)
    assert detail["recording_url"] is None
    assert detail["max_duration"] == 30
    assert detail["voice"] == tts.default_voice().name
    assert detail["start_at"] is not None


async def test_validation_errors_answer_400_in_blands_shape(app: FastAPI) -> None:
    _, key = await keyed(app)
    async with api(app, key) as client:
        missing = error_of(await client.post("/v1/calls", json={"task": TASK}), 400)
        assert "phone_number" in missing["errors"]
        bad = error_of(await client.post("/v1/calls", json=order(phone_number="+12")), 400)
        assert bad["message"] == "Invalid phone number."
        assert bad["errors"]["phone_number"][0].startswith("Phone number must start with")
        no_task = error_of(
            await client.post("/v1/calls", json={"phone_number": "+15551230000"}), 400
        )
        assert "task" in no_task["errors"]
        short = error_of(await client.post("/v1/calls", json=order(task="Hi")), 400)
        assert short["errors"]["task"] == ["The task must be at least 10 characters long."]
        voice = error_of(await client.post("/v1/calls", json=order(voice="nobody")), 400)
        assert "voice" in voice["errors"]
        long = error_of(await client.post("/v1/calls", json=order(max_duration=121)), 400)
        assert "max_duration" in long["errors"]
        track = error_of(await client.post("/v1/calls", json=order(background_track="zoo")), 400)
        assert "background_track" in track["errors"]
        hook = error_of(await client.post("/v1/calls", json=order(webhook="ftp://x")), 400)
        assert hook["errors"]["webhook"] == ["The webhook must be an http(s) URL."]
        unknown = error_of(await client.get("/v1/nothing-here"), 404)
        assert unknown["message"] == (
            "GET /v1/nothing-here is not supported by Callwright. "
            "See docs/api.md for the supported endpoints."
        )
    async with app.state.db.sessionmaker() as session:
        assert (await session.scalars(select(Call))).all() == []
    # The dashboard's routes keep their own shape.
    async with api(app) as client:
        dashboard = await client.get("/api/v1/nothing-here")
    assert dashboard.json()["success"] is False


async def test_an_unknown_variable_is_a_clear_error_naming_request_data(app: FastAPI) -> None:
    _, key = await keyed(app)
    async with api(app, key) as client:
        body = error_of(
            await client.post("/v1/calls", json=order(request_data={"first": "Alex"})), 400
        )
    assert body["errors"] == {
        "request_data": ["No value was given for {{name}}: add it to the call's variables."]
    }


async def test_start_time_and_timezone(app: FastAPI) -> None:
    _, key = await keyed(app)
    day = (datetime.now(UTC) + timedelta(days=2)).date().isoformat()
    async with api(app, key) as client:
        local = await client.post(
            "/v1/calls",
            json=order(start_time=f"{day} 09:30:00", timezone="America/New_York"),
        )
        default = await client.post(
            "/v1/calls", json=order(phone_number="+15551230001", start_time=f"{day} 09:30:00")
        )
        past = error_of(
            await client.post("/v1/calls", json=order(start_time="2020-01-01 10:00:00 -05:00")),
            400,
        )
        zone = error_of(
            await client.post(
                "/v1/calls", json=order(start_time=f"{day} 09:30:00", timezone="Mars/Olympus")
            ),
            400,
        )
        shape = error_of(await client.post("/v1/calls", json=order(start_time="tomorrow")), 400)
    new_york = datetime.fromisoformat(f"{day}T09:30:00").replace(
        tzinfo=ZoneInfo("America/New_York")
    )
    los_angeles = new_york.replace(tzinfo=ZoneInfo("America/Los_Angeles"))
    assert (await stored(app, local.json()["call_id"])).start_at == new_york
    assert (await stored(app, default.json()["call_id"])).start_at == los_angeles
    assert past["errors"]["start_time"] == ["The start time must be in the future."]
    assert "timezone" in zone["errors"]
    assert "start_time" in shape["errors"]


async def test_insufficient_balance_is_402(app: FastAPI) -> None:
    user, key = await keyed(app, cents=100)
    async with api(app, key) as client:
        body = error_of(await client.post("/v1/calls", json=order(max_duration=30)), 402)
    assert body["message"] == "Insufficient balance."
    assert await balance(app, user.id) == 100


async def test_the_same_number_only_every_10_seconds(app: FastAPI) -> None:
    _, key = await keyed(app)
    async with api(app, key) as client:
        first = await client.post("/v1/calls", json=order(start_time=LATER))
        again = await client.post("/v1/calls", json=order(start_time=LATER))
        other = await client.post(
            "/v1/calls", json=order(phone_number="+15551230009", start_time=LATER)
        )
    assert first.status_code == 200
    assert other.status_code == 200
    body = error_of(again, 429)
    assert body["message"] == SAME_NUMBER_MESSAGE
    assert int(again.headers["retry-after"]) >= 1


async def test_a_refused_call_does_not_start_the_numbers_10_seconds(app: FastAPI) -> None:
    """A call refused for the balance places nothing: the retry after a top-up goes through at
    once instead of meeting the same-number 429; a placed call still starts the 10 seconds."""
    user, key = await keyed(app, cents=100)
    async with api(app, key) as client:
        refused = await client.post("/v1/calls", json=order(max_duration=30, start_time=LATER))
        async with app.state.db.sessionmaker() as session:
            await session.execute(update(User).values(balance_cents=10_000))
            await session.commit()
        retried = await client.post("/v1/calls", json=order(max_duration=30, start_time=LATER))
        again = await client.post("/v1/calls", json=order(max_duration=30, start_time=LATER))
    assert error_of(refused, 402)["message"] == "Insufficient balance."
    assert retried.status_code == 200, retried.text
    assert error_of(again, 429)["message"] == SAME_NUMBER_MESSAGE
    assert await balance(app, user.id) < 10_000


async def test_keys_missing_unknown_and_revoked_are_401(app: FastAPI) -> None:
    _user, key = await keyed(app)
    async with api(app) as anonymous:
        assert error_of(await anonymous.get("/v1/calls"), 401)["message"] == MISSING
    async with api(app, "cw_not-a-key") as wrong:
        assert error_of(await wrong.get("/v1/calls"), 401)["message"] == INVALID
    async with api(app, authorization=f"Bearer {key}") as bearer:
        assert (await bearer.get("/v1/calls")).status_code == 200
    async with app.state.db.sessionmaker() as session:
        await session.execute(update(ApiKey).values(revoked_at=utcnow()))
        await session.commit()
    async with api(app, key) as revoked:
        assert error_of(await revoked.get("/v1/calls"), 401)["message"] == INVALID


async def test_a_key_reaches_only_its_owners_calls(app: FastAPI) -> None:
    owner, _ = await keyed(app, email="owner@example.com")
    _, intruder = await keyed(app, email="intruder@example.com")
    call = await queued_call(app, owner.id)
    async with api(app, intruder) as client:
        for method, path in (
            ("GET", f"/v1/calls/{call.id}"),
            ("POST", f"/v1/calls/{call.id}/stop"),
            ("GET", f"/v1/calls/{call.id}/recording"),
            ("GET", f"/v1/recordings/{call.id}"),
        ):
            body = error_of(await client.request(method, path), 404)
            assert body["message"] in ("Call not found.", "CALL_RECORDING_NOT_FOUND"), path
        listed = (await client.get("/v1/calls")).json()
    assert listed == {"count": 0, "calls": []}
    assert (await stored(app, call.id)).status == "queued", "not stopped by the intruder"


async def test_stop_cancels_a_scheduled_call_and_releases_its_hold(app: FastAPI) -> None:
    user, key = await keyed(app)
    async with api(app, key) as client:
        call_id = (
            await client.post(
                "/v1/calls",
                json=order(
                    start_time=LATER, webhook="https://example.com/h", answered_by_enabled=True
                ),
            )
        ).json()["call_id"]
        assert await balance(app, user.id) == 10_000 - 30 * 49
        stopped = await client.post(f"/v1/calls/{call_id}/stop")
        assert stopped.status_code == 200, stopped.text
        assert stopped.json() == {"status": "success", "message": "Call ended successfully."}
        call = await app.state.calls.flows.wait_finalized(call_id, within=10, poll=0.05)
        assert (call.status, call.end_reason) == ("canceled", "stopped")
        assert await balance(app, user.id) == 10_000, "nothing charged for a call never dialled"
        again = error_of(await client.post(f"/v1/calls/{call_id}/stop"), 400)
        assert again["message"] == "This call has already ended."
        detail = (await client.get(f"/v1/calls/{call_id}")).json()
    assert (detail["status"], detail["queue_status"], detail["completed"]) == (
        "canceled",
        "complete",
        True,
    )
    assert detail["answered_by"] == "no-answer"
    assert detail["price"] == 0
    await app.state.jobs.drain()  # the post-call analysis, sent after the end's commit
    async with app.state.db.sessionmaker() as session:
        rows = (
            await session.scalars(
                select(WebhookDelivery)
                .where(WebhookDelivery.call_id == call_id)
                .order_by(WebhookDelivery.created_at)
            )
        ).all()
    # The call's own webhook: the call object once, after the post-call analysis.
    assert [(r.event, r.endpoint_id) for r in rows] == [("call.ended", None)]
    ended = json.loads(rows[0].payload)
    assert (ended["call_id"], ended["status"], ended["completed"]) == (call_id, "canceled", True)
    # The detail was read before the analysis was stored; the webhook came after it.
    later = {"summary", "analysis", "disposition_tag"}
    assert {k: v for k, v in ended.items() if k not in later} == {
        k: v for k, v in detail.items() if k not in later
    }, "the webhook carries what GET /v1/calls/{id} answers"


async def test_a_call_from_a_saved_agent(app: FastAPI) -> None:
    user, key = await keyed(app)
    other = await add_user(app, email="someone@example.com")
    async with app.state.db.sessionmaker() as session:
        agent = Agent(
            user_id=user.id,
            name="Reminders",
            prompt="You are Ria from Acme, reminding {{name}} of the {{time}} appointment.",
            first_sentence="Hello {{name}}!",
            voice=tts.default_voice().name,
            max_duration=3,
            temperature=0.2,
            voicemail_action="leave_message",
            summary_prompt="Did they confirm?",
            dispositions=["CONFIRMED"],
            analysis_schema=[{"name": "confirmed", "type": "boolean", "description": ""}],
            webhook_url="https://example.com/agent-hook",
        )
        theirs = Agent(user_id=other.id, name="Not yours", prompt="Someone else's agent prompt.")
        session.add_all([agent, theirs])
        await session.commit()
    async with api(app, key) as client:
        response = await client.post(
            "/v1/calls",
            json={
                "phone_number": "+15551230000",
                "agent_id": agent.id,
                "request_data": {"name": "Alex", "time": "3 pm"},
                "temperature": 0.9,  # the request's own value wins
                "start_time": LATER,
            },
        )
        missing = error_of(
            await client.post(
                "/v1/calls",
                json={"phone_number": "+15551230001", "agent_id": agent.id, "request_data": {}},
            ),
            400,
        )
        foreign = error_of(
            await client.post(
                "/v1/calls", json={"phone_number": "+15551230002", "agent_id": theirs.id}
            ),
            404,
        )
    assert response.status_code == 200, response.text
    call = await stored(app, response.json()["call_id"])
    assert call.agent_id == agent.id
    assert call.prompt == "You are Ria from Acme, reminding Alex of the 3 pm appointment."
    assert call.first_sentence == "Hello Alex!"
    assert (call.max_duration, call.temperature) == (3, 0.9)
    assert call.voicemail_action == "leave_message"
    assert call.webhook_url == "https://example.com/agent-hook"
    assert call.dispositions == ["CONFIRMED"]
    assert "request_data" in missing["errors"]
    assert foreign["message"] == "Agent not found."


async def test_the_list_filters_and_pages(app: FastAPI) -> None:
    user, key = await keyed(app)
    other = await add_user(app, email="other@example.com", balance_cents=1000)
    start = utcnow() - timedelta(days=3)
    ids = []
    for i in range(6):
        call = await queued_call(
            app, user.id, to_number=f"+1555123000{i % 2}", call_metadata={"i": i}
        )
        ids.append(call.id)
        async with app.state.db.sessionmaker() as session:
            await session.execute(
                update(Call)
                .where(Call.id == call.id)
                .values(
                    created_at=start + timedelta(days=i // 2),
                    status="completed" if i < 2 else "queued",
                )
            )
            await session.commit()
    await queued_call(app, other.id)
    async with api(app, key) as client:

        async def listed(**params: Any) -> dict[str, Any]:
            response = await client.get("/v1/calls", params=params)
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            return body

        everything = await listed()
        assert everything["count"] == 6
        times = [c["createdAt"] for c in everything["calls"]]
        assert times == sorted(times, reverse=True), "newest first"
        assert {c["call_id"] for c in everything["calls"][:2]} == set(ids[4:])
        first = everything["calls"][0]
        assert set(first) >= {"call_id", "createdAt", "call_length", "to", "from", "completed"}
        assert set(first) >= {"queue_status", "error_message", "answered_by", "batch_id"}
        assert first["createdAt"] == first["created_at"]
        oldest = await listed(ascending="true", limit=2)
        assert oldest["count"] == 6
        assert len(oldest["calls"]) == 2
        assert {c["call_id"] for c in oldest["calls"]} == set(ids[:2])
        ranged = await listed(**{"from": 1, "to": 3, "ascending": "true"})
        assert [c["metadata"]["i"] for c in ranged["calls"]] == [
            c["metadata"]["i"] for c in (await listed(ascending="true"))["calls"][1:3]
        ]
        to_zero = await listed(to_number="+15551230000")
        assert to_zero["count"] == 3
        assert {c["to"] for c in to_zero["calls"]} == {"+15551230000"}
        done = await listed(completed="true")
        assert {c["call_id"] for c in done["calls"]} == set(ids[:2])
        assert all(c["completed"] for c in done["calls"])
        assert (await listed(completed="false"))["count"] == 4
        day = (start + timedelta(days=1)).date().isoformat()
        one_day = await listed(start_date=day, end_date=day)
        assert {c["call_id"] for c in one_day["calls"]} == set(ids[2:4])
        assert (await listed(batch_id="b-1"))["count"] == 0
        unanswered = await listed(answered_by="no-answer")
        assert {c["call_id"] for c in unanswered["calls"]} == set(ids[:2])
        assert {c["answered_by"] for c in unanswered["calls"]} == {"no-answer"}
        error_of(await client.get("/v1/calls", params={"limit": 1001}), 400)
        error_of(await client.get("/v1/calls", params={"start_date": "yesterday"}), 400)


async def test_voices_by_name_or_number(app: FastAPI) -> None:
    _, key = await keyed(app)
    async with api(app, key) as client:
        voices = (await client.get("/v1/voices")).json()
        assert voices["presets"] == []
        first = voices["voices"][0]
        assert (first["voice_id"], first["name"]) == (1, tts.default_voice().name)
        by_number = await client.post(
            "/v1/calls", json=order(voice_id=len(voices["voices"]), start_time=LATER)
        )
    call = await stored(app, by_number.json()["call_id"])
    assert call.voice == voices["voices"][-1]["name"]


async def test_a_recording_is_wav_by_default_and_mp3_when_asked(app: FastAPI) -> None:
    import numpy as np

    from callwright.speech.audio import mp3_bytes, stereo, tone

    user, key = await keyed(app)
    call = await queued_call(app, user.id)
    folder = app.state.calls.media.recordings
    folder.mkdir(parents=True, exist_ok=True)
    mp3 = mp3_bytes(stereo(tone(440, 1.0), tone(660, 1.0)), 8000, 2)
    (folder / f"{call.id}.mp3").write_bytes(mp3)
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(Call).where(Call.id == call.id).values(recording_path=f"{call.id}.mp3")
        )
        await session.commit()
    async with api(app, key) as client:
        where = await client.get(f"/v1/calls/{call.id}/recording")
        assert where.json() == {
            "status": "success",
            "url": f"http://testserver/v1/recordings/{call.id}",
        }
        wav = await client.get(f"/v1/recordings/{call.id}")
        as_mp3 = await client.get(f"/v1/recordings/{call.id}", headers={"accept": "audio/mpeg"})
    assert wav.status_code == 200
    assert wav.headers["content-type"] == "audio/wav"
    assert wav.content[:4] == b"RIFF"
    assert wav.content[8:12] == b"WAVE"
    import io
    import wave

    with wave.open(io.BytesIO(wav.content)) as w:
        assert (w.getnchannels(), w.getframerate()) == (2, 8000)
        assert w.getnframes() >= 7000
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    assert np.abs(samples).max() > 1000, "sound, not silence"
    assert as_mp3.headers["content-type"] == "audio/mpeg"
    assert as_mp3.content == mp3


async def test_every_call_of_a_user_reports_to_their_endpoints_the_test_call_never(
    app: FastAPI,
) -> None:
    """The dashboard's calls report too (one CallService for every way in); only subscribed,
    enabled endpoints get an event; a call nobody owns reports nothing."""
    user = await add_user(app, email="hooks@example.com", balance_cents=10_000)
    async with app.state.db.sessionmaker() as session:
        session.add_all(
            [
                WebhookEndpoint(
                    user_id=user.id,
                    url="https://a.example.com/h",
                    events=["call.queued"],
                    secret="s",
                ),
                WebhookEndpoint(
                    user_id=user.id,
                    url="https://b.example.com/h",
                    events=["call.ended"],
                    secret="s",
                ),
                WebhookEndpoint(
                    user_id=user.id,
                    url="https://c.example.com/h",
                    events=["call.queued"],
                    secret="s",
                    enabled=False,
                ),
            ]
        )
        await session.commit()
    call = await queued_call(app, user.id)
    await queued_call(app, None, kind="test")
    async with app.state.db.sessionmaker() as session:
        rows = (await session.scalars(select(WebhookDelivery))).all()
    assert [(r.event, r.url, r.call_id) for r in rows] == [
        ("call.queued", "https://a.example.com/h", call.id)
    ]
