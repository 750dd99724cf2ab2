"""A call's language: GET languages (public) lists the offered ones with their voices; agents,
Send Call and `/v1/calls` take a `language`, refuse one not offered with a message naming the
offered ones, and refuse a voice that does not speak it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from callwright.models import Call
from callwright.speech import languages, tts
from tests.factories import add_api_key, add_user, signed_in

pytestmark = pytest.mark.asyncio

#: Scheduled a day ahead: nothing dials these calls during the test.
LATER = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S +00:00")
PROMPT = "You are Sam from Acme Dental, confirming a cleaning tomorrow at 3 pm."


def not_offered(code: str) -> str:
    return languages.not_offered_message(code)


@pytest.fixture
def spanish_too(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As if Spanish had passed the benchmark (its espeak-ng voices then join the catalogue)."""
    monkeypatch.setattr(languages, "OFFERED", (*languages.OFFERED, "es-ES"))
    tts.catalogue.cache_clear()
    yield
    monkeypatch.undo()
    tts.catalogue.cache_clear()


async def _call(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
        assert call is not None
        return call


async def test_languages_are_public_with_the_voices_that_speak_them(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        body = (await client.get("/api/v1/languages")).json()
    assert body["success"] is True
    assert body["default"] == "en-US"
    codes = [lang["code"] for lang in body["languages"]]
    assert codes == list(languages.OFFERED)
    english = body["languages"][0]
    assert english["name"] == "English"
    assert english["voices"][0] == "joe"
    assert english["voices"] == [v.name for v in tts.catalogue() if v.language == "en-US"]


async def test_an_offered_language_lists_its_voices(app: FastAPI, spanish_too: None) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        body = (await client.get("/api/v1/languages")).json()
    spanish = next(lang for lang in body["languages"] if lang["code"] == "es-ES")
    assert spanish == {"code": "es-ES", "name": "Spanish", "voices": ["mateo", "lucia"]}


def agent(**fields: Any) -> dict[str, Any]:
    return {"name": "Reminder", "prompt": PROMPT} | fields


async def test_an_agents_language_is_checked_and_defaults_to_english(app: FastAPI) -> None:
    client, _user = await signed_in(app, "lang@example.com")
    async with client:
        plain = await client.api("POST", "agents", json=agent())
        assert plain.status_code == 201, plain.text
        assert plain.json()["data"]["language"] == "en-US"
        bare = await client.api("POST", "agents", json=agent(language="en", voice="sarah"))
        assert bare.status_code == 201, bare.text
        assert (bare.json()["data"]["language"], bare.json()["data"]["voice"]) == ("en-US", "sarah")
        listed = (await client.api("GET", "agents")).json()["data"]
        assert {a["language"] for a in listed} == {"en-US"}
        refused = await client.api("POST", "agents", json=agent(language="xx-YY"))
        assert refused.status_code == 422
        assert refused.json()["errors"] == {"language": [not_offered("xx-YY")]}


async def test_an_agents_voice_must_speak_its_language(app: FastAPI, spanish_too: None) -> None:
    client, _user = await signed_in(app, "es@example.com")
    async with client:
        spanish = await client.api("POST", "agents", json=agent(language="es"))
        assert spanish.status_code == 201, spanish.text
        assert (spanish.json()["data"]["language"], spanish.json()["data"]["voice"]) == (
            "es-ES",
            "mateo",
        )
        wrong = await client.api("POST", "agents", json=agent(language="es-ES", voice="joe"))
        assert wrong.status_code == 422
        assert wrong.json()["errors"] == {
            "voice": ['The voice "joe" does not speak Spanish. Voices that do: mateo, lucia.']
        }


async def test_send_call_takes_a_language(app: FastAPI) -> None:
    client, user = await signed_in(app, "call@example.com", balance_cents=10_000)
    body = {"userId": user.id, "phone": "+15005550001", "prompt": PROMPT}
    async with client:
        refused = await client.api("POST", "send-call", json=body | {"language": "fr-FR"})
        assert refused.status_code == 422
        assert refused.json()["errors"] == {"language": [not_offered("fr-FR")]}
        placed = await client.api("POST", "send-call", json=body | {"language": "EN-us"})
        assert placed.status_code == 200, placed.text
        assert (await _call(app, placed.json()["callId"])).language == "en-US"


async def test_send_call_from_an_agent_keeps_its_language_and_checks_the_voice(
    app: FastAPI, spanish_too: None
) -> None:
    client, user = await signed_in(app, "agentcall@example.com", balance_cents=10_000)
    async with client:
        saved = await client.api("POST", "agents", json=agent(language="es-ES", voice="lucia"))
        agent_id = saved.json()["data"]["id"]
        body = {"userId": user.id, "phone": "+15005550001", "agentId": agent_id}
        placed = await client.api("POST", "send-call", json=body)
        assert placed.status_code == 200, placed.text
        call = await _call(app, placed.json()["callId"])
        assert (call.language, call.voice) == ("es-ES", "lucia")
        wrong = await client.api("POST", "send-call", json=body | {"voice": "joe"})
        assert wrong.status_code == 422
        assert wrong.json()["errors"]["voice"] == [
            'The voice "joe" does not speak Spanish. Voices that do: mateo, lucia.'
        ]


async def test_v1_calls_take_blands_language_codes(app: FastAPI, spanish_too: None) -> None:
    user = await add_user(app, email="v1@example.com", balance_cents=10_000)
    key = await add_api_key(app, user)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"authorization": key}
    ) as client:
        order = {
            "phone_number": "+15551230000",
            "task": PROMPT,
            "start_time": LATER,
        }
        english = await client.post("/v1/calls", json=order | {"language": "babel-en"})
        assert english.status_code == 200, english.text
        call = await _call(app, english.json()["call_id"])
        assert (call.language, call.voice) == ("en-US", "joe")
        other = {"phone_number": "+15551230001"}
        spanish = await client.post("/v1/calls", json=order | other | {"language": "esp"})
        assert spanish.status_code == 200, spanish.text
        call = await _call(app, spanish.json()["call_id"])
        assert (call.language, call.voice) == ("es-ES", "mateo")
        refused = await client.post("/v1/calls", json=order | {"language": "fre"})
        assert refused.status_code == 400
        assert refused.json()["errors"] == {"language": [not_offered("fre")]}
        wrong = await client.post("/v1/calls", json=order | {"language": "es", "voice": "joe"})
        assert wrong.status_code == 400
        assert "does not speak Spanish" in wrong.json()["errors"]["voice"][0]
