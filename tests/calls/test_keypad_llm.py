"""The LLM path through a phone menu: a whole sandbox call to the IVR whose brain is a scripted
OpenAI-compatible model that calls `press_digits` on each menu; the keys go out as tones the
IVR hears, and the person at the end gets the model's words."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse

from callwright import roles
from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from tests.calls.fake_openai import CLOSING, FakeOpenAI, scripted_brain

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.conversation]

ASK = "Hi Jordan, this is Nova from Bright Dental. When will our order 4471 arrive?"


class MenuModel(FakeOpenAI):
    """Presses 3 on the top menu (deliveries), 1 on the deliveries menu (a late delivery),
    then talks to the person and says goodbye with end_call."""

    async def completions(self, request: Request) -> StreamingResponse | JSONResponse:
        body = await request.json()
        self.requests.append(body)
        users = [m["content"] for m in body["messages"] if m.get("role") == "user"]
        heard = str(users[-1]).lower() if users else ""
        if "missing" in heard or "return an item" in heard:
            reply = self._reply(body["model"], "", ("press_digits", {"digits": "1"}))
        elif "sales" in heard:
            reply = self._reply(body["model"], "", ("press_digits", {"digits": "3"}))
        elif not any(m.get("role") == "assistant" and m.get("content") for m in body["messages"]):
            reply = self._reply(body["model"], ASK, None)
        else:
            reply = self._reply(body["model"], CLOSING, ("end_call", {}))
        return StreamingResponse(reply, media_type="text/event-stream")

    async def _reply(self, model: str, text: str, tool: tuple[str, dict[str, Any]] | None) -> Any:
        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            data = {
                "id": "chatcmpl-menu",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            return f"data: {json.dumps(data)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        for word in text.split():
            yield chunk({"content": word + " "})
        if tool is not None:
            name, arguments = tool
            call = {"index": 0, "id": f"call_{len(self.requests)}", "type": "function"}
            yield chunk({"tool_calls": [{**call, "function": {"name": name, "arguments": ""}}]})
            args = {"index": 0, "function": {"arguments": json.dumps(arguments)}}
            yield chunk({"tool_calls": [args]})
            yield chunk({}, "tool_calls")
        else:
            yield chunk({}, "stop")
        yield b"data: [DONE]\n\n"


async def test_a_scripted_model_presses_its_way_through_the_ivr(migrated: Settings) -> None:
    model = MenuModel()
    llm_port, app_port = free_port(), free_port()
    settings = scripted_brain(migrated, llm_port=llm_port, app_port=app_port, speed=2.0)
    app = create_app(settings)
    await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
    reports: list[Any] = []

    async def remember(call: Any) -> None:
        reports.append(call.report)

    app.state.sandbox.listeners.append(remember)
    async with serving(model.app(), llm_port), serving(app.state.realtime.wrap(app), app_port):
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        async for session in app.state.db.session():
            call = await app.state.calls.service.place(
                session,
                CallOrder(
                    kind="dashboard",
                    to_number="+15005550020",
                    from_number="+18885550100",
                    prompt="You are Nova from Bright Dental. Call Acme about a late delivery.",
                    voice="joe",
                    max_duration=2,
                    wait_for_greeting=True,
                ),
            )
            call_id = call.id
        row = await app.state.calls.flows.wait_finalized(call_id, within=150)
        async for session in app.state.db.session():
            lines = [(e.speaker, e.text) for e in await calls.transcript(session, call_id)]
            events = await calls.events(session, call_id)
    report = reports[0]
    # Each check shows the call as heard: a failure on a slow machine is read from it.
    seen = (report.keys_heard, lines)
    assert report.keys_heard == ["3", "1"], seen
    assert report.reached == "Jordan", seen
    actions = [e.message for e in events if e.category == "action"]
    assert actions == ["Pressed 3", "Pressed 1"], seen
    said = [t for s, t in lines if s == "assistant"]
    assert said[0].startswith("Hello! "), ("the disclosure is for the person, not the menu", seen)
    assert ASK in said, seen
    assert said[-1] == CLOSING, seen
    assert row.status == "completed", seen
    first = model.requests[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["end_call", "press_digits"]
    assert "press_digits" in first["messages"][0]["content"]
    results = [
        json.loads(m["content"])
        for m in model.requests[-1]["messages"]
        if m.get("role") == "tool" and "pressed" in m.get("content", "")
    ]
    assert results == [{"pressed": "3"}, {"pressed": "1"}], "each press went back to the model"
