"""Lab callees as data on whole sandbox calls (issue 32, docs/lab.md): a free-text persona whose
lines the install's LLM writes (a local fake of OpenAI's protocol), heard in the call's
transcript; a phone menu written as data that the agent's keys get through to a person, judged
from the call's own record."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse

from callwright import roles
from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.lab.contract import Callee
from callwright.lab.evaluate import judge
from callwright.lab.record import call_record
from callwright.lab.starter import phone_menu_scenario
from callwright.main import create_app
from callwright.sandbox.persona_llm import RULES
from tests.calls.fake_openai import FakeOpenAI, scripted_brain
from tests.live import PROMPT, Live

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.conversation]

NURSE = Callee(
    persona="A busy nurse who wants to move her appointment to Friday afternoon.",
    lines=["This line is said only when the LLM fails."],
)
#: The agent's line until the callee names Friday.
AGAIN = "Sorry, could you say that again?"
#: The persona's line, as the fake LLM writes it.
WRITTEN = "I'm a nurse on a break, can we move my appointment to Friday afternoon?"


def _lab_order(callee: Callee, **overrides: Any) -> CallOrder:
    values: dict[str, Any] = {
        "kind": "lab",
        "to_number": "+15005550199",
        "from_number": "+18885550100",
        "prompt": PROMPT,
        "voice": "joe",
        "max_duration": 2,
        "lab_callee": callee.model_dump(mode="json"),
    } | overrides
    return CallOrder(**values)


class PatientAgent(FakeOpenAI):
    """The agent's brain: its greeting, then "say again" until the callee names Friday (a
    callee's hello before the greeting would otherwise end the call); the callee's lines as
    FakeOpenAI writes them."""

    async def completions(self, request: Request) -> StreamingResponse | JSONResponse:
        body = await request.json()
        if str(body["messages"][0].get("content", "")).startswith(RULES):
            self.requests.append(body)
            return self._callee(body)
        users = [str(m["content"]).lower() for m in body["messages"] if m.get("role") == "user"]
        if not users or "friday" in users[-1]:
            return await super().completions(request)
        self.requests.append(body)
        reply = self._stream(body["model"], AGAIN, end_call=False)
        return StreamingResponse(reply, media_type="text/event-stream")


async def test_a_persona_speaks_the_lines_the_llm_writes(migrated: Settings) -> None:
    model = PatientAgent()
    # A question the callee asked again (the agent went on talking) takes a line too.
    model.callee_lines = [WRITTEN] * 5
    llm_port, app_port = free_port(), free_port()
    app = create_app(scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=2.0))
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    async with serving(model.app(), llm_port), serving(app.state.realtime.wrap(app), app_port):
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        async for session in app.state.db.session():
            call = await app.state.calls.service.place(session, _lab_order(NURSE))
            call_id = call.id
        row = await app.state.calls.flows.wait_finalized(call_id, within=150)
        async for session in app.state.db.session():
            lines = [(e.speaker, e.text.lower()) for e in await calls.transcript(session, call_id)]
    heard = " ".join(text for speaker, text in lines if speaker == "user")
    assert "friday afternoon" in heard, lines
    assert "only when the llm fails" not in heard, lines
    assert row.end_reason == "completed"
    asked = model.callee_requests[0]["messages"]
    assert NURSE.persona in asked[0]["content"]
    # The agent's first words, as the callee heard them, are the other party's first line.
    first = next(text for speaker, text in lines if speaker == "assistant")
    heard_first = next(m["content"].lower() for m in asked if m["role"] == "user")
    assert _words(first) & _words(heard_first), (first, heard_first)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


async def test_a_menu_as_data_gets_the_agents_keys_to_its_person(live: Live) -> None:
    scenario = phone_menu_scenario("31")
    assert scenario is not None
    async for session in live.app.state.db.session():
        call = await live.app.state.calls.service.place(
            session,
            _lab_order(scenario.callee, precall_dtmf_sequence="31", wait_for_greeting=True),
        )
        call_id = call.id
    row = await live.wait_finalized(call_id, within=150)
    sandbox = await live.sandbox_call(row)
    assert sandbox.report is not None
    assert (sandbox.report.keys_heard[:2], sandbox.report.reached) == (["3", "1"], "Robin")
    async for session in live.app.state.db.session():
        record = await call_record(session, call_id)
    checks = {c.expectation: c for c in judge(scenario.expect, record)}
    assert checks["keys"].passed, checks["keys"]
    assert checks["callee_says[0]"].passed, (checks["callee_says[0]"], record.lines)


async def test_a_callee_answers_the_kind_of_question_it_heard(live: Live) -> None:
    """The agent asks whether the time still works: the callee's answer for that question, not
    its next line in order; an answer for a question never asked is never said."""
    callee = Callee(
        lines=["Yes, that is fine.", "Thank you, goodbye."],
        answers=[
            {"when": ["credit card"], "say": "I never give my card on the phone."},
            {"when": ["still works", "still work"], "say": "No, can we move it to Friday?"},
        ],
    )
    async for session in live.app.state.db.session():
        call = await live.app.state.calls.service.place(session, _lab_order(callee))
        call_id = call.id
    row = await live.wait_finalized(call_id, within=150)
    async for session in live.app.state.db.session():
        lines = [(e.speaker, e.text.lower()) for e in await calls.transcript(session, call_id)]
    asked = next(i for i, (who, text) in enumerate(lines) if who == "assistant" and "still" in text)
    answer = next(text for who, text in lines[asked:] if who == "user")
    assert "friday" in answer, lines
    assert not any("card" in text for who, text in lines if who == "user"), lines
    assert row.end_reason in ("completed", "callee-hung-up"), lines
