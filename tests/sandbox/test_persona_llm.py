"""A free-text persona played by an LLM (issue 32, sandbox/persona_llm.py): the chat it sends
(the persona and the rules, the agent's lines as the other party's), the line it keeps of the
answer, its retries, and the callee saying its scripted lines when the LLM fails."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import numpy as np
import pytest

from callwright.config import Settings
from callwright.sandbox.callee import Segment, SimulatedCallee, _Conversation
from callwright.sandbox.numbers import Persona
from callwright.sandbox.persona_llm import (
    INAUDIBLE,
    RULES,
    PersonaLLM,
    Reply,
    messages_for,
    reply_of,
)
from callwright.speech.audio import PCM
from callwright.voice_agent.flow_llm import ChatModel
from tests.calls.fake_openai import FakeOpenAI

NURSE = "a busy nurse who wants to move her appointment to Friday afternoon"


async def _deaf(pcm: PCM) -> str:
    return f"{len(pcm)} samples"


def _writer(fake: FakeOpenAI, *, key: str = "test-key", within: float = 3.0) -> PersonaLLM:
    transport = httpx.ASGITransport(app=fake.app())
    model = ChatModel("http://llm.test/v1", key, "scripted-model", 0.7, transport)
    return PersonaLLM(model, _deaf, first_wait=0.05, within=within)


def test_the_chat_is_the_persona_then_the_call_so_far() -> None:
    messages = messages_for(
        NURSE, [("callee", "Hello?"), ("agent", "Hi, this is Ava."), ("agent", " ")]
    )
    assert messages[0]["role"] == "system"
    assert messages[0]["content"].startswith(RULES)
    assert messages[0]["content"].endswith(NURSE)
    assert [(m["role"], m["content"]) for m in messages[1:]] == [
        ("assistant", "Hello?"),
        ("user", "Hi, this is Ava."),
        ("user", INAUDIBLE),
    ]


@pytest.mark.parametrize(
    ("content", "reply"),
    [
        (
            '  "Can we make it Friday afternoon?"\n',
            Reply("Can we make it Friday afternoon?", False),
        ),
        ("Great, thanks. GOODBYE", Reply("Great, thanks. Goodbye.", True)),
        ("Okay, bye then. GOODBYE.", Reply("Okay, bye then.", True)),
        ("GOODBYE", Reply("Goodbye.", True)),
        ("Goodbye for now, I'm off.", Reply("Goodbye for now, I'm off.", False)),
    ],
)
def test_the_line_kept_of_the_answer(content: str, reply: Reply) -> None:
    assert reply_of(content) == reply


def test_an_empty_answer_is_no_line() -> None:
    with pytest.raises(ValueError, match="no line"):
        reply_of("  ")


async def test_the_llm_writes_the_line_and_is_tried_again_when_it_fails() -> None:
    fake = FakeOpenAI()
    fake.callee_lines = ["Can we move it to Friday afternoon?"]
    fake.callee_failures = 2
    reply = await _writer(fake).reply(NURSE, [("agent", "Hi, this is Ava from the clinic.")])
    assert reply == Reply("Can we move it to Friday afternoon?", False)
    assert len(fake.callee_requests) == 3, "two 503s, then the answer"
    sent = fake.callee_requests[-1]
    assert (sent["model"], sent["temperature"]) == ("scripted-model", 0.7)
    assert sent["messages"][-1] == {"role": "user", "content": "Hi, this is Ava from the clinic."}
    # A refusal (a bad key) is not tried again; one that lasts ends the tries.
    bad_key = FakeOpenAI()
    with pytest.raises(httpx.HTTPStatusError):
        await _writer(bad_key, key="wrong").reply(NURSE, [("agent", "Hi.")])
    assert len(bad_key.requests) == 1
    down = FakeOpenAI()
    down.callee_failures = 1000
    with pytest.raises(httpx.HTTPStatusError):
        await _writer(down, within=0.3).reply(NURSE, [("agent", "Hi.")])
    assert 1 < len(down.callee_requests) < 10


def test_the_llm_is_the_installs() -> None:
    base = Settings(
        secret_key="persona-llm-secret-0123456789abcdefgh", llm_base_url="", llm_model="m"
    )
    assert PersonaLLM.of(base, _deaf) is None
    configured = base.model_copy(update={"llm_base_url": "http://llm.test/v1", "llm_api_key": "k"})
    writer = PersonaLLM.of(configured, _deaf)
    assert writer is not None
    assert (writer.model.base_url, writer.model.api_key, writer.model.model) == (
        "http://llm.test/v1",
        "k",
        "m",
    )


def _callee(writer: PersonaLLM | None) -> SimulatedCallee:
    persona = Persona("person", "a nurse", lines=("Friday, please.",), persona=NURSE)
    return SimulatedCallee(
        persona,
        call_sid="CA1",
        account_sid="AC1",
        stream_url="ws://127.0.0.1:9/media",
        parameters={},
        writer=writer,
    )


async def _written(callee: SimulatedCallee, talk: _Conversation) -> str | None:
    """The callee's next line, once the LLM was asked about the agent's one turn."""
    talk.heard = [np.zeros(160, np.int16)] * 100
    talk.segments.append(Segment("agent", 0.2, 1.4))
    talk.agent_turns = 1
    callee._ask_ahead(talk)
    assert talk.writing is not None
    await asyncio.wait_for(asyncio.shield(talk.writing), timeout=10)
    return callee._next_line(talk, 2.0)


async def test_the_callee_says_the_llms_line_else_its_own() -> None:
    fake = FakeOpenAI()
    fake.callee_lines = ["Friday afternoon would be better for me."]
    callee = _callee(_writer(fake))
    talk = _Conversation(lines=list(callee.persona.lines), writer=callee.writer)
    assert await _written(callee, talk) == "Friday afternoon would be better for me."
    asked: list[dict[str, Any]] = fake.callee_requests[0]["messages"]
    assert asked[-1] == {"role": "user", "content": "9760 samples"}, "the agent's turn heard"
    assert (talk.written, talk.written_all, talk.lines) == (1, False, ["Friday, please."])

    # The LLM down: its own line, then (none left) its part is over.
    down = FakeOpenAI()
    down.callee_failures = 1000
    failing = _callee(_writer(down, within=0.2))
    talk = _Conversation(lines=list(failing.persona.lines), writer=failing.writer)
    assert await _written(failing, talk) == "Friday, please."
    talk.agent_turns = 2
    failing._ask_ahead(talk)
    assert talk.writing is not None
    await asyncio.wait_for(asyncio.shield(talk.writing), timeout=10)
    assert failing._next_line(talk, 9.0) is None
    assert (talk.written_all, talk.done_at, talk.more()) == (True, 9.0, False)
