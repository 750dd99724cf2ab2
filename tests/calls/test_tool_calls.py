"""Custom tools in whole sandbox calls with an LLM brain (a local chat-completions server with
scripted replies): the callee asks what only a tool knows (+1 500 555 0030), the model calls
the tool on a loopback HTTP server with the right arguments, the waiting line is spoken at
once, the tool's answer goes back to the model and its reply is spoken. A tool that times out
leaves no more silence than its timeout after the waiting line (measured in the recording),
and a model that never calls end_call still ends the call with its goodbye."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse

from callwright import roles
from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.security import seal
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.models import Call, WebhookDelivery, WebhookEndpoint
from tests.agents.tool_server import ToolServer
from tests.calls.fake_openai import GREETING, FakeOpenAI, scripted_brain
from tests.factories import add_api_key, add_user
from tests.live import decode_mp3

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.conversation]

ASKS_ABOUT_A_TIME = "+15005550030"
ANSWER = "Good news, Tuesday at 3 pm is free. I have noted it for you."
SORRY = "I am sorry, I could not check the calendar just now. We will call you back to confirm."
FAREWELL = "Thank you for your time, goodbye."
TIMEOUT = 1.5
WAITING = "Let me check the calendar."


class ToolScript(FakeOpenAI):
    """Greets; asked about a free time, calls check_calendar for Tuesday; answers from what the
    tool returned (or says it could not check); says goodbye to a goodbye, calling end_call
    only when `end_call`."""

    def __init__(self, *, end_call: bool = True) -> None:
        super().__init__()
        self.end_call = end_call

    async def completions(self, request: Request) -> StreamingResponse | JSONResponse:
        body = await request.json()
        self.requests.append(body)
        model, messages = body["model"], body["messages"]

        def say(
            text: str, *, end_call: bool = False, tool: tuple[str, str] | None = None
        ) -> StreamingResponse:
            stream = self._stream(model, text, end_call=end_call, tool=tool)
            return StreamingResponse(stream, media_type="text/event-stream")

        if messages[-1]["role"] == "tool":
            answered = '"free": true' in messages[-1]["content"]
            return say(ANSWER if answered else SORRY)
        users = [str(m["content"]).lower() for m in messages if m["role"] == "user"]
        if not users:
            return say(GREETING)
        if "bye" in users[-1] or "thank" in users[-1]:
            return say(FAREWELL, end_call=self.end_call)
        if "free" in users[-1] or "tuesday" in users[-1]:
            return say("", tool=("check_calendar", json.dumps({"day": "Tuesday"})))
        return say("Great. How can I help you today?")


@dataclass
class Rig:
    app: FastAPI
    llm: ToolScript
    tools: ToolServer
    tools_url: str
    app_url: str


@pytest.fixture
async def rig(migrated: Settings, request: pytest.FixtureRequest) -> AsyncIterator[Rig]:
    llm = ToolScript(end_call=getattr(request, "param", True))
    server = ToolServer(slow_seconds=20)
    llm_port, app_port, tools_port = free_port(), free_port(), free_port()
    # Real time: the tool's timeout is the wall clock's.
    settings = scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=1.0)
    app = create_app(settings)
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    async with (
        serving(llm.app(), llm_port),
        serving(server.app(), tools_port),
        serving(app.state.realtime.wrap(app), app_port),
    ):
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        yield Rig(app, llm, server, f"http://127.0.0.1:{tools_port}", settings.app_url)


async def _call(rig: Rig, path: str, email: str) -> str:
    """A call to the patient asker with one tool, check_calendar, at `path`."""
    app = rig.app
    user = await add_user(app, email=email, balance_cents=5_000)
    async with app.state.db.sessionmaker() as session:  # the user's endpoint for call.action
        session.add(
            WebhookEndpoint(
                user_id=user.id,
                url="https://hooks.example.com/calls",
                events=["call.action"],
                secret="whsec_x",
            )
        )
        await session.commit()
    tool = {
        "name": "check_calendar",
        "description": "Whether a day has a free time.",
        "parameters": {
            "type": "object",
            "properties": {"day": {"type": "string"}},
            "required": ["day"],
        },
        "method": "POST",
        "url": rig.tools_url + path,
        "headers": {"Authorization": seal(app.state.settings.secret_key, "Bearer tool-key")},
        "body": None,
        "timeout_seconds": TIMEOUT,
        "waiting_line": WAITING,
    }
    async for session in app.state.db.session():
        call = await app.state.calls.service.place(
            session,
            CallOrder(
                kind="dashboard",
                user_id=user.id,
                to_number=ASKS_ABOUT_A_TIME,
                from_number="+18885550100",
                prompt="You are Nova from Acme Dental. You are calling about an appointment.",
                voice="joe",
                temperature=0.3,
                max_duration=2,
                background_audio="none",
                tools=[tool],
            ),
        )
        call_id: str = call.id
    return call_id


async def _record(
    app: FastAPI, call_id: str
) -> tuple[Call, list[str], list[str], list[dict[str, Any]]]:
    row = await app.state.calls.flows.wait_finalized(call_id, within=120)
    assert row is not None
    async for session in app.state.db.session():
        lines = [
            e.text for e in await calls.transcript(session, call_id) if e.speaker == "assistant"
        ]
        events = [e.message for e in await calls.events(session, call_id) if e.category == "action"]
        deliveries = (
            await session.scalars(
                select(WebhookDelivery)
                .where(WebhookDelivery.call_id == call_id, WebhookDelivery.event == "call.action")
                .order_by(WebhookDelivery.created_at)  # PostgreSQL keeps no insertion order
            )
        ).all()
    actions = [json.loads(d.payload)["data"] for d in deliveries]
    return row, lines, events, actions


async def test_a_tool_is_called_mid_call_and_its_answer_spoken(rig: Rig) -> None:
    call_id = await _call(rig, "/calendar", "tool-call@example.com")
    row, lines, events, actions = await _record(rig.app, call_id)

    assert row.status == "completed"
    assert rig.tools.requests, "the tool was called"
    seen = rig.tools.requests[0]
    assert (seen["method"], seen["path"], seen["json"]) == ("POST", "/calendar", {"day": "Tuesday"})
    assert seen["headers"]["authorization"] == "Bearer tool-key"
    spoken = " ".join(lines)
    assert WAITING in spoken, lines
    assert ANSWER in spoken, lines
    # The model had the tool's answer.
    results = [m for r in rig.llm.requests for m in r["messages"] if m["role"] == "tool"]
    assert json.loads(results[0]["content"])["free"] is True
    names = [t["function"]["name"] for t in rig.llm.requests[0]["tools"]]
    assert names[0] == "end_call"
    assert names[-1] == "check_calendar", "the call's tools after the built-ins"

    assert events[0] == "Calling check_calendar"
    assert events[1].startswith("check_calendar answered in ")
    assert events[1].endswith(" ms")
    assert [(a["name"], a["status"]) for a in actions] == [
        ("check_calendar", "started"),
        ("check_calendar", "succeeded"),
    ]
    done = actions[1]
    assert done["arguments"] == {"day": "Tuesday"}
    assert done["result"]["free"] is True
    assert isinstance(done["latency_ms"], int)
    assert 0 <= done["latency_ms"] < 1500
    assert str(done["latency_ms"]) in events[1]


def _speech(track: np.ndarray, rate: int, *, bridge: float = 0.5) -> list[tuple[float, float]]:
    """(start, end) seconds of each stretch of speech on one track: 20 ms frames louder than
    the line's quiet, pauses shorter than `bridge` joined."""
    frame = rate // 50
    frames = track[: len(track) // frame * frame].astype(np.float64).reshape(-1, frame)
    loud = np.sqrt((frames**2).mean(axis=1)) > 300
    spans: list[tuple[float, float]] = []
    for i in np.flatnonzero(loud):
        at = i / 50
        if spans and at - spans[-1][1] <= bridge:
            spans[-1] = (spans[-1][0], at + 0.02)
        else:
            spans.append((at, at + 0.02))
    return spans


@pytest.mark.parametrize("rig", [False], indirect=True)
async def test_a_tool_that_times_out_leaves_no_more_silence_than_its_wait(rig: Rig) -> None:
    """The tool answers after 20 s; its timeout is 1.5 s. The waiting line is said at once, the
    model is told the tool did not answer and says so, and the call goes on; the model never
    calls end_call, and its goodbye ends the call all the same."""
    call_id = await _call(rig, "/slow", "tool-timeout@example.com")
    row, lines, events, actions = await _record(rig.app, call_id)

    assert row.status == "completed", row.error
    assert [(a["name"], a["status"]) for a in actions] == [
        ("check_calendar", "started"),
        ("check_calendar", "timed-out"),
    ]
    assert events[1] == "check_calendar timed out after 1.5 s"
    assert SORRY in " ".join(lines), lines
    assert lines[-1].endswith(FAREWELL), "the goodbye ended the call (no end_call)"
    assert all(
        "end_call" not in json.dumps(m.get("tool_calls", ""))
        for r in rig.llm.requests
        for m in r["messages"]
    )

    # The recording: after the callee's question, the waiting line starts promptly, and the
    # apology follows it within the tool's timeout and a model's turn.
    assert row.recording_path
    mp3 = (rig.app.state.calls.media.recordings / row.recording_path).read_bytes()
    samples, rate = decode_mp3(mp3)
    agent = _speech(samples[:, 0], rate)
    callee = _speech(samples[:, 1], rate, bridge=1.0)
    question = callee[1]  # "Yes, speaking." then "Do you have a free time on Tuesday afternoon?"
    after = [span for span in agent if span[0] >= question[1]]
    waiting = after[0]
    assert waiting[0] - question[1] < 3.0, (question, agent)
    # The agent's speech from the waiting line until the callee speaks again: the waiting line
    # and the apology, with no pause longer than the timeout and a model's turn. (A quick
    # apology follows the waiting line closer than the spans' bridge: one span for both.)
    answer = next((s[0] for s in callee if s[0] > waiting[0]), float("inf"))
    turn = [span for span in after if span[0] < answer]
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(turn)]
    assert max(gaps, default=0.0) <= TIMEOUT + 1.5, (gaps, turn, agent)
    # Both lines were said before the callee spoke again (at 0.2 s a word at least).
    spoken = sum(end - start for start, end in turn)
    assert spoken >= 0.2 * len(f"{WAITING} {SORRY}".split()), ("the callee waited", turn, callee)


async def test_v1_tools_and_dynamic_data_through_the_bland_sdk(rig: Rig) -> None:
    """Bland's own SDK sends `tools` (its CustomTool objects, with the endpoint's fields) and
    `dynamic_data`: the data is fetched when the call is dialled and fills the first sentence
    (a request that fails is an action line, and the call goes on); the model calls the tool."""
    from bland import CustomTool, DynamicData, ResponseData
    from bland.client import BlandAI

    user = await add_user(rig.app, email="sdk-tools@example.com", balance_cents=5_000)
    sdk = BlandAI(api_key=await add_api_key(rig.app, user), base_url=rig.app_url, timeout=30)
    calendar = CustomTool(
        name="check_calendar",
        description="Whether a day has a free time.",
        input_schema={
            "type": "object",
            "properties": {"day": {"type": "string"}},
            "required": ["day"],
        },
        speech=WAITING,
        response_data=[],
        url=rig.tools_url + "/calendar",
        method="post",  # type: ignore[call-arg]
        headers={"Authorization": "Bearer sdk-key"},
        body={"day": "{{input.day}}", "customer": "{{customer_id}}"},
    )
    fetched = DynamicData(
        url=rig.tools_url + "/customers/{{customer_id}}",
        response_data=[
            ResponseData(name="customer_name", data="$.data.name", context="The customer is"),
            ResponseData(name="plan", data="data.plan", context="Their plan: {{plan}}."),
        ],
    )
    broken = DynamicData(url=rig.tools_url + "/broken", response_data=[])
    sent = await asyncio.to_thread(
        sdk.call,
        phone_number=ASKS_ABOUT_A_TIME,
        task="You are Nova from Acme Dental. You are calling about an appointment.",
        first_sentence="Hi {{customer_name}}, this is Nova from Acme Dental.",
        temperature=0.3,
        tools=[calendar],
        interruption_threshold=None,
        max_duration=2,
        request_data={"customer_id": "c-42"},
        dynamic_data=[fetched, broken],
    )
    assert sent.status == "success"
    assert sent.call_id is not None
    row, lines, events, _actions = await _record(rig.app, sent.call_id)

    assert row.status == "completed", row.error
    assert lines[0].startswith("Hi Alex Morgan, this is Nova from Acme Dental."), lines
    assert row.variables == {"customer_id": "c-42", "customer_name": "Alex Morgan", "plan": "Gold"}
    assert row.prompt.endswith("The customer is Alex Morgan\nTheir plan: Gold.")
    assert events[0].startswith(f"Dynamic data from {rig.tools_url}/customers/c-42 in ")
    assert (
        events[1] == f"Dynamic data from {rig.tools_url}/broken failed: the call goes on without it"
    )
    assert "s3cret" not in json.dumps(row.tools)
    calls_to_calendar = [r for r in rig.tools.requests if r["path"] == "/calendar"]
    assert calls_to_calendar[0]["json"] == {"day": "Tuesday", "customer": "c-42"}
    assert calls_to_calendar[0]["headers"]["authorization"] == "Bearer sdk-key"
    assert ANSWER in " ".join(lines)
    assert "check_calendar answered in " in " ".join(events)
