"""The offline brain's transfer (docs/actions.md, "Transfer"): a callee who asks for a person,
a human or a department is handed over after a short line; a call with nowhere to go says so
and goes on; back after a failed transfer, the agent apologises and asks what it had not."""

from __future__ import annotations

import pytest

from callwright.voice_agent.policy import (
    CONNECTING,
    NO_TRANSFER,
    NOT_AGAIN,
    ROBOT,
    ROBOT_REPLY,
    Handoff,
    Intent,
    OfflinePolicy,
    classify,
)

PROMPT = (
    "You are Sam from Acme Dental. You are calling to confirm a cleaning. "
    "Ask if Tuesday works. Ask if they need parking."
)


@pytest.mark.parametrize(
    "heard",
    [
        "Can I speak to a real person, please?",
        "I'd like to talk to a human.",
        "I want a real person.",
        "Put me through to someone.",
        "Can you transfer me?",
    ],
)
def test_asking_for_a_person_is_a_transfer(heard: str) -> None:
    assert classify(heard) is Intent.TRANSFER


@pytest.mark.parametrize("heard", ["Is this a real person?", "Yes, speaking.", "Who is this?"])
def test_other_words_are_not(heard: str) -> None:
    assert classify(heard) is not Intent.TRANSFER


def test_the_agent_says_its_line_then_hands_over_to_the_department_named() -> None:
    policy = OfflinePolicy(PROMPT, can_transfer=True, departments=("default", "Billing"))
    policy.opening()
    reply = policy.respond("Could I talk to billing please?")
    assert reply.text == CONNECTING
    assert reply.transfer == Handoff(
        "Billing",
        "A call from Sam from Acme Dental, the AI assistant: the callee asked to speak to Billing.",
    )
    assert policy.ended
    plain = OfflinePolicy(PROMPT, can_transfer=True)
    plain.opening()
    assert plain.respond("Can I speak to a real person?").transfer == Handoff(
        None,
        "A call from Sam from Acme Dental, the AI assistant: the callee asked to speak to a "
        "person.",
    )


def test_without_a_transfer_number_the_conversation_goes_on() -> None:
    """The opening's question was not answered (the callee asked for a person instead): it is
    asked again, not skipped."""
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    reply = policy.respond("Can I speak to a real person?")
    assert reply.transfer is None
    assert reply.text == f"{NO_TRANSFER} Could you tell me if tuesday works?"
    assert not policy.ended


def test_back_after_a_failed_transfer_it_asks_what_it_had_not() -> None:
    policy = OfflinePolicy(PROMPT, can_transfer=True)
    first = policy.opening().text
    reply = policy.resumed([first], "I'm sorry, the line was busy.")
    assert reply.text == "I'm sorry, the line was busy. Could you tell me if you need parking?"
    assert (policy.greeted, policy.ended) == (True, False)


def test_asked_again_after_a_failed_transfer_it_does_not_try_again() -> None:
    """The callee asks for a person again (their "Hello?" cut the apology, or they insist):
    the busy or unanswered line is not rung again; the agent helps and goes on."""
    policy = OfflinePolicy(PROMPT, can_transfer=True)
    first = policy.opening().text
    policy.resumed([first], "I'm sorry, the line was busy.")
    again = policy.respond("Can I please speak to a real person?")
    assert again.transfer is None
    assert again.text.startswith(NOT_AGAIN)
    assert again.text.endswith("Could you tell me if you need parking?")
    fresh = OfflinePolicy(PROMPT, can_transfer=True)
    fresh.opening()
    assert fresh.respond("Can I please speak to a real person?").transfer is not None


@pytest.mark.parametrize("spoken", ["", "I'm sorry,"])
def test_a_comeback_cut_before_its_apology_owes_it_on_the_callees_turn(spoken: str) -> None:
    """Back on the line, the callee's "Hello? Are you still there?" may cut in before the
    apology is heard: the answer to it is the apology and the question, not a new greeting."""
    policy = OfflinePolicy(PROMPT, can_transfer=True)
    first = policy.opening().text
    policy.resumed([first], "I'm sorry, the line was busy.")
    policy.interrupted(spoken)
    reply = policy.respond("Hello? Are you still there?")
    assert reply.text == "I'm sorry, the line was busy. Could you tell me if you need parking?"
    # Once said, it is not owed again.
    assert not policy.respond("Yes, I do.").text.startswith("I'm sorry, the line was busy.")


def test_a_comeback_heard_whole_is_not_said_again() -> None:
    policy = OfflinePolicy(PROMPT, can_transfer=True)
    first = policy.opening().text
    back = policy.resumed([first], "I'm sorry, the line was busy.")
    policy.interrupted(back.text)
    assert "line was busy" not in policy.respond("Hello? Are you still there?").text


@pytest.mark.parametrize(
    "heard",
    ["Wait, are you a robot?", "Is this a real person?", "Am I talking to a machine?"],
)
def test_asked_whether_it_is_a_robot_it_says_so_and_asks_again(heard: str) -> None:
    """The honest answer (as a flow's robot global says it), then the question still open."""
    policy = OfflinePolicy(PROMPT)
    policy.opening()
    reply = policy.respond(heard)
    assert reply.text == f"{ROBOT_REPLY} Could you tell me if tuesday works?"
    assert not reply.end_call


def test_real_estate_or_human_resources_are_not_robot_questions() -> None:
    assert not ROBOT.search("is this about the real estate listing?")
    assert not ROBOT.search("is this the human resources department?")
