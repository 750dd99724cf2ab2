"""One way to build a call (`calls.builder`): the agent's settings under the request's, the
`{{variables}}` filled, the checks every order gets, and the kind that says where a call came
from, which the call page and the admin's call logs show."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from callwright.calls.builder import CallRequest, OrderRefused, order_from
from callwright.models import Agent
from callwright.speech import tts
from tests.factories import add_api_key, add_user, signed_in

PROMPT = "You are Sam from Acme Dental, calling {{name}} about tomorrow's cleaning."


def _agent(**fields: object) -> Agent:
    values: dict[str, object] = {
        "id": "agent-1",
        "user_id": 1,
        "name": "Reminder",
        "prompt": PROMPT,
        "voice": "joe",
        "language": "en-US",
        "first_sentence": "Hi {{name}}!",
        "max_duration": 5,
        "voicemail_action": "leave_message",
    }
    return Agent(**(values | fields))


def _request(**fields: object) -> CallRequest:
    values: dict[str, object] = {"kind": "dashboard", "to_number": "+15551230000", "user_id": 1}
    return CallRequest(**(values | fields))  # type: ignore[arg-type]


def test_the_request_goes_over_the_agent_and_fills_its_variables() -> None:
    order = order_from(
        _request(settings={"max_duration": 2, "first_sentence": ""}, variables={"name": "Ann"}),
        _agent(),
    )
    assert order.prompt == "You are Sam from Acme Dental, calling Ann about tomorrow's cleaning."
    assert (order.max_duration, order.first_sentence) == (2, None), "empty text: none"
    assert (order.kind, order.agent_id, order.voice, order.language) == (
        "dashboard",
        "agent-1",
        "joe",
        "en-US",
    )
    assert order.variables == {"name": "Ann"}
    plain = order_from(_request(settings={"prompt": "Say hello to the caller, politely."}))
    assert (plain.variables, plain.agent_id, plain.voice) == (None, None, tts.default_voice().name)


@pytest.mark.parametrize(
    ("settings", "variables", "field", "problem"),
    [
        ({}, {}, "prompt", "missing"),
        ({"prompt": "  Hi there  "}, {}, "prompt", "too-short"),
        ({"prompt": PROMPT}, {}, "variables", "missing"),
        ({"prompt": PROMPT, "voice": "nobody"}, {"name": "Ann"}, "voice", "unavailable"),
        ({"prompt": PROMPT, "language": "xx-YY"}, {"name": "Ann"}, "language", "not-offered"),
        (
            {"prompt": PROMPT, "disclosure": "This is {{who}} calling."},
            {"name": "Ann", "who": "Sam"},
            "disclosure",
            "not-ai",
        ),
    ],
)
def test_every_order_is_checked(
    settings: dict[str, object], variables: dict[str, str], field: str, problem: str
) -> None:
    with pytest.raises(OrderRefused) as refused:
        order_from(_request(settings=settings, variables=variables))
    assert (refused.value.field, refused.value.problem) == (field, problem)
    assert refused.value.status_code == 422
    assert list(refused.value.errors or {}) == [field]


def test_a_campaigns_saved_settings_give_way_instead_of_failing() -> None:
    """Checked when the campaign was saved: a voice gone since then becomes the default."""
    settings = {"prompt": PROMPT, "voice": "nobody", "language": "xx-YY"}
    order = order_from(
        _request(kind="campaign", settings=settings, variables={"name": "Ann"}, campaign_id="c1")
    )
    assert (order.kind, order.voice, order.language, order.campaign_id) == (
        "campaign",
        tts.default_voice().name,
        "en-US",
        "c1",
    )
    agents_voice = order_from(_request(variables={"name": "Ann"}), _agent(voice="nobody"))
    assert agents_voice.voice == tts.default_voice().name


@pytest.mark.asyncio
async def test_the_call_page_and_the_admins_logs_say_where_a_call_came_from(
    app: FastAPI,
) -> None:
    client, user = await signed_in(app, "kinds@example.com", balance_cents=10_000)
    admin, _admin = await signed_in(app, "kinds-admin@example.com", role="admin")
    key = await add_api_key(app, await add_user(app, email="api@example.com", balance_cents=10_000))
    prompt = "You are Sam from Acme Dental, confirming tomorrow's cleaning."
    async with client, admin:
        sent = await client.api(
            "POST", "send-call", json={"userId": user.id, "phone": "+15551230000", "prompt": prompt}
        )
        assert sent.status_code == 200, sent.text
        page = (await client.api("GET", f"call/{sent.json()['callId']}/page")).json()["data"]
        assert page["kind"] == "dashboard"
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://testserver",
            headers={"authorization": key},
        ) as v1:
            placed = await v1.post(
                "/v1/calls", json={"phone_number": "+15551230001", "task": prompt}
            )
        assert placed.status_code == 200, placed.text
        api_call = placed.json()["call_id"]
        assert (await admin.api("GET", f"admin/calls/{api_call}")).json()["data"]["kind"] == "api"
        logs = (await admin.api("GET", "admin/calls")).json()["calls"]
    assert {c["call_id"]: c["kind"] for c in logs} == {
        sent.json()["callId"]: "dashboard",
        api_call: "api",
    }


def test_the_free_test_calls_prompt_follows_the_admins_rule_not_the_users() -> None:
    """The spec lets the admin save any prompt of 1 to 1000 characters for the landing page's
    free test call; the user's ten-character minimum must not refuse it there."""
    short = "Say hi."
    assert (
        order_from(_request(kind="test", user_id=None, settings={"prompt": short})).prompt == short
    )
    with pytest.raises(OrderRefused) as refused:
        order_from(_request(settings={"prompt": short}))
    assert (refused.value.field, refused.value.problem) == ("prompt", "too-short")
    with pytest.raises(OrderRefused):
        order_from(_request(kind="test", user_id=None, settings={"prompt": "  "}))


async def test_the_voice_agents_plan_carries_the_callees_own_date(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 03:30 UTC it is still the evening before in San Francisco: a flow's "tomorrow" there
    is counted from that day (compliance.calling_hours.callee_today, at several hours)."""
    from datetime import UTC, date, datetime

    from callwright.calls import media_hooks
    from tests.live import place_call

    user = await add_user(app, email="dates@example.com", balance_cents=5_000)
    call_id = await place_call(app, "+14155550100", user_id=user.id)
    evening = datetime(2026, 11, 27, 3, 30, tzinfo=UTC)
    monkeypatch.setattr(media_hooks, "utcnow", lambda: evening)
    plan = await app.state.calls.media.plan(call_id)
    assert plan is not None
    assert plan.today == date(2026, 11, 26)
