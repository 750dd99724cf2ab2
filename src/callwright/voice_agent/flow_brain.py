"""The brain of a call that follows a conversation flow (docs/flows.md, "How the agent follows a
flow"): one processor, offline or with an LLM (the runner's chooser tells them apart), that
answers each finished callee turn with the flow runner's next turn, and performs its actions
through the call's own machinery: a transfer through the transfer frame the closer hands over,
keys through the keypad's frame, a tool through the tool runner (its waiting line first).

What holds in a flow as in a prompt call: the AI disclosure and recording notice are said after
the opening's first line; an opt-out ends the call with its acknowledgement (the session lists
the number); a voicemail greeting before anyone answered leaves the flow's voicemail message
(the graph's first voicemail node; none: the call's message) once the line is quiet, or hangs
up silently when the call says so."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pipecat.frames.frames import DataFrame, Frame, LLMContextFrame
from pipecat.processors.frame_processor import FrameDirection

from callwright.voice_agent.brain import _last_user_text, _Replies
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.flow_graph import (
    ActionNode,
    PressDigitsAction,
    Step,
    ToolAction,
    TransferAction,
)
from callwright.voice_agent.flow_runner import ActionRequest, FlowRunner, Turn
from callwright.voice_agent.keypad import key_in_message
from callwright.voice_agent.policy import Intent, OfflinePolicy, Reply, classify
from callwright.voice_agent.transfer import TransferFrame

#: Runs a tool node's tool: (whether it answered, its answer as text).
ToolRun = Callable[[ToolAction, dict[str, Any]], Awaitable[tuple[bool, str | None]]]


@dataclass
class FlowStartFrame(DataFrame):
    """Start the flow: the agent speaks first (queued by the session)."""


@dataclass
class FlowResumeFrame(DataFrame):
    """The transfer the flow waited on did not reach the person: say `line` and go on."""

    line: str = ""


def answer_text(answer: Any) -> str:
    """A tool's answer as a flow variable keeps it."""
    return answer if isinstance(answer, str) else json.dumps(answer)


class FlowBrain(_Replies):
    def __init__(
        self,
        runner: FlowRunner,
        plan: CallPlan,
        policy: OfflinePolicy,
        *,
        report_step: Callable[[Step], None],
        run_tool: ToolRun,
        speed: float = 1.0,
        goodbye_heard: Callable[[], bool] = lambda: True,
    ) -> None:
        super().__init__(speed=speed)
        self.runner = runner
        self.plan = plan
        self.policy = policy
        self._report_step = report_step
        self._run_tool = run_tool
        self._goodbye_heard = goodbye_heard
        #: The disclosure is said once, after the opening's first line (not again on resume).
        self._disclosed = not plan.disclosure or plan.leg == "resume"
        #: A person answered: a voicemail greeting can no longer be the first thing heard.
        self._human = plan.leg == "resume"
        #: What the agent said last, and what of it the callee did not hear (cut off before
        #: its first word: said again when they just say hello).
        self._last = ""
        self._unheard = ""
        #: The last reply acknowledged an opt-out, and (once the callee cut in) whether they
        #: did not hear it whole: it is then said again, not a plain goodbye.
        self._opted_out = False
        self._opt_out_unheard = False

    def interrupted(self, spoken: str) -> None:
        """The callee cut in on the agent's last reply after `spoken`: a disclosure not yet
        said is said with the next reply; a reply cut before a word was said is said again
        if the callee only greets."""
        said = " ".join(spoken.lower().split())
        if self.plan.disclosure and self.plan.disclosure in self._last:
            self._disclosed = " ".join(self.plan.disclosure.lower().split()) in said
        if not said:
            self._unheard = self._last
        self._opt_out_unheard = self._opted_out and " ".join(self._last.lower().split()) not in said

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, FlowStartFrame):
            if not self.runner.started:
                await self.perform(await self.runner.start())
            return
        if isinstance(frame, FlowResumeFrame):
            await self.perform(await self.runner.resume(False, line=frame.line))
            return
        if isinstance(frame, LLMContextFrame) and direction == FrameDirection.DOWNSTREAM:
            await self._heard(_last_user_text(frame))
            return
        await self._watch_quiet(frame)
        await self.push_frame(frame, direction)

    async def _heard(self, heard: str) -> None:
        if self._voicemail is not None:
            return
        if self.runner.state.ended:
            if not self._goodbye_heard():
                # The callee talked over the last words: close again (an opt-out's reply not
                # heard whole, again: they must hear that they will not be called).
                again, self._opt_out_unheard = self._opt_out_unheard, False
                await self._say(self._last if again else "Goodbye.", end_call=True)
            return
        node = self.runner.waiting_on
        if node is not None and isinstance(node.action, TransferAction):
            if not self._goodbye_heard():
                # The callee talked over the line before the transfer, which was dropped with
                # it: hand them over now.
                await self._act(ActionRequest(node.id, node.action), "")
            return
        unheard, self._unheard = self._unheard, ""
        if unheard and classify(heard) is Intent.GREETING:
            await self._say(unheard)
            return
        key = key_in_message(heard)
        if not self._human and key is None:
            if classify(heard) is Intent.VOICEMAIL:
                await self._leave_voicemail()
                return
            self._human = bool(heard.strip())
        await self.perform(await self.runner.hear(f"pressed {key}" if key else heard))

    async def _leave_voicemail(self) -> None:
        turn = self.runner.voicemail()
        self._steps(turn)
        text = " ".join(turn.lines) or self.policy.voicemail_message().text
        if self.plan.voicemail == "hangup":
            text = ""
        self.policy.ended = True
        await self._on_voicemail(Reply(text, end_call=True, intent=Intent.VOICEMAIL))

    def _steps(self, turn: Turn) -> None:
        for step in turn.steps:
            self._report_step(step)

    async def perform(self, turn: Turn) -> None:
        """Say the turn's lines and do its actions, in order."""
        self._steps(turn)
        parts = list(turn.parts)
        if not self._disclosed and turn.lines:
            first = next(i for i, p in enumerate(parts) if isinstance(p, str))
            parts.insert(first + 1, self.plan.disclosure)
            self._disclosed = True
        said: list[str] = []
        for part in parts:
            if isinstance(part, str):
                said.append(part)
                continue
            if await self._act(part, " ".join(said)):
                return
            said = []
        text = " ".join(said)
        if turn.ended and turn.end_reason == "voicemail":
            await self._on_voicemail(Reply(text, end_call=True, intent=Intent.VOICEMAIL))
        elif turn.ended:
            self._opted_out = turn.end_reason == "opt_out"
            await self._say(text, end_call=True)
        elif text:
            await self._say(text)

    async def _say(self, text: str, *, end_call: bool = False, keys: str = "") -> None:
        if text:
            self._last = text
        await self.say(Reply(text, end_call=end_call, keys=keys))

    async def _act(self, request: ActionRequest, text: str) -> bool:
        """Say `text`, then do the action; True when the turn stops here (it waits)."""
        action = request.action
        if isinstance(action, PressDigitsAction):
            await self._say(text, keys=action.digits)
            return False
        await self._say(text)
        if isinstance(action, TransferAction):
            node = self.runner.graph.node(request.node_id)
            summary = f"A call from the AI assistant's flow, at '{node.name}'."
            await self.push_frame(
                TransferFrame(
                    department=action.department,
                    summary=summary,
                    number=action.number,
                    mode=action.mode,
                )
            )
            return True
        if isinstance(action, ToolAction):
            self.create_task(self._tool(action, request.arguments))
            return True
        return False

    async def _tool(self, action: ToolAction, arguments: dict[str, Any]) -> None:
        ok, answer = await self._run_tool(action, arguments)
        if isinstance(self.runner.waiting_on, ActionNode):
            await self.perform(await self.runner.resume(ok, answer))
