"""The LLM's custom tools (docs/actions.md, Tools) and the goodbye that ends a call when a model
never calls `end_call`.

Each of the call's tools is a function the model may call (`tool_schemas`). When it does, the
tool's waiting line is spoken at once, the call is reported (an action line: started, then
succeeded, failed or timed-out, with its arguments, its answer and its latency), the endpoint is
called (tool_runner.py, with the tool's timeout), and the answer goes back to the model, whose
reply is spoken: the callee never hears more silence than the waiting line covers. A tool that
timed out or failed tells the model so, and the model says it could not get the answer."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.frames.frames import (
    Frame,
    FunctionCallResultProperties,
    FunctionCallsStartedFrame,
    InterruptionFrame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TTSSpeakFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.llm_service import LLMService

from callwright.voice_agent.contract import ActionReport, CallPlan, ToolSpec
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.tool_runner import Reach, ToolAnswer, call_tool

#: Added to the system message when the call has tools.
TOOLS_STYLE = (
    " When you call one of your tools, a short waiting line is spoken for you while it runs: "
    "do not say that you are checking. Answer from what the tool returns."
)
Report = Callable[[ActionReport], None]


def tool_schemas(plan: CallPlan) -> list[FunctionSchema]:
    """The call's tools as the model sees them."""
    return [
        FunctionSchema(
            name=spec.name,
            description=spec.description,
            properties=dict(spec.parameters.get("properties") or {}),
            required=list(spec.parameters.get("required") or []),
        )
        for spec in plan.tools
    ]


def summary(spec: ToolSpec, answer: ToolAnswer) -> str:
    """The action line of a finished call of `spec`."""
    if answer.status == "succeeded":
        return f"{spec.name} answered in {answer.latency_ms} ms"
    if answer.status == "timed-out":
        return f"{spec.name} timed out after {spec.timeout_seconds:g} s"
    return f"{spec.name} failed: {answer.error or 'no answer'}"


class ToolCalls:
    """Runs the call's tools for the LLM."""

    def __init__(
        self,
        plan: CallPlan,
        reach: Reach,
        report: Report,
        speak: Callable[[LLMService[Any], str], Awaitable[None]] | None = None,
    ) -> None:
        self.plan = plan
        self.reach = reach
        self.report = report
        self._speak = speak or _speak
        #: Tools running now: the waiting line is said once for tools called together.
        self._running = 0

    def register(self, llm: LLMService[Any]) -> None:
        for spec in self.plan.tools:
            llm.register_function(spec.name, self._handler(llm, spec))

    def _handler(self, llm: LLMService[Any], spec: ToolSpec) -> Callable[[Any], Awaitable[None]]:
        async def handler(params: Any) -> None:
            answer = await self.run(llm, spec, dict(params.arguments or {}))

            async def answer_now() -> None:
                # Pipecat would run the model once the waiting line's "bot stopped speaking"
                # comes (3 s after its audio, with our TTS): the model answers as soon as the
                # result is in the context instead, its reply queued behind the waiting line.
                # Not when the callee spoke meanwhile (their turn runs the model), nor while
                # another tool of the same reply still runs (the last one to answer does).
                messages = [m for m in params.context.get_messages() if isinstance(m, dict)]
                if not messages or messages[-1].get("role") != "tool":
                    return
                if any(m.get("content") == "IN_PROGRESS" for m in messages):
                    return
                await llm.queue_frame(LLMContextFrame(params.context))

            await params.result_callback(
                answer.for_model(),
                properties=FunctionCallResultProperties(
                    run_llm=False, on_context_updated=answer_now
                ),
            )

        return handler

    async def run(
        self, llm: LLMService[Any], spec: ToolSpec, arguments: Mapping[str, Any]
    ) -> ToolAnswer:
        """Say the waiting line, call the tool and report both ends of it."""
        self._running += 1
        try:
            if self._running == 1:
                await self._speak(llm, spec.waiting_line)
            self.report(
                ActionReport(
                    "tool", spec.name, "started", f"Calling {spec.name}", arguments=arguments
                )
            )
            answer = await call_tool(spec, arguments, self.plan.variables, self.reach)
        except asyncio.CancelledError:  # the callee talked over the wait: the turn is theirs
            self.report(
                ActionReport(
                    "tool", spec.name, "failed", f"{spec.name} cut off", arguments=arguments
                )
            )
            raise
        finally:
            self._running -= 1
        self.report(
            ActionReport(
                "tool",
                spec.name,
                answer.status,
                summary(spec, answer),
                arguments=arguments,
                result=answer.for_report(),
                latency_ms=answer.latency_ms,
            )
        )
        return answer


async def _speak(llm: LLMService[Any], line: str) -> None:
    if line:
        await llm.push_frame(TTSSpeakFrame(line, append_to_context=False))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_GOODBYE = re.compile(r"\b(good ?bye|bye|farewell|take care)\b", re.IGNORECASE)


def closes(reply: str, heard: str) -> bool:
    """Whether the agent's `reply` ends the conversation: its last sentence says goodbye (and
    asks nothing), or it says goodbye to a callee who just did."""
    sentences = [s for s in _SENTENCE_END.split(reply.strip()) if s]
    if not sentences:
        return False
    last = sentences[-1]
    if _GOODBYE.search(last) and not last.rstrip().endswith("?"):
        return True
    return bool(_GOODBYE.search(reply) and _GOODBYE.search(heard))


class GoodbyeWatch(FrameProcessor):
    """After the LLM: a reply that says goodbye ends the call, when the model did not call
    `end_call` with it (some models never do), nor any other function (a reply that calls a
    tool or a transfer is not the last word). A function call is a system frame, which may
    pass before the reply's text but never after its end; a call of `end_call` stands until
    the callee talks over the goodbye."""

    def __init__(self, heard: Callable[[], str]) -> None:
        super().__init__()
        self._heard = heard
        self._text: list[str] = []
        self._ending = False
        #: The reply being streamed called a function (its frame comes before the reply's end).
        self._calling = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if direction is FrameDirection.DOWNSTREAM:
            if isinstance(frame, LLMFullResponseStartFrame):
                self._text = []
            elif isinstance(frame, InterruptionFrame):
                self._ending = False  # the callee talked over the goodbye: the call goes on
            elif isinstance(frame, LLMTextFrame):
                self._text.append(frame.text)
            elif isinstance(frame, FunctionCallsStartedFrame):
                names = {call.function_name for call in frame.function_calls}
                self._ending = self._ending or "end_call" in names
                self._calling = True
            elif isinstance(frame, FinalReplyFrame):
                self._ending = True
            elif isinstance(frame, LLMFullResponseEndFrame):
                await self.push_frame(frame, direction)
                # A reply that calls a function (a tool, a transfer) is not the last word.
                calling, self._calling = self._calling, False
                if not self._ending and not calling and closes("".join(self._text), self._heard()):
                    self._ending = True
                    await self.push_frame(FinalReplyFrame())
                return
        await self.push_frame(frame, direction)
