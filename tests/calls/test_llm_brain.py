"""The LLM path: a whole sandbox call whose brain is an OpenAI-compatible endpoint (a local
server speaking the chat-completions protocol with scripted, streamed replies)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from callwright import roles
from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.compliance.disclosure import DEFAULT_DISCLOSURE
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from tests.calls.fake_openai import CLOSING, GREETING, FakeOpenAI, scripted_brain

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.conversation]


async def test_a_call_with_an_llm_brain(migrated: Settings) -> None:
    fake = FakeOpenAI()
    llm_port, app_port = free_port(), free_port()
    # Real time: the first request to a model pays for the client's start-up.
    settings = scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=1.0)
    app = create_app(settings)
    # Warm the speech models first, as the app's start-up does: a cold Piper load (2 to 3 s
    # here) would outlast the callee's patience and its "Hello?" would talk over the greeting.
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    async with serving(fake.app(), llm_port), serving(app.state.realtime.wrap(app), app_port):
        async for session in app.state.db.session():
            call = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="dashboard",
                    to_number="+15551230003",  # the interested person
                    from_number="+18885550100",
                    prompt="You are Nova from Acme Travel. You are calling to confirm a trip.",
                    voice="joe",
                    temperature=0.3,
                    max_duration=2,
                ),
            )
            call_id = call.id
        row = await app.state.calls.flows.wait_finalized(call_id, within=120)
        async for session in app.state.db.session():
            lines = [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
    assert row is not None
    assert row.status == "completed"
    # The disclosure is ours, said first; the model introduces itself after it.
    assert lines[0] == ("assistant", f"Hello! {DEFAULT_DISCLOSURE}"), lines
    assert lines[1] == ("assistant", GREETING), (lines, len(fake.requests))
    assert any(s == "user" for s, _ in lines), "the callee's words went to the model"
    assert lines[-1] == ("assistant", CLOSING), "the end_call tool hung up after the goodbye"
    first = fake.requests[0]
    assert first["model"] == "scripted-model"
    assert first["temperature"] == 0.3
    assert first["stream"] is True
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][0]["content"].startswith("You are Nova from Acme Travel.")
    assert (
        f'already spoken for you: "Hello! {DEFAULT_DISCLOSURE}"' in first["messages"][0]["content"]
    )
    assert [t["function"]["name"] for t in first["tools"]] == ["end_call", "press_digits"]
    later = fake.requests[-1]
    heard = [m["content"] for m in later["messages"] if m["role"] == "user"]
    assert heard, "the transcript of the callee is sent as the user's turn"


async def test_the_llm_transfers_with_its_transfer_function(migrated: Settings) -> None:
    """The model says its line and calls `transfer` (a department of the call's list, and the
    summary the person hears on a warm transfer): the call reaches the person."""
    summary = "Nova from Acme Travel: the callee wants a person about their order."
    fake = FakeOpenAI(
        closing="Of course, connecting you now.",
        tool="transfer",
        arguments=json.dumps({"department": "sales", "summary": summary}),
    )
    llm_port, app_port = free_port(), free_port()
    settings = scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=1.5)
    app = create_app(settings)
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    legs: list[Any] = []

    async def remember(call: Any) -> None:
        legs.extend(call.legs)

    app.state.sandbox.listeners.append(remember)
    async with serving(fake.app(), llm_port), serving(app.state.realtime.wrap(app), app_port):
        async for session in app.state.db.session():
            call = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="dashboard",
                    to_number="+15005550010",  # asks for a person
                    from_number="+18885550100",
                    prompt="You are Nova from Acme Travel. You are calling to confirm a trip.",
                    voice="joe",
                    max_duration=2,
                    transfer_list={"default": "+15005550013", "sales": "+15005550011"},
                    transfer_mode="warm",
                ),
            )
            call_id = call.id
        row = await app.state.calls.flows.wait_finalized(call_id, within=150)
        for _ in range(50):
            if legs:
                break
            await asyncio.sleep(0.1)
    first = fake.requests[0]
    transfer = next(t for t in first["tools"] if t["function"]["name"] == "transfer")
    assert transfer["function"]["parameters"]["properties"]["department"]["enum"] == [
        "default",
        "sales",
    ]
    assert "call the transfer function" in first["messages"][0]["content"]
    assert (row.end_reason, row.transferred_to) == ("transferred", "+15005550011")
    assert [leg.whisper for leg in legs] == [[summary]]
