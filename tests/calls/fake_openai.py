"""A local server speaking the OpenAI chat-completions protocol (streamed server-sent events,
including a streamed tool call), with scripted replies; it records every request. Asked as a
simulated callee (sandbox.persona_llm's system message), it answers with `callee_lines`."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from callwright.config import Settings
from callwright.sandbox.persona_llm import RULES

GREETING = (
    "Hi, this is Nova from Acme Travel. I am calling about your trip next week. Is now a good time?"
)
CLOSING = "Perfect, your trip is all set. Thank you, goodbye."


def scripted_brain(base: Settings, *, llm_port: int, app_port: int, speed: float) -> Settings:
    """`base` for an app served on `app_port` whose calls' brain is the scripted model served on
    `llm_port`, its sandbox calls at `speed` times real time."""
    return base.model_copy(
        update={
            "app_url": f"http://127.0.0.1:{app_port}",
            "port": app_port,
            "sandbox_speed": speed,
            "warm_up_voice": False,
            "llm_base_url": f"http://127.0.0.1:{llm_port}/v1",
            "llm_api_key": "test-key",
            "llm_model": "scripted-model",
        }
    )


class FakeOpenAI:
    def __init__(
        self, *, closing: str = CLOSING, tool: str = "end_call", arguments: str = "{}"
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        #: The second reply, and the function it calls (with its JSON arguments).
        self.closing, self.tool, self.arguments = closing, tool, arguments
        #: A flow's edge choices, in order: each `choose_edge` request gets the next one's
        #: arguments ({"edge": label, "captures": {...}}); none left: {"edge": "none"}.
        self.flow_choices: list[dict[str, Any]] = []
        #: A free-text persona's lines, in order (none left: "Okay. GOODBYE"), after answering
        #: `callee_failures` requests with a 503; the requests it was asked as a callee.
        self.callee_lines: list[str] = []
        self.callee_failures = 0
        self.callee_requests: list[dict[str, Any]] = []

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/chat/completions", self.completions, methods=["POST"])])

    async def completions(self, request: Request) -> StreamingResponse | JSONResponse:
        body = await request.json()
        self.requests.append(body)
        if request.headers.get("authorization") != "Bearer test-key":
            return JSONResponse(
                {"error": {"message": "bad key", "type": "invalid_request_error"}}, status_code=401
            )
        if str(body["messages"][0].get("content", "")).startswith(RULES):
            return self._callee(body)
        if any(t["function"]["name"] == "choose_edge" for t in body.get("tools") or ()):
            return JSONResponse(self._choice())
        users = [m for m in body["messages"] if m.get("role") == "user"]
        if not users:
            return StreamingResponse(
                self._stream(body["model"], GREETING, end_call=False),
                media_type="text/event-stream",
            )
        return StreamingResponse(
            self._stream(body["model"], self.closing, end_call=True),
            media_type="text/event-stream",
        )

    def _callee(self, body: dict[str, Any]) -> JSONResponse:
        """A chat completion (not streamed): the persona's next line."""
        self.callee_requests.append(body)
        if self.callee_failures:
            self.callee_failures -= 1
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=503)
        line = self.callee_lines.pop(0) if self.callee_lines else "Okay. GOODBYE"
        message = {"role": "assistant", "content": line}
        return JSONResponse(
            {
                "id": "chatcmpl-callee",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }
        )

    def _choice(self) -> dict[str, Any]:
        """A chat completion (not streamed) that calls choose_edge with the next choice."""
        arguments = self.flow_choices.pop(0) if self.flow_choices else {"edge": "none"}
        call = {
            "id": "call_choice",
            "type": "function",
            "function": {"name": "choose_edge", "arguments": json.dumps(arguments)},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return {
            "id": "chatcmpl-choice",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }

    async def _stream(
        self, model: str, text: str, *, end_call: bool, tool: tuple[str, str] | None = None
    ) -> AsyncIterator[bytes]:
        """`text` streamed word by word, then a call of end_call, or of `tool` (its name and
        its arguments' JSON)."""
        created = int(time.time())

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            data = {
                "id": "chatcmpl-test",
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            return f"data: {json.dumps(data)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        for word in text.split(" ") if text else ():
            yield chunk({"content": word + " "})
        if tool is not None:
            name, arguments = tool
            call = {"index": 0, "id": "call_tool", "type": "function"}
            yield chunk({"tool_calls": [call | {"function": {"name": name, "arguments": ""}}]})
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments}}]})
            yield chunk({}, "tool_calls")
        elif end_call:
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": self.tool, "arguments": ""},
                        }
                    ]
                }
            )
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": self.arguments}}]})
            yield chunk({}, "tool_calls")
        else:
            yield chunk({}, "stop")
        yield b"data: [DONE]\n\n"
