"""The agent's brain: an OpenAI-compatible LLM when one is configured, else the offline policy
as a Pipecat processor; and the context (system message, tools) that either one starts from."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    Frame,
    FunctionCallResultProperties,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.openai.llm import OpenAILLMService

from callwright.voice_agent import ivr
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.keypad import (
    KEYPAD_STYLE,
    PRESS_DIGITS,
    KeysFrame,
    key_in_message,
    register_press_digits,
)
from callwright.voice_agent.policy import (
    Intent,
    OfflinePolicy,
    Reply,
    classify,
    llm_opening,
)
from callwright.voice_agent.tools import TOOLS_STYLE, ToolCalls, tool_schemas
from callwright.voice_agent.transfer import (
    LLM_RULE,
    register_transfer,
    reply_transfer,
    resumed,
    transfer_tools,
)


@dataclass(frozen=True)
class LLMConfig:
    """An OpenAI-compatible chat-completions endpoint."""

    base_url: str
    api_key: str
    model: str


#: How a reply the callee talked over ends in the LLM's context (see keep_what_was_said).
CUT_OFF = " [cut off]"
PHONE_STYLE = (
    "You are speaking on a phone call, so keep every reply to one or two short sentences, with no "
    "lists, markdown or emoji. Speak first with a short greeting that says who you are and why you "
    "are calling. If you reach voicemail, leave a short message. When the conversation is over, say "
    "goodbye and then call the end_call function. A reply of yours that ends with"
    f" {CUT_OFF.strip()} was interrupted there by the callee: they heard what came before it, so "
    "never say it again (introduce yourself only once); answer them, then go on with what you had "
    "not said yet if it still matters."
)
#: Added to the system message when the call has a fixed opening line.
FIRST_SENTENCE = (
    '\n\nThe call opens with this line, already spoken for you: "{}". Do not greet or introduce '
    "yourself again; go on from it."
)
#: Added when the call opens with the disclosure alone (the model then introduces itself).
DISCLOSED = (
    '\n\nThe call opens with this line, already spoken for you: "{}". Go on from it: say who '
    "you are and why you are calling, without saying hello again, and do not repeat it."
)
END_CALL = FunctionSchema(
    name="end_call",
    description="Hang up the call. Call it right after you have said goodbye.",
    properties={},
    required=[],
)


def brain_context(plan: CallPlan, *, llm: bool) -> LLMContext:
    """The conversation's context: the prompt as the system message (for an LLM, with the phone
    style and the end_call tool)."""
    if llm:
        system = f"{plan.prompt}\n\n{PHONE_STYLE}{KEYPAD_STYLE}"
        if plan.first_sentence:
            system += FIRST_SENTENCE.format(llm_opening(plan.first_sentence, plan.disclosure))
        elif plan.disclosure:
            system += DISCLOSED.format(llm_opening(None, plan.disclosure))
        if plan.tools:
            system += TOOLS_STYLE
        if plan.can_transfer:
            system += LLM_RULE
        return LLMContext(
            messages=[{"role": "system", "content": system}, *resumed(plan)],
            tools=ToolsSchema(
                standard_tools=[END_CALL, PRESS_DIGITS, *transfer_tools(plan), *tool_schemas(plan)]
            ),
        )
    return LLMContext(messages=[{"role": "system", "content": plan.prompt}, *resumed(plan)])


def llm_brain(config: LLMConfig, plan: CallPlan, tools: ToolCalls | None = None) -> FrameProcessor:
    """The LLM service; its end_call function ends the call like the offline brain's last reply,
    and the call's custom tools (voice_agent/tools.py) are its other functions."""
    llm = OpenAILLMService(
        api_key=config.api_key or "not-needed",
        base_url=config.base_url,
        settings=OpenAILLMService.Settings(model=config.model, temperature=plan.temperature),
    )

    async def end_call(params: Any) -> None:
        await params.result_callback(
            {"status": "hanging up"}, properties=FunctionCallResultProperties(run_llm=False)
        )
        await llm.push_frame(FinalReplyFrame())

    llm.register_function("end_call", end_call)
    register_press_digits(llm)
    register_transfer(llm, plan)
    if tools is not None:
        tools.register(llm)
    return llm


class _Replies(FrameProcessor):
    """Speaks replies as an LLM response would, and holds a voicemail's reply (a message, or a
    silent hang-up) until the greeting and its beep are over: one quiet second after the last
    sound on the line."""

    VOICEMAIL_QUIET_SECONDS = 1.0

    def __init__(self, *, speed: float = 1.0) -> None:
        super().__init__()
        self._speed = max(1.0, speed)
        self._voicemail: Reply | None = None
        self._voicemail_task: asyncio.Task[None] | None = None

    async def _on_voicemail(self, reply: Reply) -> None:
        """Say `reply` (its text may be empty: just hang up) once the line is quiet."""
        self._voicemail = reply
        await self._after_quiet()

    async def _watch_quiet(self, frame: Frame) -> None:
        """While a voicemail reply waits, the callee's sounds put it off."""
        if self._voicemail is None:
            return
        if isinstance(frame, VADUserStartedSpeakingFrame) and self._voicemail_task is not None:
            await self.cancel_task(self._voicemail_task)
            self._voicemail_task = None
        elif isinstance(frame, VADUserStoppedSpeakingFrame):
            await self._after_quiet()

    async def _after_quiet(self) -> None:
        if self._voicemail_task is not None:
            await self.cancel_task(self._voicemail_task)

        async def speak_when_quiet() -> None:
            await asyncio.sleep(self.VOICEMAIL_QUIET_SECONDS / self._speed)
            reply, self._voicemail = self._voicemail, None
            self._voicemail_task = None
            if reply is not None:
                await self.say(reply)

        self._voicemail_task = self.create_task(speak_when_quiet())

    async def cleanup(self) -> None:
        if self._voicemail_task is not None:
            await self.cancel_task(self._voicemail_task)
            self._voicemail_task = None
        await super().cleanup()

    async def say(self, reply: Reply) -> None:
        if reply.text:
            await self.push_frame(LLMFullResponseStartFrame())
            await self.push_frame(LLMTextFrame(reply.text))
            await self.push_frame(LLMFullResponseEndFrame())
        if reply.keys:
            await self.push_frame(KeysFrame(reply.keys))
        if reply.transfer is not None:
            await self.push_frame(reply_transfer(reply))
        elif reply.end_call:
            await self.push_frame(FinalReplyFrame())


class OfflineBrain(_Replies):
    """Answers each finished user turn with the offline policy (see policy.py); on voicemail,
    its message (or, without `voicemail_message`, a silent hang-up) waits for quiet."""

    def __init__(
        self,
        policy: OfflinePolicy,
        *,
        voicemail_message: bool = True,
        speed: float = 1.0,
        goodbye_heard: Callable[[], bool] = lambda: True,
    ) -> None:
        super().__init__(speed=speed)
        self.policy = policy
        self.voicemail_message = voicemail_message
        #: Whether the closing words have played to their end (the closer's `played_out`).
        self._goodbye_heard = goodbye_heard

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame) and direction == FrameDirection.DOWNSTREAM:
            if self.policy.ended and self._voicemail is None:
                if self._goodbye_heard():
                    return
                # The callee spoke before the goodbye had played to its end ("Bye." over it):
                # answer, whether or not the closer downstream has seen the interruption yet
                # (it reopens the call too); a turn dropped here left both sides waiting.
                self.policy.reopen()
            if self._voicemail is None:
                heard = _last_user_text(frame)
                key = key_in_message(heard)
                if key is not None:
                    await self.say(self.policy.pressed(key))
                    return
                reply = self.policy.respond(heard)
                if reply.intent is Intent.VOICEMAIL:
                    if not self.voicemail_message:
                        reply = Reply("", end_call=True, intent=reply.intent)
                    await self._on_voicemail(reply)
                    return
                await self.say(reply)
            return
        await self._watch_quiet(frame)
        await self.push_frame(frame, direction)


class LLMOpener(_Replies):
    """Sits before the LLM and speaks what the call's settings and the rules fix: the first
    sentence (when the callee spoke first, with wait_for_greeting), on voicemail the call's own
    message or a silent hang-up, and on an opt-out the acknowledgement and the hang-up. Every other turn goes on to the model (a voicemail with no message of its
    own too: the model leaves a short one, as its system message asks)."""

    def __init__(self, policy: OfflinePolicy, plan: CallPlan, *, speed: float = 1.0) -> None:
        super().__init__(speed=speed)
        self.policy = policy
        self.plan = plan
        self._closing = False
        #: A person answered (the first turn was not a voicemail's): no voicemail after that,
        #: so "I'm not available on Monday" never hangs up on them.
        self._human = False
        #: What the callee said last (the goodbye watch reads it).
        self.heard = ""

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame) and direction == FrameDirection.DOWNSTREAM:
            if self._closing:
                # The opt-out's reply cut before it was heard is said again; otherwise the
                # closing reply is on its way and the model is not asked again.
                if again := self.policy.confirm_again():
                    await self.say(again)
                return
            heard = self.heard = _last_user_text(frame)
            if ivr.menu_options(heard):
                # A phone menu: the model presses its keys; the disclosure waits for a person.
                await self.push_frame(frame, direction)
                return
            if ivr.system_talk(heard):
                # A phone system's own talk ("Thanks for calling Acme."), the first sentence of
                # a menu prompt when the turn ended on it: not answered, as in the offline
                # policy. The model hears it with the menu or the person that follows.
                return
            # The disclosure a cut opening did not get to say is said before anything else.
            owed = self.policy.owed_disclosure()
            if classify(heard) is Intent.OPT_OUT:
                # Not left to the model: the acknowledgement and the hang-up are the rule's.
                self._closing = True
                await self.say(self.policy.opt_out(owed))
                return
            voicemail = not self._human and classify(heard) is Intent.VOICEMAIL
            self._human = self._human or (bool(heard.strip()) and not voicemail)
            if voicemail and (self.plan.voicemail == "hangup" or self.plan.voicemail_message):
                self._closing = True
                self.policy.greeted = True
                text = self.plan.voicemail_message if self.plan.voicemail == "message" else ""
                await self._on_voicemail(Reply(text or "", end_call=True, intent=Intent.VOICEMAIL))
                return
            if self.plan.first_sentence and not self.policy.greeted and not voicemail:
                await self.say(self.policy.opening())
                return
            if self.plan.disclosure and not self.policy.greeted and not voicemail:
                # The callee spoke first: the disclosure, then the model answers them.
                await self.say(Reply(llm_opening(None, self.plan.disclosure)))
            elif owed:
                await self.say(Reply(owed))
            self.policy.greeted = True
        await self._watch_quiet(frame)
        await self.push_frame(frame, direction)


def _last_user_text(frame: LLMContextFrame) -> str:
    for message in reversed(frame.context.get_messages()):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def keep_what_was_said(policy: OfflinePolicy, context: LLMContext, spoken: str) -> None:
    """The callee cut in on the agent after `spoken` had been said. The offline policy takes
    back what was not said (policy.interrupted); for an LLM, the message Pipecat put in the
    context (the sentences that were said) is marked as cut off, which the system message
    explains, so the model neither repeats it nor believes the rest was heard."""
    policy.interrupted(spoken)
    if not spoken:
        return
    messages = list(context.get_messages())
    for i in reversed(range(len(messages))):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") == "assistant":
            if message.get("content") == spoken:
                marked: Any = {**message, "content": spoken + CUT_OFF}
                messages[i] = marked
                context.set_messages(messages)
            return
