"""Saved agents: CRUD with clear validation messages, owner only (another user's agent is
404), a cap per user, and Send Call starting from an agent (its settings under the form's,
`{{variables}}` filled, a missing one refused)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from callwright.agents.service import AGENTS_MAX
from callwright.compliance.disclosure import NOT_AI
from callwright.models import Agent, Call
from tests.factories import ApiClient, signed_in

pytestmark = pytest.mark.asyncio

PROMPT = "You are Sam from Acme Dental. Confirm {{name}}'s cleaning on {{ day }} at 3 pm."


def agent_body(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "  Dental reminder  ",
        "prompt": PROMPT,
        "first_sentence": "Hi {{name}}, this is Sam from Acme Dental.",
        "voice": "joe",
        "temperature": 0.4,
        "interruption_threshold": 150,
        "background_audio": "office",
        "max_duration": 5,
        "wait_for_greeting": True,
        "voicemail_action": "leave_message",
        "voicemail_message": "Hi {{name}}, please call Acme Dental back.",
        "disclosure": "I'm Acme Dental's AI assistant, {{name}}.",
        "summary_prompt": "Summarise whether the appointment was confirmed.",
        "dispositions": ["confirmed", "rescheduled", "no answer"],
        "analysis_schema": [
            {"name": "new_time", "type": "date", "description": "The new time, if moved"},
            {"name": "confirmed", "type": "boolean", "description": ""},
        ],
        "webhook_url": "https://hooks.example.com/acme?x=1",
    } | overrides


def from_agent(user_id: int, agent_id: str, **fields: Any) -> dict[str, Any]:
    """A send-call body that starts from an agent."""
    return {"userId": user_id, "phone": "+15005550001", "agentId": agent_id} | fields


async def test_create_read_list_update_delete(app: FastAPI) -> None:
    client, _user = await signed_in(app, "a@example.com")
    async with client:
        created = await client.api("POST", "agents", json=agent_body())
        assert created.status_code == 201, created.text
        body = created.json()
        assert body["message"] == "Agent created successfully"
        agent = body["data"]
        assert agent["name"] == "Dental reminder"
        assert agent["variables"] == ["name", "day"]
        assert agent["analysis_schema"][0] == {
            "name": "new_time",
            "type": "date",
            "description": "The new time, if moved",
        }
        assert agent["dispositions"] == ["confirmed", "rescheduled", "no answer"]
        agent_id = agent["id"]

        read = (await client.api("GET", f"agents/{agent_id}")).json()["data"]
        assert read == agent

        listed = (await client.api("GET", "agents")).json()
        assert listed["pagination"] == {
            "current_page": 1,
            "last_page": 1,
            "per_page": 20,
            "total": 1,
        }
        assert [(a["id"], a["name"], a["voice"]) for a in listed["data"]] == [
            (agent_id, "Dental reminder", "joe")
        ]
        assert listed["data"][0]["variables"] == ["name", "day"]

        minimal = {"name": "Plain", "prompt": "Say hello and ask how they are doing."}
        updated = await client.api("PUT", f"agents/{agent_id}", json=minimal)
        assert updated.status_code == 200, updated.text
        data = updated.json()["data"]
        assert data["name"] == "Plain"
        assert data["variables"] == []
        assert data["first_sentence"] is None
        assert data["dispositions"] == []
        assert data["analysis_schema"] == []
        assert (data["temperature"], data["max_duration"], data["voicemail_action"]) == (
            0.7,
            30,
            "leave_message",
        )
        assert data["voice"], "the default voice when none is given"
        assert data["updated_at"] >= agent["updated_at"]

        deleted = await client.api("DELETE", f"agents/{agent_id}")
        assert deleted.json() == {"success": True, "message": "Agent deleted successfully"}
        assert (await client.api("GET", f"agents/{agent_id}")).status_code == 404
        assert (await client.api("GET", "agents")).json()["data"] == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "   ", "The name field is required."),
        ("name", "x" * 121, None),
        ("prompt", "  too short ", "The prompt must be at least 10 characters long"),
        ("prompt", "x" * 20_001, None),
        ("first_sentence", "x" * 1001, None),
        ("voice", "nobody", "The selected voice is not available."),
        ("temperature", 1.1, None),
        ("interruption_threshold", 40, None),
        ("background_audio", "stadium", None),
        ("max_duration", 121, None),
        ("voicemail_action", "sing", None),
        ("voicemail_message", "x" * 1001, None),
        ("summary_prompt", "x" * 2001, None),
        ("dispositions", ["ok", "OK"], 'The disposition "OK" is listed twice.'),
        ("dispositions", ["ok", "  "], "Each disposition must be 1 to 64 characters long."),
        ("dispositions", [f"d{i}" for i in range(31)], None),
        (
            "webhook_url",
            "ftp://example.com/x",
            "The webhook URL must be a valid http or https URL.",
        ),
        ("webhook_url", "https://", "The webhook URL must be a valid http or https URL."),
        ("disclosure", "This is Acme Dental calling.", NOT_AI),
        ("disclosure", "I'm an AI. " + "x" * 300, None),
    ],
)
async def test_agent_validation_messages(
    app: FastAPI, field: str, value: Any, message: str | None
) -> None:
    client, _user = await signed_in(app, "v@example.com")
    async with client:
        response = await client.api("POST", "agents", json=agent_body(**{field: value}))
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert field in errors, errors
    if message:
        assert errors[field] == [message]


@pytest.mark.parametrize(
    ("fields", "key", "message"),
    [
        (
            [{"name": "9lives", "type": "string"}],
            "analysis_schema.0.name",
            "A field name starts with a letter or underscore and has only letters, digits "
            "and underscores (at most 64).",
        ),
        ([{"name": "when", "type": "datetime"}], "analysis_schema.0.type", None),
        (
            [{"name": "a", "type": "string"}, {"name": "a", "type": "number"}],
            "analysis_schema",
            'The field "a" is listed twice.',
        ),
        ([{"name": "a", "description": "x" * 501}], "analysis_schema.0.description", None),
    ],
)
async def test_extraction_fields_are_checked(
    app: FastAPI, fields: list[dict[str, Any]], key: str, message: str | None
) -> None:
    client, _user = await signed_in(app, "v@example.com")
    async with client:
        response = await client.api("POST", "agents", json=agent_body(analysis_schema=fields))
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert key in errors, errors
    if message:
        assert errors[key] == [message]


async def test_another_users_agent_is_404(app: FastAPI) -> None:
    owner, _owner = await signed_in(app, "owner@example.com")
    intruder, intruder_user = await signed_in(app, "intruder@example.com", balance_cents=10_000)
    async with owner, intruder:
        agent_id = (await owner.api("POST", "agents", json=agent_body())).json()["data"]["id"]
        for method, body in (("GET", None), ("PUT", agent_body()), ("DELETE", None)):
            response = await intruder.api(method, f"agents/{agent_id}", json=body)
            assert response.status_code == 404, (method, response.text)
            assert response.json()["message"] == "Agent not found."
        assert (await intruder.api("GET", "agents")).json()["data"] == []
        send = await send_call(
            intruder,
            from_agent(
                intruder_user.id,
                agent_id,
                variables={"name": "Ann", "day": "Friday"},
            ),
        )
        assert send.status_code == 404
        assert send.json()["message"] == "Agent not found."
        # The owner's agent is untouched.
        assert (await owner.api("GET", f"agents/{agent_id}")).json()["data"]["name"] == (
            "Dental reminder"
        )


async def test_a_user_keeps_at_most_the_cap(app: FastAPI) -> None:
    client, user = await signed_in(app, "many@example.com")
    async with app.state.db.sessionmaker() as session:
        session.add_all(
            Agent(user_id=user.id, name=f"a{i}", prompt=PROMPT, voice="joe")
            for i in range(AGENTS_MAX)
        )
        await session.commit()
    async with client:
        response = await client.api("POST", "agents", json=agent_body())
        assert response.status_code == 422
        assert response.json()["message"] == (
            "You can keep at most 100 agents. Delete one you no longer use to add another."
        )
        page = (await client.api("GET", "agents?per_page=100&page=1")).json()
        assert page["pagination"]["total"] == AGENTS_MAX


async def create_agent(client: ApiClient, **overrides: Any) -> dict[str, Any]:
    response = await client.api("POST", "agents", json=agent_body(**overrides))
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def send_call(client: ApiClient, body: dict[str, Any]) -> httpx.Response:
    return await client.api("POST", "send-call", json=body)


async def _call(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
        assert call is not None
        return call


async def test_send_call_from_an_agent_fills_variables_and_takes_overrides(app: FastAPI) -> None:
    client, user = await signed_in(app, "s@example.com", balance_cents=10_000)
    async with client:
        agent = await create_agent(client)
        response = await send_call(
            client,
            from_agent(
                user.id,
                agent["id"],
                variables={"name": "Ann", "day": " Friday "},
                temperature=0.9,  # the form's value wins
                voicemail_action="hangup",
            ),
        )
        assert response.status_code == 200, response.text
        assert response.json()["balance"] == 100 - 5 * 0.49  # the agent's 5 minutes held
    call = await _call(app, response.json()["callId"])
    assert call.agent_id == agent["id"]
    assert call.variables == {"name": "Ann", "day": "Friday"}
    assert call.prompt == "You are Sam from Acme Dental. Confirm Ann's cleaning on Friday at 3 pm."
    assert call.first_sentence == "Hi Ann, this is Sam from Acme Dental."
    assert call.voicemail_message == "Hi Ann, please call Acme Dental back."
    assert call.disclosure == "I'm Acme Dental's AI assistant, Ann."
    assert call.voicemail_action == "hangup"
    assert call.temperature == 0.9
    # Not sent: the agent's.
    assert (call.voice, call.interruption_threshold, call.background_audio) == (
        "joe",
        150,
        "office",
    )
    assert (call.max_duration, call.wait_for_greeting) == (5, True)
    assert call.summary_prompt == "Summarise whether the appointment was confirmed."
    assert call.dispositions == ["confirmed", "rescheduled", "no answer"]
    assert call.analysis_schema is not None
    assert [f["name"] for f in call.analysis_schema] == ["new_time", "confirmed"]
    assert call.webhook_url == "https://hooks.example.com/acme?x=1"


async def test_the_forms_prompt_and_texts_override_the_agents(app: FastAPI) -> None:
    client, user = await signed_in(app, "o@example.com", balance_cents=10_000)
    async with client:
        agent = await create_agent(client)
        response = await send_call(
            client,
            from_agent(
                user.id,
                agent["id"],
                prompt="Call {{name}} about the invoice, politely.",
                first_sentence="",  # none for this call
                max_duration=2,
                voice="",  # empty: not an override
                variables={"name": "Bo"},
            ),
        )
        assert response.status_code == 200, response.text
    call = await _call(app, response.json()["callId"])
    assert call.prompt == "Call Bo about the invoice, politely."
    assert call.first_sentence is None
    assert call.voicemail_message == "Hi Bo, please call Acme Dental back."
    assert (call.max_duration, call.voice) == (2, "joe")


async def test_a_missing_variable_is_a_clear_error_and_holds_nothing(app: FastAPI) -> None:
    client, user = await signed_in(app, "m@example.com", balance_cents=10_000)
    async with client:
        agent = await create_agent(client)
        for variables, names in (
            (None, "{{name}}, {{day}}"),
            ({"name": "Ann"}, "{{day}}"),
            ({"name": "Ann", "day": "  "}, "{{day}}"),
        ):
            response = await send_call(
                client,
                from_agent(
                    user.id,
                    agent["id"],
                    variables=variables,
                ),
            )
            assert response.status_code == 422, response.text
            assert response.json()["errors"]["variables"] == [
                f"No value was given for {names}: add it to the call's variables."
            ]
        # Without an agent, the form's own prompt is checked too.
        plain = await client.api(
            "POST",
            "send-call",
            json={"userId": user.id, "phone": "+15005550001", "prompt": "Ask {{who}} to call."},
        )
        assert plain.status_code == 422
        assert plain.json()["errors"]["variables"] == [
            "No value was given for {{who}}: add it to the call's variables."
        ]
        no_prompt = await client.api(
            "POST", "send-call", json={"userId": user.id, "phone": "+15005550001"}
        )
        assert no_prompt.status_code == 422
        assert no_prompt.json()["errors"] == {"prompt": ["The prompt field is required."]}
        user_balance = (await client.api("GET", f"user/{user.id}/stats")).json()["data"]
        assert user_balance["balance"] == 100


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({f"v{i}": "x" for i in range(51)}, "At most 50 variables may be given."),
        ({"name": "x" * 1001}, "The value of name must be 1000 characters or less."),
        ({"bad name": "x"}, '"bad name" is not a valid variable name.'),
    ],
)
async def test_send_call_variables_are_bounded(
    app: FastAPI, variables: dict[str, str], message: str
) -> None:
    client, user = await signed_in(app, "b@example.com", balance_cents=10_000)
    async with client:
        response = await client.api(
            "POST",
            "send-call",
            json={
                "userId": user.id,
                "phone": "+15005550001",
                "prompt": "Say hello and ask how they are doing.",
                "variables": variables,
            },
        )
    assert response.status_code == 422
    assert response.json()["errors"]["variables"] == [message]


async def test_deleting_an_agent_keeps_its_calls(app: FastAPI) -> None:
    client, user = await signed_in(app, "d@example.com", balance_cents=10_000)
    async with client:
        agent = await create_agent(client)
        sent = await send_call(
            client,
            from_agent(
                user.id,
                agent["id"],
                variables={"name": "Ann", "day": "Friday"},
            ),
        )
        assert sent.status_code == 200, sent.text
        await app.state.jobs.drain()
        assert (await client.api("DELETE", f"agents/{agent['id']}")).status_code == 200
    call = await _call(app, sent.json()["callId"])
    assert call.agent_id is None
    assert call.prompt.startswith("You are Sam from Acme Dental. Confirm Ann's")
    assert call.variables == {"name": "Ann", "day": "Friday"}
