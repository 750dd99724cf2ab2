"""The AI disclosure and recording notice (docs/compliance.md): a user's wording must say the
caller is an AI; the recording notice is added when left out; the agent says it in its first
turn, after the introduction or the first sentence, and again when the callee cut it off."""

from __future__ import annotations

from dataclasses import replace

import pytest

from callwright.compliance.disclosure import (
    DEFAULT_DISCLOSURE,
    NOT_AI,
    RECORDING_NOTICE,
    checked,
    spoken,
)
from callwright.voice_agent.brain import brain_context
from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.policy import OfflinePolicy, llm_opening

PROMPT = (
    "You are Sarah from Bright Dental. You are calling to remind the customer about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (None, None),
        ("   ", None),
        ("I'm  an AI\n assistant.", "I'm an AI assistant."),
        ("This is an automated call from Acme.", "This is an automated call from Acme."),
        ("You're talking to a virtual agent.", "You're talking to a virtual agent."),
    ],
)
def test_a_wording_that_says_ai_is_kept_trimmed(given: str | None, kept: str | None) -> None:
    assert checked(given) == kept


@pytest.mark.parametrize("given", ["Hi, this is Acme calling.", "Our aide will call.", "MAIL"])
def test_a_wording_that_hides_the_ai_is_refused(given: str) -> None:
    with pytest.raises(ValueError, match="must say that the caller is an AI"):
        checked(given)
    assert NOT_AI.startswith("The disclosure must say")


def test_the_recording_notice_is_added_when_left_out() -> None:
    assert spoken(None) == DEFAULT_DISCLOSURE
    assert spoken("I'm an AI assistant.") == f"I'm an AI assistant. {RECORDING_NOTICE}"
    assert spoken("I'm an AI; we record calls.") == "I'm an AI; we record calls."


def test_the_offline_opening_says_it_after_the_introduction() -> None:
    policy = OfflinePolicy(PROMPT, disclosure=DEFAULT_DISCLOSURE)
    text = policy.opening().text
    assert text.startswith(f"Hi, this is Sarah from Bright Dental. {DEFAULT_DISCLOSURE} ")
    assert text.endswith("Could you tell me if the time still works for you?")
    first = OfflinePolicy(PROMPT, first_sentence="Hi Ann!", disclosure=DEFAULT_DISCLOSURE)
    assert first.opening().text == f"Hi Ann! {DEFAULT_DISCLOSURE}"


@pytest.mark.parametrize("first_sentence", [None, "Hi Ann, it's Sarah from Bright Dental."])
def test_an_opening_cut_after_the_introduction_still_owes_the_disclosure(
    first_sentence: str | None,
) -> None:
    policy = OfflinePolicy(PROMPT, first_sentence=first_sentence, disclosure=DEFAULT_DISCLOSURE)
    opening = policy.opening().text
    intro = opening.split(". ")[0] + "."
    policy.interrupted(intro)
    reply = policy.respond("Sorry, yes?")
    assert reply.text.startswith(DEFAULT_DISCLOSURE), reply.text


def test_the_llm_is_told_the_disclosure_was_said() -> None:
    plan = CallPlan("c1", PROMPT, "joe", 0.5, 100, "none", 60, False, disclosure="I'm an AI.")
    system = str(brain_context(plan, llm=True).get_messages()[0]["content"])  # type: ignore[index]
    assert 'already spoken for you: "Hello! I\'m an AI."' in system
    assert "say who you are and why you are calling" in system
    with_first = replace(plan, first_sentence="Hi Ann.")
    system = str(brain_context(with_first, llm=True).get_messages()[0]["content"])  # type: ignore[index]
    assert 'already spoken for you: "Hi Ann. I\'m an AI."' in system
    assert llm_opening(None, "") == "Hello!"
