"""The call's own settings in the voice agent, under Pipecat's run_test: the first sentence is
the opening line (offline policy and LLM path), and on voicemail the agent leaves the call's
message or hangs up without one."""

from __future__ import annotations

from dataclasses import replace

from pipecat.frames.frames import (
    Frame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.tests.utils import SleepFrame, run_test

from callwright.calls.media_hooks import voicemail_action
from callwright.config import Settings
from callwright.voice_agent.brain import LLMOpener, OfflineBrain, brain_context
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.policy import OPT_OUT_REPLY, OfflinePolicy
from tests.voice_agent.test_brain import PROMPT, QUIET, SPEED, _texts, _turn

FIRST = "Good morning, this is Sarah calling from Bright Dental about tomorrow's cleaning."
MESSAGE = "Hi, it's Bright Dental. Your cleaning is tomorrow at 3 pm. Call 555 0100 to move it."
VOICEMAIL = "You have reached Dana. Please leave a message after the tone."
RESPONSE: list[type[Frame]] = [LLMFullResponseStartFrame, LLMTextFrame, LLMFullResponseEndFrame]
PLAN = CallPlan("c1", PROMPT, "joe", 0.5, 100, "none", 60, False)


# The offline policy ------------------------------------------------------------------------


def test_the_first_sentence_is_the_opening_and_the_prompt_goes_on_after_it() -> None:
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST)
    assert policy.opening().text == FIRST
    reply = policy.respond("Yes, speaking.")
    assert reply.text == "Great. Could you tell me if the time still works for you?"


def test_a_first_sentence_talked_over_before_a_word_is_said_again() -> None:
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST)
    policy.opening()
    policy.interrupted("")
    assert policy.respond("Hello?").text == FIRST


def test_the_calls_voicemail_message_replaces_the_generated_one() -> None:
    assert OfflinePolicy(PROMPT, voicemail_text=MESSAGE).voicemail_message().text == MESSAGE
    assert "call us back" in OfflinePolicy(PROMPT).voicemail_message().text


async def test_offline_with_wait_for_greeting_the_first_sentence_answers_the_hello() -> None:
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST)
    down, _ = await run_test(
        OfflineBrain(policy), frames_to_send=[_turn("Hello?")], expected_down_frames=RESPONSE
    )
    assert _texts(down) == [FIRST]


async def test_offline_voicemail_leaves_the_calls_message_after_the_beep() -> None:
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST, voicemail_text=MESSAGE)
    policy.opening()
    down, _ = await run_test(
        OfflineBrain(policy, speed=SPEED),
        frames_to_send=[
            _turn(VOICEMAIL),
            SleepFrame(sleep=QUIET / 2),
            VADUserStartedSpeakingFrame(),  # the beep
            SleepFrame(sleep=QUIET * 2),
            VADUserStoppedSpeakingFrame(),
            SleepFrame(sleep=QUIET * 3),
        ],
        expected_down_frames=[
            VADUserStartedSpeakingFrame,
            VADUserStoppedSpeakingFrame,
            *RESPONSE,
            FinalReplyFrame,
        ],
    )
    assert _texts(down) == [MESSAGE]


# The LLM path: the opener before the model --------------------------------------------------


def test_the_llm_is_told_the_first_sentence_was_said() -> None:
    def system(plan: CallPlan) -> str:
        return str(brain_context(plan, llm=True).get_messages()[0]["content"])  # type: ignore[index]

    assert f'"{FIRST}"' in system(replace(PLAN, first_sentence=FIRST))
    assert "Do not greet" in system(replace(PLAN, first_sentence=FIRST))
    assert "Do not greet" not in system(PLAN)


async def test_llm_the_first_sentence_answers_the_hello_and_later_turns_reach_the_model() -> None:
    plan = replace(PLAN, first_sentence=FIRST)
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST)
    down, _ = await run_test(
        LLMOpener(policy, plan),
        frames_to_send=[_turn("Hello?"), _turn("Hello?", "Oh yes, what time was it?")],
        expected_down_frames=[*RESPONSE, LLMContextFrame],
    )
    assert _texts(down) == [FIRST]
    assert policy.greeted


async def test_llm_without_a_first_sentence_every_turn_reaches_the_model() -> None:
    policy = OfflinePolicy(PROMPT)
    await run_test(
        LLMOpener(policy, PLAN),
        frames_to_send=[_turn("Hello?")],
        expected_down_frames=[LLMContextFrame],
    )


async def test_llm_voicemail_hangup_ends_the_call_without_a_word_or_the_model() -> None:
    plan = replace(PLAN, voicemail="hangup", voicemail_message=MESSAGE)
    down, _ = await run_test(
        LLMOpener(OfflinePolicy(PROMPT), plan, speed=SPEED),
        frames_to_send=[_turn(VOICEMAIL), SleepFrame(sleep=QUIET * 3), _turn(VOICEMAIL, "beep")],
        expected_down_frames=[FinalReplyFrame],
    )
    assert _texts(down) == []


async def test_llm_once_a_person_answered_their_words_never_end_the_call() -> None:
    plan = replace(PLAN, voicemail="hangup")
    await run_test(
        LLMOpener(OfflinePolicy(PROMPT), plan, speed=SPEED),
        frames_to_send=[
            _turn("Hello, Dana speaking."),
            _turn("Hello, Dana speaking.", "I'm not available on Monday, leave a message there."),
            SleepFrame(sleep=QUIET * 3),
        ],
        expected_down_frames=[LLMContextFrame, LLMContextFrame],
    )


async def test_llm_voicemail_leaves_the_calls_own_message() -> None:
    plan = replace(PLAN, first_sentence=FIRST, voicemail_message=MESSAGE)
    down, _ = await run_test(
        LLMOpener(OfflinePolicy(PROMPT, first_sentence=FIRST), plan, speed=SPEED),
        frames_to_send=[_turn(VOICEMAIL), SleepFrame(sleep=QUIET * 3)],
        expected_down_frames=[*RESPONSE, FinalReplyFrame],
    )
    assert _texts(down) == [MESSAGE], "the voicemail gets the message, not the first sentence"


async def test_llm_voicemail_without_a_message_of_its_own_is_left_to_the_model() -> None:
    await run_test(
        LLMOpener(OfflinePolicy(PROMPT), PLAN, speed=SPEED),
        frames_to_send=[_turn(VOICEMAIL)],
        expected_down_frames=[LLMContextFrame],
    )


def test_the_operator_can_forbid_voicemail_messages() -> None:
    message, hangup = Settings(voicemail_action="message"), Settings(voicemail_action="hangup")
    assert voicemail_action("leave_message", message) == "message"
    assert voicemail_action("hangup", message) == "hangup"
    assert voicemail_action("leave_message", hangup) == "hangup"


# The LLM path's owed disclosure (the offline policy's: test_policy.py) -----------------------

DISCLOSURE = "I'm an AI assistant, and this call is recorded."
ON_THE_LLM = replace(PLAN, disclosure=DISCLOSURE)


async def test_llm_a_first_sentence_cut_before_the_disclosure_says_it_before_the_model() -> None:
    """The callee cut in right after the first sentence: on their turn the disclosure is said,
    then the model answers them; once (the turn after goes straight to the model)."""
    policy = OfflinePolicy(PROMPT, first_sentence=FIRST, disclosure=DISCLOSURE)
    assert policy.opening().text == f"{FIRST} {DISCLOSURE}"
    policy.interrupted(FIRST)
    down, _ = await run_test(
        LLMOpener(policy, replace(ON_THE_LLM, first_sentence=FIRST)),
        frames_to_send=[_turn("Sorry, who?"), _turn("Sorry, who?", "Okay.")],
        expected_down_frames=[*RESPONSE, LLMContextFrame, LLMContextFrame],
    )
    assert _texts(down) == [DISCLOSURE]


async def test_llm_a_phone_systems_own_talk_is_not_answered_a_person_is() -> None:
    # A turn ended on a menu prompt's first sentence: neither the model nor the disclosure.
    policy = OfflinePolicy(PROMPT)
    down, _ = await run_test(
        LLMOpener(policy, ON_THE_LLM),
        frames_to_send=[
            _turn("Thanks for calling Acme Supplies."),
            _turn("Thanks for calling Acme Supplies.", "Thank you for calling, how can I help?"),
        ],
        expected_down_frames=[*RESPONSE, LLMContextFrame],
    )
    assert _texts(down) == [f"Hello! {DISCLOSURE}"]


async def test_llm_a_hello_cut_before_the_disclosure_says_it_before_the_model() -> None:
    policy = OfflinePolicy(PROMPT, disclosure=DISCLOSURE)
    assert policy.llm_opening().text == f"Hello! {DISCLOSURE}"
    policy.interrupted("Hello!")
    down, _ = await run_test(
        LLMOpener(policy, ON_THE_LLM),
        frames_to_send=[_turn("Hi, who is this?")],
        expected_down_frames=[*RESPONSE, LLMContextFrame],
    )
    assert _texts(down) == [DISCLOSURE]


async def test_llm_an_opening_heard_whole_owes_nothing() -> None:
    policy = OfflinePolicy(PROMPT, disclosure=DISCLOSURE)
    policy.llm_opening()
    await run_test(
        LLMOpener(policy, ON_THE_LLM),
        frames_to_send=[_turn("Hi, who is this?")],
        expected_down_frames=[LLMContextFrame],
    )


async def test_llm_an_opt_out_over_the_opening_gets_the_disclosure_first() -> None:
    policy = OfflinePolicy(PROMPT, disclosure=DISCLOSURE)
    policy.llm_opening()
    policy.interrupted("Hello!")
    opener = LLMOpener(policy, ON_THE_LLM)
    down, _ = await run_test(
        opener,
        frames_to_send=[_turn("Stop calling me and take me off your list.")],
        expected_down_frames=[*RESPONSE, FinalReplyFrame],
    )
    assert _texts(down) == [f"{DISCLOSURE} {OPT_OUT_REPLY}"]
    policy.interrupted(DISCLOSURE)  # "Bye." over the acknowledgement: it is said again
    down, _ = await run_test(
        opener,
        frames_to_send=[_turn("Bye.")],
        expected_down_frames=[*RESPONSE, FinalReplyFrame],
    )
    assert _texts(down) == [OPT_OUT_REPLY]
