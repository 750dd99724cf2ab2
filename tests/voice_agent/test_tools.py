"""The custom tools' runner (requests built from a tool and its arguments, the timeout, the
request-forgery guard, an answer from a private address) and the goodbye that ends a call when a
model never calls end_call."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from callwright.developers.ssrf import Guard
from callwright.voice_agent.contract import ToolSpec
from callwright.voice_agent.tool_runner import Reach, build_request, call_tool
from callwright.voice_agent.tools import closes

PARAMETERS = {"type": "object", "properties": {"day": {"type": "string"}}}


def spec(**overrides: object) -> ToolSpec:
    values: dict[str, object] = {
        "name": "check_calendar",
        "description": "Free times.",
        "parameters": PARAMETERS,
        "url": "https://api.example.com/customers/{{customer}}/calendar",
        "method": "POST",
        "headers": {"Authorization": "Bearer {{token}}"},
    } | overrides
    return ToolSpec(**values)  # type: ignore[arg-type]


def test_a_post_sends_the_arguments_as_json_with_the_variables_filled() -> None:
    request = build_request(spec(), {"day": "Tuesday"}, {"customer": "a/b 1", "token": "t0k"})
    assert request.method == "POST"
    assert request.url == "https://api.example.com/customers/a%2Fb%201/calendar"
    assert request.headers == {"Authorization": "Bearer t0k"}
    assert request.body == {"day": "Tuesday"}
    assert request.params is None


def test_a_get_puts_the_arguments_in_the_query() -> None:
    request = build_request(spec(method="GET"), {"day": "Tuesday", "n": 2}, {})
    assert request.params == {"day": "Tuesday", "n": "2"}
    assert request.body is None


def test_a_body_template_takes_arguments_and_variables() -> None:
    template = {"query": {"day": "{{input.day}}", "count": "{{input.n}}"}, "who": "{{name}}!"}
    request = build_request(spec(body=template), {"day": "Mon", "n": 3}, {"name": "Ann"})
    assert request.body == {"query": {"day": "Mon", "count": 3}, "who": "Ann!"}


def _reach(handler: object) -> tuple[Reach, httpx.MockTransport]:
    return Reach(Guard(allow_private=True), read_private=True), httpx.MockTransport(handler)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_an_answer_is_json_and_its_latency_is_measured() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"free": True})

    reach, transport = _reach(handler)
    answer = await call_tool(
        spec(url="http://127.0.0.1:9/cal"),
        {"day": "Mon"},
        {"token": "x"},
        reach,
        transport=transport,
    )
    assert answer.status == "succeeded"
    assert answer.result == {"free": True}
    assert answer.for_model() == {"free": True}
    assert answer.latency_ms >= 0
    assert json.loads(seen[0].content) == {"day": "Mon"}
    assert seen[0].headers["authorization"] == "Bearer x"


@pytest.mark.asyncio
async def test_an_error_status_fails_and_tells_the_model() -> None:
    reach, transport = _reach(lambda request: httpx.Response(503, text="down"))
    answer = await call_tool(spec(url="http://127.0.0.1:9/x"), {}, {}, reach, transport=transport)
    assert answer.status == "failed"
    assert answer.status_code == 503
    assert answer.error == "The tool answered HTTP 503."
    assert "could not look that up" in answer.for_model()["instruction"]


@pytest.mark.asyncio
async def test_a_slow_tool_times_out() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200, json={})

    reach, transport = _reach(handler)
    answer = await call_tool(
        spec(url="http://127.0.0.1:9/x", timeout_seconds=0.2), {}, {}, reach, transport=transport
    )
    assert answer.status == "timed-out"
    assert answer.latency_ms < 2000
    assert "did not answer in time" in answer.for_model()["error"]


@pytest.mark.asyncio
async def test_the_request_forgery_guard_refuses_private_targets() -> None:
    called: list[httpx.Request] = []
    refuse = Reach(Guard(allow_private=False))
    answer = await call_tool(
        spec(url="http://169.254.169.254/latest/meta-data"),
        {},
        {},
        refuse,
        transport=httpx.MockTransport(lambda r: called.append(r) or httpx.Response(200)),  # type: ignore[func-returns-value]
    )
    assert answer.status == "failed"
    assert "link-local address" in (answer.error or "")
    assert called == []


@pytest.mark.asyncio
async def test_a_private_answer_is_not_read_where_the_operator_opened_private_targets() -> None:
    reach = Reach(Guard(allow_private=True), read_private=False)
    transport = httpx.MockTransport(lambda r: httpx.Response(200, json={"secret": 1}))
    answer = await call_tool(spec(url="http://10.0.0.5/x"), {}, {}, reach, transport=transport)
    assert answer.status == "failed"
    assert answer.result is None
    assert "not read" in (answer.error or "")


@pytest.mark.parametrize(
    ("reply", "heard", "ends"),
    [
        ("Thank you for your time, goodbye.", "", True),
        ("Great, you're all set. Have a nice day. Bye!", "", True),
        ("Goodbye? No, wait. What day suits you?", "", False),
        ("Before you go, can I ask one more thing?", "Bye.", False),
        ("Sure, bye for now. Anything else?", "", False),
        ("Bye then, and thanks. Talk soon.", "Okay, bye.", True),
        ("Tuesday at 3 pm is free.", "", False),
    ],
)
def test_a_goodbye_is_told_from_the_conversation(reply: str, heard: str, ends: bool) -> None:
    assert closes(reply, heard) is ends


@pytest.mark.asyncio
async def test_the_waiting_line_comes_first_then_the_reports() -> None:
    """ToolCalls.run: the waiting line is said before the endpoint is called, the action is
    reported started then with its result and latency, and two tools called together say the
    waiting line once."""
    from callwright.kit.serving import free_port, serving
    from callwright.voice_agent.contract import ActionReport, CallPlan
    from callwright.voice_agent.tools import ToolCalls
    from tests.agents.tool_server import ToolServer

    server, port = ToolServer(), free_port()
    calendar = spec(url=f"http://127.0.0.1:{port}/calendar", headers={}, waiting_line="Hold on.")
    plan = CallPlan("c1", "prompt", "joe", 0.5, 100, "none", 60, False, tools=(calendar,))
    timeline: list[str] = []

    async def speak(_llm: object, line: str) -> None:
        timeline.append(f"said {line}")

    def report(action: ActionReport) -> None:
        timeline.append(f"{action.status} {action.summary.split(' in ')[0]}")
        reports.append(action)

    reports: list[ActionReport] = []
    tools = ToolCalls(plan, Reach(Guard(allow_private=True), read_private=True), report, speak)
    async with serving(server.app(), port):
        answers = await asyncio.gather(
            tools.run(None, calendar, {"day": "Mon"}),  # type: ignore[arg-type]
            tools.run(None, calendar, {"day": "Tue"}),  # type: ignore[arg-type]
        )
    assert [a.status for a in answers] == ["succeeded", "succeeded"]
    assert timeline[0] == "said Hold on."
    assert timeline.count("said Hold on.") == 1
    assert sorted(timeline[1:3]) == ["started Calling check_calendar"] * 2
    assert [r.status for r in reports[2:]] == ["succeeded", "succeeded"]
    assert {r.arguments["day"] for r in reports[2:]} == {"Mon", "Tue"}
    assert all(r.latency_ms is not None and r.result["free"] for r in reports[2:])
    assert [s["json"] for s in server.requests] in (
        [{"day": "Mon"}, {"day": "Tue"}],
        [{"day": "Tue"}, {"day": "Mon"}],
    )


@pytest.mark.asyncio
async def test_the_action_line_keeps_a_long_answer_cut() -> None:
    long = {"rows": ["x" * 100] * 20}
    reach, transport = _reach(lambda request: httpx.Response(200, json=long))
    answer = await call_tool(spec(url="http://127.0.0.1:9/x"), {}, {}, reach, transport=transport)
    assert answer.for_model() == long, "the model reads it whole"
    assert isinstance(answer.for_report(), str)
    assert len(answer.for_report()) == 500
    reach, transport = _reach(lambda request: httpx.Response(200, json={"free": True}))
    short = await call_tool(spec(url="http://127.0.0.1:9/x"), {}, {}, reach, transport=transport)
    assert short.for_report() == {"free": True}


def _reply(text: str) -> list[object]:
    from pipecat.frames.frames import (
        LLMFullResponseEndFrame,
        LLMFullResponseStartFrame,
        LLMTextFrame,
    )

    return [LLMFullResponseStartFrame(), LLMTextFrame(text), LLMFullResponseEndFrame()]


def _calls(*names: str) -> object:
    from pipecat.frames.frames import FunctionCallFromLLM, FunctionCallsStartedFrame

    return FunctionCallsStartedFrame(
        function_calls=[FunctionCallFromLLM(n, f"id-{n}", {}, None) for n in names]  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("frames", "finals"),
    [
        # A goodbye without end_call ends the call (a final reply after the reply's end).
        (_reply("Thank you for your time, goodbye."), 1),
        # With end_call (its frame may come before the reply's text): the model ends it.
        ([_calls("end_call"), *_reply("Thank you, goodbye.")], 0),
        # A reply that calls a tool is not the last word, however it ends.
        (
            [
                *_reply("Okay, bye for now, let me check.")[:2],
                _calls("check_calendar"),
                _reply("")[2],
            ],
            0,
        ),
        # Not a goodbye.
        (_reply("Tuesday at 3 pm is free."), 0),
    ],
)
@pytest.mark.asyncio
async def test_the_goodbye_watch_ends_a_call_the_model_does_not(
    frames: list[object], finals: int
) -> None:
    from pipecat.tests.utils import SleepFrame, run_test

    from callwright.voice_agent.frames import FinalReplyFrame
    from callwright.voice_agent.tools import GoodbyeWatch

    down, _ = await run_test(
        GoodbyeWatch(lambda: ""),
        frames_to_send=[*frames, SleepFrame(sleep=0.05)],  # type: ignore[list-item]
        expected_down_frames=None,
    )
    assert sum(isinstance(f, FinalReplyFrame) for f in down) == finals
