"""Whole sandbox calls on a conversation flow (docs/flows.md): the appointment confirmation
(tests/voice_agent/flows/appointment.json) over the sandbox's callees, with the offline brain
and with the scripted OpenAI-compatible model. Each call takes the path its callee asks for,
as its `pathway_logs` show, with the variables captured; each step went out live as a node
change, and the disclosure and the opt-out hold as in a prompt's call."""

from __future__ import annotations

import asyncio
import re
from datetime import date
from typing import Any

import pytest

from callwright import roles
from callwright.calls import repository as calls
from callwright.calls.media_hooks import OPTED_OUT
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call
from callwright.voice_agent.policy import OPT_OUT_REPLY
from tests.calls.fake_openai import FakeOpenAI, scripted_brain
from tests.factories import add_user, wipe
from tests.live import TEST_SPEED, Live
from tests.voice_agent.flow_fixtures import flow_json

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONFIRMS = "+15005550050"
RESCHEDULES = "+15005550051"
WRONG_PERSON = "+15551230001"
WANTS_A_PERSON = "+15005550010"
FRONT_DESK = "+15005550011"
VOICEMAIL = "+15005550004"
OPTS_OUT = "+15005550008"
GREETING = "Hi, this is Sarah from Bright Dental."
DISCLOSURE = "I'm an AI assistant, and this call is recorded."


def flow_order(to: str, **overrides: Any) -> dict[str, Any]:
    """A call's order on the appointment flow, pinned as the builder pins a published one."""
    return {
        "kind": "dashboard",
        "to_number": to,
        "from_number": "+18885550100",
        "prompt": "Follow the conversation flow appt-flow (version 3).",
        "voice": "joe",
        "max_duration": 2,
        "flow_id": "appt-flow",
        "flow_version": 3,
        "flow_graph": flow_json("appointment"),
        "variables": {"appointment_time": "tomorrow at 3 pm"},
    } | overrides


def steps_of(call: Call) -> list[tuple[str, str | None]]:
    return [(s["node_id"], s["edge_id"]) for s in call.pathway_logs or []]


def told(call: Call) -> str:
    """How the call ended and its steps, one a line (what a failing assertion shows)."""
    steps = [str(step) for step in call.pathway_logs or []]
    return "\n".join([f"{call.status}: {call.end_reason} after {call.duration_seconds} s", *steps])


async def transcript(app: Any, call_id: str) -> list[tuple[str, str]]:
    async for session in app.state.db.session():
        return [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    return []


def is_friday_at_two(value: str) -> bool:
    match = re.fullmatch(r"(\d{4}-\d{2}-\d{2})T14:00", value)
    return match is not None and date.fromisoformat(match.group(1)).weekday() == 4


async def _confirms(app: Any, call: Call) -> None:
    assert steps_of(call) == [
        ("greet", "e_greet"),
        ("confirm", "e_confirm"),
        ("confirmed", "e_confirmed"),
        ("bye", None),
    ], told(call)
    assert call.end_reason == "completed"
    said = [t for s, t in await transcript(app, call.id) if s == "assistant"]
    # The disclosure follows the flow's first line (a busy machine's speech may pause, and
    # the callee answer in the pause: then it is said with the next reply).
    assert said[0].startswith("Hi"), said
    assert DISCLOSURE in " ".join(said), "said in full, again if cut"
    assert said[-1].endswith("Thank you, and have a great day. Goodbye."), said


async def _reschedules(app: Any, call: Call) -> None:
    assert steps_of(call) == [
        ("greet", "e_greet"),
        ("confirm", "e_reschedule"),
        ("new_time", "e_time"),
        ("got_time", "e_has_time"),
        ("rescheduled", "e_rescheduled"),
        ("bye", None),
    ], told(call)
    logs = call.pathway_logs or []
    assert is_friday_at_two(logs[2]["captured"]["new_time"]), told(call)
    assert logs[3]["reason"] == "condition new_time is set"
    assert all(isinstance(s["at"], float) for s in logs), "steps are timed into the call"


async def _wrong_person(app: Any, call: Call) -> None:
    assert steps_of(call) == [
        ("greet", "e_greet"),
        ("confirm", None),
        ("confirm", "e_wrong"),
        ("wrong", None),
    ], told(call)
    assert (call.pathway_logs or [])[1]["reason"] == "no answer fit: try 1 of 2"


async def _wants_a_person(app: Any, call: Call) -> None:
    assert steps_of(call) == [
        ("greet", "e_greet"),
        ("g_person", "e_person"),
        ("front_desk", None),
    ], told(call)
    assert call.transferred_to == FRONT_DESK
    assert call.transfer_status == "completed"


async def _voicemail(app: Any, call: Call) -> None:
    assert steps_of(call) == [("greet", "e_greet"), ("voicemail", None)], told(call)
    assert (call.pathway_logs or [])[1]["reason"] == "voicemail greeting heard"
    assert call.answered_by == "voicemail"
    said = [t for s, t in await transcript(app, call.id) if s == "assistant"]
    assert said[-1].endswith("Please call us back to confirm. Goodbye."), said


async def _opts_out(app: Any, call: Call) -> None:
    assert steps_of(call) == [("greet", "e_greet"), ("g_opt_out", None)], told(call)
    said = [t for s, t in await transcript(app, call.id) if s == "assistant"]
    # The acknowledgement (a busy machine's pause in it may bring the callee's "Bye." over its
    # end: then a short goodbye closes again).
    assert any(OPT_OUT_REPLY.startswith(line) for line in said[1:]), said
    async for session in app.state.db.session():
        events = [e.message for e in await calls.events(session, call.id)]
    assert OPTED_OUT in events, "the number is on the do-not-call list"


PATHS = {
    CONFIRMS: _confirms,
    RESCHEDULES: _reschedules,
    WRONG_PERSON: _wrong_person,
    WANTS_A_PERSON: _wants_a_person,
    VOICEMAIL: _voicemail,
    OPTS_OUT: _opts_out,
}


@pytest.mark.parametrize("to", list(PATHS))
async def test_the_offline_brain_takes_each_callees_path(live: Live, to: str) -> None:
    # A user's call: an opt-out lists the number on the user's list, not on everyone's.
    user = await add_user(live.app, email=f"flows-{to[1:]}@example.com", balance_cents=10_000)
    extra = {"transfer_number": FRONT_DESK} if to == WANTS_A_PERSON else {}
    call_id = await live.place(to, **(flow_order(to, user_id=user.id) | extra))
    call = await live.wait_finalized(call_id)
    await PATHS[to](live.app, call)
    live_steps = [e["step"]["node_id"] for e in live.events_for(call.id) if e["category"] == "flow"]
    assert live_steps == [n for n, _ in steps_of(call)], "each node change went live"


@pytest.mark.conversation  # its own app's calls: the SQLite pass runs it once
async def test_the_scripted_model_chooses_the_edges(migrated: Settings) -> None:
    """The same six callees with the LLM brain: the model picks the ask's answers (scripted
    here); the globals (a person, an opt-out) and the voicemail greeting are the runner's, asked
    of no model, and each call takes the same path as offline."""
    model = FakeOpenAI()
    llm_port, app_port = free_port(), free_port()
    settings = scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=TEST_SPEED)
    app = create_app(settings)
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    scripts: dict[str, list[dict[str, Any]]] = {
        CONFIRMS: [{"edge": "Confirm"}],
        RESCHEDULES: [
            {"edge": "Reschedule"},
            {"edge": "A day and time", "captures": {"new_time": "2026-12-11T14:00"}},
        ],
        WRONG_PERSON: [{"edge": "none"}, {"edge": "Wrong person"}],
        WANTS_A_PERSON: [],
        VOICEMAIL: [],
        OPTS_OUT: [],
    }
    found: dict[str, Call] = {}
    asked: dict[str, list[dict[str, Any]]] = {}
    async with serving(model.app(), llm_port), serving(app.state.realtime.wrap(app), app_port):
        # From an empty database, as every test (the live app's calls share this one).
        await wipe(app.state.db)
        user = await add_user(app, email="flows-scripted@example.com", balance_cents=100_000)
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        for to, choices in scripts.items():
            model.flow_choices = list(choices)
            before = len(model.requests)
            extra = {"transfer_number": FRONT_DESK} if to == WANTS_A_PERSON else {}
            async for session in app.state.db.session():
                order = CallOrder(**(flow_order(to, user_id=user.id) | extra))
                call_id = (await app.state.calls.service.place(session, order)).id
            found[to] = await app.state.calls.flows.wait_finalized(call_id, within=120, poll=0.2)
            asked[to] = [r for r in model.requests[before:] if r.get("tools")]
            assert model.flow_choices == [], f"{to}: every choice was asked for"
        for to, check in PATHS.items():
            if to != RESCHEDULES:  # its time is the model's, checked below
                await check(app, found[to])
    confirm = (found[CONFIRMS].pathway_logs or [])[1]
    assert confirm["reason"] == "answer 'Confirm' chosen by the model"
    rescheduled = found[RESCHEDULES].pathway_logs or []
    assert [s["node_id"] for s in rescheduled] == [
        "greet", "confirm", "new_time", "got_time", "rescheduled", "bye"
    ]  # fmt: skip
    assert rescheduled[2]["captured"] == {"new_time": "2026-12-11T14:00"}, "the model's value"
    for to in (WANTS_A_PERSON, VOICEMAIL, OPTS_OUT):
        assert asked[to] == [], f"{to}: a global or the voicemail greeting asks no model"
    assert asked[CONFIRMS][0]["messages"][1]["role"] == "user"
    assert "Confirm the time" in asked[CONFIRMS][0]["messages"][0]["content"]
