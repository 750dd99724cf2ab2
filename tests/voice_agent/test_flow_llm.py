"""The LLM's way through a flow (voice_agent/flow_llm.py): the model picks an edge by a tool
call among the node's labels, fills captures, phrases instructed lines, and cannot leave the
graph."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import httpx

from callwright.voice_agent.flow_graph import TextTurnIn
from callwright.voice_agent.flow_llm import CHOOSE, ChatModel, LLMChooser
from callwright.voice_agent.flow_runner import FlowRunner, text_turn
from tests.voice_agent.flow_fixtures import flow

TODAY = date(2026, 12, 3)


class Model:
    """A scripted chat endpoint: each request gets the next answer (a choose_edge call's
    arguments, a line of text, or an HTTP status)."""

    def __init__(self, *answers: dict[str, Any] | str | int) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        answer = self.answers.pop(0)
        if isinstance(answer, int):
            return httpx.Response(answer, json={"error": "down"})
        if isinstance(answer, str):
            message: dict[str, Any] = {"role": "assistant", "content": answer}
        else:
            call = {"id": "c1", "type": "function"}
            function = {"name": CHOOSE, "arguments": json.dumps(answer)}
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [call | {"function": function}],
            }
        return httpx.Response(200, json={"choices": [{"index": 0, "message": message}]})

    def chooser(self, name: str = "appointment") -> LLMChooser:
        model = ChatModel(
            "http://model.test/v1", "key", "m", transport=httpx.MockTransport(self.handler)
        )
        return LLMChooser(model, flow(name), TODAY)


async def test_the_model_picks_an_edge_and_fills_the_capture() -> None:
    model = Model(
        {"edge": "Reschedule"},
        {"edge": "A day and time", "captures": {"new_time": "2026-12-07T09:00"}},
    )
    run = FlowRunner(flow("appointment"), {"appointment_time": "tomorrow"}, chooser=model.chooser())
    await run.start()
    turn = await run.hear("Honestly I'd rather come another day.")
    assert turn.steps[0].edge_id == "e_reschedule"
    assert turn.steps[0].reason == "answer 'Reschedule' chosen by the model"
    turn = await run.hear("Monday morning, nine-ish.")
    assert turn.steps[0].captured == {"new_time": "2026-12-07T09:00"}
    assert turn.steps[1].edge_id == "e_has_time"
    first = model.requests[0]
    tool = first["tools"][0]["function"]
    assert tool["name"] == CHOOSE
    assert tool["parameters"]["properties"]["edge"]["enum"] == [
        "Confirm",
        "Reschedule",
        "Wrong person",
        "Voicemail",
        "none",
    ]
    assert first["tool_choice"]["function"]["name"] == CHOOSE
    system = first["messages"][0]["content"]
    assert "Confirm the time" in system
    assert "tomorrow" in system
    assert first["messages"][1] == {
        "role": "user",
        "content": "Honestly I'd rather come another day.",
    }
    captures = model.requests[1]["tools"][0]["function"]["parameters"]["properties"]["captures"]
    assert set(captures["properties"]) == {"new_time"}


async def test_the_model_cannot_leave_the_graph() -> None:
    model = Model({"edge": "Book a flight"}, {"edge": "none"})
    run = FlowRunner(flow("appointment"), chooser=model.chooser())
    await run.start()
    turn = await run.hear("Something odd.")
    assert turn.steps[0].edge_id is None
    assert turn.steps[0].reason == "no answer fit: try 1 of 2"
    turn = await run.hear("Still odd.")
    assert turn.steps[0].edge_id == "e_confirm_else"


async def test_a_bad_capture_is_dropped_and_a_failing_model_leaves_it_to_the_offline_choice() -> (
    None
):
    model = Model({"edge": "A day and time", "captures": {"new_time": "someday"}}, 503)
    run = FlowRunner(flow("appointment"), chooser=model.chooser())
    run.state.node_id = "new_time"
    turn = await run.hear("Friday at 2 pm.")
    # Not an ISO date: the extractor's value stands.
    assert turn.steps[0].captured == {"new_time": "2026-12-04T14:00"}
    run = FlowRunner(flow("appointment"), chooser=model.chooser())
    await run.start()
    turn = await run.hear("Yes, that works.")
    assert turn.steps[0].reason == "answer 'Confirm' by the phrase 'that works'"


async def test_instructed_lines_are_phrased_by_the_model_in_a_text_test() -> None:
    graph = flow("appointment")
    greet = graph.node("greet")
    greet.instruction = "Greet them warmly as Sarah from Bright Dental."  # type: ignore[union-attr]
    model = Model("Hello there, it's Sarah at Bright Dental!", 500)
    chooser = LLMChooser(model.chooser().model, graph, TODAY)
    out = await text_turn(graph, TextTurnIn(variables={"appointment_time": "today"}), llm=chooser)
    assert out.lines[0] == "Hello there, it's Sarah at Bright Dental!"
    assert "Greet them warmly" in model.requests[0]["messages"][0]["content"]
    assert "tools" not in model.requests[0]
    # The model down: the node's own text.
    runner = FlowRunner(graph, chooser=chooser)
    assert (await runner.start()).lines[0] == "Hi, this is Sarah from Bright Dental."
