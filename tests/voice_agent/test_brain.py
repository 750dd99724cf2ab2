"""The offline brain (OfflineBrain) under Pipecat's run_test: each finished user turn (a context
frame) in, the policy's reply out as an LLM response; a voicemail message waits for quiet."""

from __future__ import annotations

from collections.abc import Sequence

from pipecat.frames.frames import (
    Frame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TextFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.tests.utils import SleepFrame, run_test

from callwright.voice_agent.brain import (
    CUT_OFF,
    LLMOpener,
    OfflineBrain,
    brain_context,
    keep_what_was_said,
)
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.policy import OPT_OUT_REPLY, OfflinePolicy

PROMPT = (
    "You are Sarah from Bright Dental. You are calling to remind the customer about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)
#: The brain waits VOICEMAIL_QUIET_SECONDS / SPEED of quiet before a voicemail message.
SPEED = 10.0
QUIET = OfflineBrain.VOICEMAIL_QUIET_SECONDS / SPEED


def _turn(*said: str) -> LLMContextFrame:
    """What the user aggregator pushes when the callee's turn is over."""
    messages = [{"role": "system", "content": PROMPT}]
    messages += [{"role": "user", "content": text} for text in said]
    return LLMContextFrame(context=LLMContext(messages=messages))  # type: ignore[arg-type]


def _texts(frames: Sequence[Frame]) -> list[str]:
    return [f.text for f in frames if isinstance(f, LLMTextFrame)]


async def test_a_user_turn_is_answered_as_an_llm_response() -> None:
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    down, up = await run_test(
        OfflineBrain(policy),
        frames_to_send=[_turn("Hello?", "Sorry, who is this?")],
        expected_down_frames=[LLMFullResponseStartFrame, LLMTextFrame, LLMFullResponseEndFrame],
        expected_up_frames=[],
    )
    assert up == []
    # The last user message is the one answered; the call goes on (no FinalReplyFrame).
    (text,) = _texts(down)
    assert text.startswith("Sorry, this is Sarah from Bright Dental.")
    assert text.endswith("Could you tell me if the time still works for you?")
    assert policy.turns == 1
    assert not policy.ended


async def test_a_closing_reply_is_followed_by_the_final_reply_frame() -> None:
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    down, _ = await run_test(
        OfflineBrain(policy),
        frames_to_send=[_turn("No thanks, I'm not interested.")],
        expected_down_frames=[
            LLMFullResponseStartFrame,
            LLMTextFrame,
            LLMFullResponseEndFrame,
            FinalReplyFrame,
        ],
    )
    assert _texts(down) == ["I understand. Thank you for your time, and have a nice day. Goodbye."]
    assert policy.ended


async def test_an_opt_out_is_not_left_to_the_model() -> None:
    """On the LLM path the opener answers an opt-out itself and hangs up: the context frame
    never reaches the model."""
    policy = OfflinePolicy(PROMPT)
    policy.greeted = True
    plan = CallPlan(
        call_id="c1",
        prompt=PROMPT,
        voice="joe",
        temperature=0.7,
        interruption_threshold_ms=100,
        background_audio="null",
        max_duration_seconds=60,
        wait_for_greeting=False,
    )
    down, _ = await run_test(
        LLMOpener(policy, plan),
        frames_to_send=[_turn("Hello?", "Please stop calling me and take me off your list.")],
        expected_down_frames=[
            LLMFullResponseStartFrame,
            LLMTextFrame,
            LLMFullResponseEndFrame,
            FinalReplyFrame,
        ],
    )
    assert _texts(down) == [OPT_OUT_REPLY]
    assert not any(isinstance(f, LLMContextFrame) for f in down)
    assert policy.ended


async def test_after_the_end_further_turns_get_no_answer_and_other_frames_pass() -> None:
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    policy.respond("goodbye")
    await run_test(
        OfflineBrain(policy),
        frames_to_send=[_turn("Wait, one more thing"), TextFrame("passes through")],
        expected_down_frames=[TextFrame],
    )
    assert policy.turns == 1, "the ended policy was not asked again"


async def test_the_first_turn_before_any_greeting_is_answered_with_the_greeting() -> None:
    policy = OfflinePolicy(PROMPT)
    down, _ = await run_test(
        OfflineBrain(policy),
        frames_to_send=[_turn("Hello?")],
        expected_down_frames=[LLMFullResponseStartFrame, LLMTextFrame, LLMFullResponseEndFrame],
    )
    (text,) = _texts(down)
    assert text.startswith("Hi, this is Sarah from Bright Dental.")
    assert text.endswith("Could you tell me if the time still works for you?")
    assert policy.greeted


async def test_a_voicemail_message_waits_for_quiet_after_the_beep() -> None:
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    down, _ = await run_test(
        OfflineBrain(policy, speed=SPEED),
        frames_to_send=[
            _turn("You have reached Dana. Please leave a message after the tone."),
            SleepFrame(sleep=QUIET / 2),
            VADUserStartedSpeakingFrame(),  # the beep: the message must not start over it
            SleepFrame(sleep=QUIET * 3),
            VADUserStoppedSpeakingFrame(),
            SleepFrame(sleep=QUIET * 3),
        ],
        expected_down_frames=[
            VADUserStartedSpeakingFrame,
            VADUserStoppedSpeakingFrame,
            LLMFullResponseStartFrame,
            LLMTextFrame,
            LLMFullResponseEndFrame,
            FinalReplyFrame,
        ],
    )
    (text,) = _texts(down)
    assert text.startswith("Hi, this is Sarah from Bright Dental.")
    assert text.endswith("Please call us back when you can. Thank you, goodbye.")


async def test_on_voicemail_without_a_message_the_call_just_ends() -> None:
    policy = OfflinePolicy(PROMPT)
    down, _ = await run_test(
        OfflineBrain(policy, voicemail_message=False, speed=SPEED),
        frames_to_send=[
            _turn("The person you are calling is not available. Leave a message."),
            SleepFrame(sleep=QUIET * 3),
        ],
        expected_down_frames=[FinalReplyFrame],
    )
    assert _texts(down) == []


GREETING = "Hi, this is Nova from Acme Travel."


def _llm_context(*messages: dict[str, str]) -> LLMContext:
    plan = CallPlan("c1", "You are Nova from Acme Travel.", "joe", 0.5, 100, "none", 60, False)
    context = brain_context(plan, llm=True)
    context.add_messages(list(messages))  # type: ignore[arg-type]
    return context


def test_a_reply_cut_off_is_marked_in_the_llm_context_and_explained() -> None:
    context = _llm_context(
        {"role": "user", "content": "Hello?"}, {"role": "assistant", "content": GREETING}
    )
    keep_what_was_said(OfflinePolicy(PROMPT), context, GREETING)
    messages = context.get_messages()
    assert messages[-1] == {"role": "assistant", "content": GREETING + CUT_OFF}
    system = str(messages[0]["content"])  # type: ignore[index]
    assert CUT_OFF.strip() in system
    assert "introduce yourself only once" in system


def test_only_the_message_that_was_cut_is_marked() -> None:
    # Nothing said (cut before the first sentence): Pipecat adds no message, none is marked.
    context = _llm_context(
        {"role": "assistant", "content": GREETING}, {"role": "user", "content": "Yes."}
    )
    keep_what_was_said(OfflinePolicy(PROMPT), context, "")
    keep_what_was_said(OfflinePolicy(PROMPT), context, "Something else.")
    assert [m["content"] for m in context.get_messages()[1:]] == [GREETING, "Yes."]  # type: ignore[index]


def test_the_offline_policy_keeps_what_was_said_of_its_greeting() -> None:
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    keep_what_was_said(policy, LLMContext(), "Hi, this is Sarah from Bright Dental.")
    reply = policy.respond("Hello?")
    assert not reply.text.startswith("Hi, this is Sarah")
    assert reply.text.startswith("I'm calling to remind you")


def _said_goodbye() -> OfflinePolicy:
    """A policy whose last reply closed the call (the callee said it was the wrong number)."""
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    assert policy.respond("I think you have the wrong number.").end_call
    return policy


async def test_a_turn_spoken_over_the_goodbye_is_answered_before_the_closer_reopens() -> None:
    """The callee says "Bye." over the agent's goodbye: its turn can reach the brain before the
    interruption has reached the closer downstream (which reopens the call). The brain answers
    it all the same, so neither side waits for the other until the callee gives up."""
    policy = _said_goodbye()
    down, _ = await run_test(
        OfflineBrain(policy, goodbye_heard=lambda: False),
        frames_to_send=[_turn("I think you have the wrong number.", "Bye.")],
    )
    assert _texts(down) == ["Thank you for your time. Goodbye."]
    assert any(isinstance(f, FinalReplyFrame) for f in down)


async def test_a_turn_after_the_goodbye_was_heard_is_not_answered() -> None:
    policy = _said_goodbye()
    down, _ = await run_test(
        OfflineBrain(policy, goodbye_heard=lambda: True),
        frames_to_send=[_turn("I think you have the wrong number.", "Bye.")],
    )
    assert _texts(down) == []
    assert policy.ended
