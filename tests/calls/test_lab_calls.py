"""The agent lab's calls (issue 32, docs/lab.md): a call of kind "lab" rings a callee written as
data on the sandbox network, through the real pipeline; it is nobody's bill, in nobody's Call
Logs, and placed only where its callee can only be simulated."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.analysis import Analysis
from callwright.calls import repository as calls
from callwright.calls.builder import CallRequest, build_order
from callwright.calls.media_hooks import OPTED_OUT_LAB
from callwright.calls.service import CallOrder, CallService
from callwright.kit.errors import ValidationFailed
from callwright.lab.contract import Callee
from callwright.models import Agent, Call, User, WebhookDelivery
from callwright.models.compliance import DoNotCall
from tests.factories import add_user, finished_call, signed_in
from tests.live import PROMPT, Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Lines no sandbox persona says, so the transcript shows whose they are.
CALLEE = Callee(
    kind="person",
    label="a gardener who declines",
    hello="Hello, garden center speaking?",
    lines=[
        "Hello, this is the garden center. Who is calling?",
        "No thanks, I am not interested, my tomatoes need me.",
        "Goodbye.",
    ],
    voice="ryan",
)


def _order(**overrides: Any) -> CallOrder:
    values: dict[str, Any] = {
        "kind": "lab",
        "to_number": "+15551230000",
        "from_number": "+18885550100",
        "prompt": PROMPT,
        "voice": "joe",
        "max_duration": 2,
        "lab_callee": CALLEE.model_dump(mode="json"),
    } | overrides
    return CallOrder(**values)


async def _refusal(app: FastAPI, order: CallOrder, service: CallService | None = None) -> Any:
    """What placing `order` is refused with (its errors by field); nothing is stored."""
    async with app.state.db.sessionmaker() as session:
        before = await session.scalar(select(Call.id).where(Call.kind == "lab"))
        with pytest.raises(ValidationFailed) as refused:
            await (service or app.state.calls.service).place(session, order)
        await session.rollback()
        assert await session.scalar(select(Call.id).where(Call.kind == "lab")) == before
    return refused.value.errors


async def test_a_lab_order_is_refused_where_its_callee_could_be_a_person(app: FastAPI) -> None:
    # A number outside the sandbox's own plan (a real, valid one).
    errors = await _refusal(app, _order(to_number="+12025550143"))
    assert list(errors) == ["phone_number"]
    assert "+12025550143 is not one of them" in errors["phone_number"][0]
    # An install whose carrier is a real network (its number policy has no test numbers).
    ours: CallService = app.state.calls.service
    twilio = CallService(ours.settings, ours.billing, "twilio", ours.jobs, ours.life)
    errors = await _refusal(app, _order(), twilio)
    assert list(errors) == ["kind"]
    assert "needs the sandbox carrier" in errors["kind"][0]
    # No callee; a user to bill; a callee on a call that is not the lab's.
    assert list(await _refusal(app, _order(lab_callee=None))) == ["lab_callee"]
    user = await add_user(app, email="lab-refused@example.com", balance_cents=10_000)
    assert list(await _refusal(app, _order(user_id=user.id))) == ["user_id"]
    errors = await _refusal(app, _order(kind="dashboard", user_id=user.id))
    assert errors == {"lab_callee": ["Only a lab call has a simulated callee."]}


async def test_a_lab_order_tries_the_users_agent_and_bills_nobody(app: FastAPI) -> None:
    user = await add_user(app, email="lab-order@example.com")
    async with app.state.db.sessionmaker() as session:
        agent = Agent(
            user_id=user.id,
            name="Reminders",
            prompt=PROMPT,
            voice="joe",
            webhook_url="https://hooks.example.invalid/calls",
            summary_prompt="Say whether they keep the appointment.",
        )
        session.add(agent)
        await session.commit()
        request = CallRequest(
            kind="lab",
            to_number="+15551230000",
            user_id=user.id,
            agent_id=agent.id,
            lab_callee=CALLEE.model_dump(mode="json"),
        )
        order = await build_order(session, request)
    assert (order.kind, order.user_id, order.agent_id) == ("lab", None, agent.id)
    assert order.lab_callee == CALLEE.model_dump(mode="json")
    assert order.summary_prompt == "Say whether they keep the appointment.", "the agent's own"
    assert order.webhook_url is None, "told to nobody's endpoints"


async def test_a_finished_lab_call_is_analysed_and_reported_to_nobody(app: FastAPI) -> None:
    talk = [
        ("assistant", "Hi, this is Sam from Acme Tours. How many people will join the tour?"),
        ("user", "Four of us. Yes, we'd love to come."),
    ]
    call_id = await finished_call(
        app,
        None,
        talk,
        kind="lab",
        lab_callee=CALLEE.model_dump(mode="json"),
        dispositions=["INTERESTED", "NOT_INTERESTED"],
        analysis_schema=[{"name": "party_size", "type": "number", "description": "people"}],
    )
    await app.state.calls.flows.finalize(call_id)
    await app.state.jobs.drain()
    async with app.state.db.sessionmaker() as session:
        call = await session.get(Call, call_id)
        deliveries = (
            await session.scalars(select(WebhookDelivery).where(WebhookDelivery.call_id == call_id))
        ).all()
    assert call is not None
    assert call.analysis, "the lab reads its analysis fields"
    analysis = Analysis.from_json(call.analysis)
    assert (analysis.disposition_tag, analysis.values()) == ("INTERESTED", {"party_size": 4})
    assert deliveries == []
    assert (call.hold_cents, call.cost_cents) == (0, None)


async def _balance(live: Live, user: User) -> int:
    async with live.app.state.db.sessionmaker() as session:
        found: User | None = await session.get(User, user.id)
        assert found is not None
        return found.balance_cents


async def _analysis(live: Live, call_id: str, within: float = 15) -> dict[str, Any] | None:
    """The call's analysis once stored (a job after the call's end)."""
    for _ in range(int(within / 0.2)):
        async with live.app.state.db.sessionmaker() as session:
            call = await session.get(Call, call_id)
            if call is not None and call.analysis:
                return dict(json.loads(call.analysis))
        await asyncio.sleep(0.2)
    return None


async def test_a_lab_call_plays_its_callee_through_the_real_pipeline(live: Live) -> None:
    client, user = await signed_in(live.app, "lab-live@example.com", balance_cents=10_000)
    async with live.app.state.db.sessionmaker() as session:
        agent = Agent(user_id=user.id, name="Reminders", prompt=PROMPT, voice="joe")
        session.add(agent)
        await session.commit()
    request = CallRequest(
        kind="lab",
        to_number="+15551230003",  # alone, the "interested" person answers
        user_id=user.id,
        agent_id=agent.id,
        lab_callee=CALLEE.model_dump(mode="json"),
    )
    async for session in live.app.state.db.session():  # dialled once it commits
        call = await live.app.state.calls.service.place(
            session, await build_order(session, request)
        )
        call_id = call.id
    call = await live.wait_finalized(call_id)
    assert (call.kind, call.user_id) == ("lab", None)
    assert (call.status, call.end_reason, call.answered_by) == ("completed", "completed", "human")

    async for session in live.app.state.db.session():
        lines = [(e.speaker, e.text.lower()) for e in await calls.transcript(session, call_id)]
    heard = " ".join(text for speaker, text in lines if speaker == "user")
    # Its hello or its first line (the agent may close before its last): the callee's words,
    # not those of the person the number picks alone ("Tell me more.").
    assert "garden center" in heard, lines
    assert "tell me more" not in heard, lines
    sandbox = await live.sandbox_call(call)
    assert sandbox.callee is not None
    assert sandbox.callee.voice.name == "ryan", "the callee's own voice, not the default kal"
    assert sandbox.persona.label == "a gardener who declines"
    assert sandbox.report is not None
    assert sandbox.report.hung_up_by == "agent"

    assert await _analysis(live, call_id), "analysed: the lab reads its fields"
    assert await _balance(live, user) == 10_000, "nobody is charged"
    async with client:
        listed = (await client.api("GET", f"user/{user.id}/calls")).json()
    assert call_id not in str(listed), "not in the user's Call Logs"
    assert live.events_for(call_id, room=f"user:{user.id}") == []


async def test_a_lab_callee_who_opts_out_lists_no_number(live: Live) -> None:
    opts_out = Callee(
        kind="opts-out",
        lines=["Please stop calling me and take me off your list.", "Bye."],
    )
    call_id = await live.place(
        "+15551230004",
        kind="lab",
        lab_callee=opts_out.model_dump(mode="json"),
    )
    call = await live.wait_finalized(call_id)
    assert call.end_reason == "completed"
    messages = [e.get("message") for e in live.events_for(call_id)]
    assert OPTED_OUT_LAB in messages
    async with live.app.state.db.sessionmaker() as session:
        listed = await session.scalar(select(DoNotCall).where(DoNotCall.phone == "+15551230004"))
    assert listed is None, "a simulated callee's number binds no list"


async def test_a_callee_the_sandbox_cannot_play_fails_the_call_naming_the_field(
    live: Live,
) -> None:
    """The lab hands the calls a validated `Callee`; one that is not (another caller's) is the
    sandbox's to refuse: the call fails before it rings, its error naming the field."""
    call_id = await live.place(
        "+15551230003", kind="lab", lab_callee={"kind": "person", "voice": "hal-9000"}
    )
    call = await live.wait_finalized(call_id, within=30)
    assert (call.status, call.end_reason, call.answered_at) == ("failed", "failed", None)
    assert call.error is not None
    assert call.error.startswith("CallwrightCallee.voice: no voice is named 'hal-9000'")
