"""The offline demo brain: what it reads from a prompt and how it answers each kind of reply."""

from __future__ import annotations

import pytest

from callwright.sandbox.numbers import SCENARIOS, SPECIAL
from callwright.voice_agent.policy import (
    GOODBYE_REPLY,
    LOOKUP_REPLY,
    OPT_OUT_REPLY,
    Brief,
    Intent,
    OfflinePolicy,
    classify,
    opts_out,
)

DENTAL = (
    "You are Sarah from Bright Dental. You are calling to remind the customer about their cleaning "
    "appointment tomorrow at 3 pm. Ask if the time still works for them. Be friendly and brief."
)
SOLAR = (
    "Your name is Mike and you work for Acme Solar. Call homeowners to offer a free solar assessment. "
    "The assessment takes about twenty minutes and costs $0 per visit. Would they like to book one this week?"
)


def test_brief_reads_name_company_purpose_and_questions() -> None:
    b = Brief.from_prompt(DENTAL)
    assert (b.name, b.company) == ("Sarah", "Bright Dental")
    assert (
        b.purpose == "I'm calling to remind you about your cleaning appointment tomorrow at 3 pm."
    )
    assert b.questions == ("Could you tell me if the time still works for you?",)
    assert b.details == ()  # "Be friendly and brief" is a style instruction, not something to say
    s = Brief.from_prompt(SOLAR)
    assert (s.name, s.company) == ("Mike", "Acme Solar")
    assert s.purpose == "I'm calling to offer a free solar assessment."
    assert s.questions == ("Would you like to book one this week?",)
    assert s.price == "$0 per visit"
    assert s.details == ("The assessment takes about twenty minutes and costs $0 per visit.",)


def test_brief_of_a_bare_prompt_still_introduces_itself() -> None:
    b = Brief.from_prompt("Be nice.")
    policy = OfflinePolicy("Be nice.")
    assert b.name == "Alex"
    assert policy.opening().text == "Hi, this is Alex. Do you have a minute?"


@pytest.mark.parametrize(
    ("heard", "intent"),
    [
        ("Hi, you have reached Alex. Please leave a message after the tone.", Intent.VOICEMAIL),
        ("Sorry, I think you have the wrong number.", Intent.WRONG_PERSON),
        ("No thanks, I am not interested.", Intent.NOT_INTERESTED),
        ("Please stop calling me and take me off your list.", Intent.OPT_OUT),
        ("Don't call me again.", Intent.OPT_OUT),
        ("do not call this number", Intent.OPT_OUT),
        ("Remove my number from your list, please.", Intent.OPT_OUT),
        ("Put me on your do-not-call list.", Intent.OPT_OUT),
        ("No more calls, thank you.", Intent.OPT_OUT),
        ("I am busy right now. Can you call me back tomorrow afternoon?", Intent.LATER),
        ("How much does it cost?", Intent.PRICE),
        ("Hi, who was this?", Intent.WHO),
        ("Goodbye.", Intent.GOODBYE),
        ("No, I don't.", Intent.NO),
        ("Yes, I would like that.", Intent.YES),
        ("When are you open?", Intent.QUESTION),
        ("Hello?", Intent.GREETING),
        ("Hello, this is Sam speaking.", Intent.GREETING),
        ("The weather is nice.", Intent.OTHER),
    ],
)
def test_classify(heard: str, intent: Intent) -> None:
    assert classify(heard) is intent


def _talk(prompt: str, lines: tuple[str, ...]) -> list[tuple[str, bool]]:
    policy = OfflinePolicy(prompt)
    said = [(policy.opening().text, False)]
    for line in lines:
        reply = policy.respond(line)
        said.append((reply.text, reply.end_call))
        if reply.end_call:
            break
    return said


@pytest.mark.parametrize("persona", SCENARIOS, ids=lambda p: p.label)
def test_every_sandbox_person_gets_a_polite_ending(persona: object) -> None:
    said = _talk(DENTAL, persona.lines)  # type: ignore[attr-defined]
    last, ended = said[-1]
    assert ended, said
    assert "goodbye" in last.lower()
    assert all(text for text, _ in said)


def test_answers_follow_the_conversation() -> None:
    policy = OfflinePolicy(DENTAL)
    policy.opening()
    who = policy.respond("Yes, speaking. Who is calling?")
    assert "this is Sarah from Bright Dental" in who.text
    assert "Could you tell me if the time still works for you?" in who.text, (
        "the question is asked again"
    )
    done = policy.respond("Yes, that works.")
    assert done.end_call
    assert "all set" in done.text


def test_later_and_voicemail_and_time_up() -> None:
    later = OfflinePolicy(DENTAL)
    later.opening()
    reply = later.respond("Can you call me back tomorrow afternoon?")
    assert reply.end_call
    assert "tomorrow afternoon" in reply.text
    voicemail = OfflinePolicy(DENTAL)
    reply = voicemail.respond(SPECIAL["+15005550004"].hello)
    assert reply.intent is Intent.VOICEMAIL
    assert reply.end_call
    assert "Bright Dental" in reply.text
    assert "call us back" in reply.text
    assert OfflinePolicy(DENTAL).time_up().end_call


INTRO = "Hi, this is Sarah from Bright Dental."
PURPOSE = "I'm calling to remind you about your cleaning appointment tomorrow at 3 pm."
QUESTION = "Could you tell me if the time still works for you?"


def test_a_greeting_cut_before_a_word_was_said_is_said_whole() -> None:
    policy = OfflinePolicy(DENTAL)
    policy.opening()
    policy.interrupted("")
    assert not policy.greeted
    reply = policy.respond("Hello?")
    assert reply.text == f"{INTRO} {PURPOSE} {QUESTION}"


def test_a_greeting_cut_after_the_introduction_goes_on_without_repeating_it() -> None:
    policy = OfflinePolicy(DENTAL)
    assert policy.opening().text == f"{INTRO} {PURPOSE} {QUESTION}"
    policy.interrupted(INTRO)  # the callee's "Hello?" talked over the rest
    reply = policy.respond("Hello?")
    assert reply.text == f"{PURPOSE} {QUESTION}"
    assert "Sarah" not in reply.text
    assert policy.pending == QUESTION
    # ... and the conversation goes on from there: the question was asked once.
    assert policy.respond("Yes, that works.").end_call


def test_an_opening_cut_before_its_disclosure_says_it_before_a_transfer_an_opt_out_or_a_goodbye() -> (
    None
):
    disclosure = "I'm an AI assistant, and this call is recorded."
    for heard in (
        "Can I speak to a real person, please?",
        "Please stop calling me and take me off your list.",
        "Sorry, wrong number. Bye.",
    ):
        policy = OfflinePolicy(DENTAL, disclosure=disclosure, can_transfer=True)
        assert policy.opening().text.startswith(f"{INTRO} {disclosure}")
        policy.interrupted(INTRO)  # cut after the introduction: the disclosure is owed
        reply = policy.respond(heard)
        assert reply.text.startswith(f"{disclosure} "), (heard, reply.text)
        assert reply.end_call or reply.transfer is not None, heard
    said = OfflinePolicy(DENTAL, disclosure=disclosure, can_transfer=True)
    said.opening()
    said.interrupted(f"{INTRO}{disclosure}")  # said: not said again
    assert disclosure not in said.respond("Can I speak to a real person, please?").text


def test_who_is_calling_over_the_opening_s_disclosure_gets_it_with_the_introduction() -> None:
    """The interrupter of the lab's starter suite ("Sorry, can I stop you there? What is this
    call about?") cut in before the disclosure: who calls, the disclosure, then the purpose."""
    disclosure = "I'm an AI assistant, and this call is recorded."
    policy = OfflinePolicy(DENTAL, disclosure=disclosure)
    policy.opening()
    policy.interrupted(INTRO)
    reply = policy.respond("Sorry, can I stop you there? What is this call about?")
    assert reply.text.startswith(f"Sorry, this is Sarah from Bright Dental. {disclosure} ")
    assert reply.text.endswith(QUESTION)
    said = OfflinePolicy(DENTAL, disclosure=disclosure)
    said.opening()
    said.interrupted(f"{INTRO} {disclosure}")
    assert disclosure not in said.respond("Sorry, who is this?").text


def test_asked_for_a_person_before_the_opening_was_heard() -> None:
    disclosure = "I'm an AI assistant, and this call is recorded."
    policy = OfflinePolicy(DENTAL, disclosure=disclosure, can_transfer=True)
    policy.opening()
    policy.interrupted("")  # talked over before a word was said
    reply = policy.respond("Can I speak to a real person, please?")
    assert reply.transfer is not None
    assert reply.text.startswith(f"Hi, this is Sarah from Bright Dental. {disclosure} ")
    opted = OfflinePolicy(DENTAL, disclosure=disclosure)
    opted.opening()
    opted.interrupted("")
    assert opted.respond("Please stop calling me.").text.startswith(f"{disclosure} ")


def test_a_question_then_goodbye_in_one_turn_is_a_goodbye() -> None:
    policy = OfflinePolicy(DENTAL)
    policy.opening()
    reply = policy.respond(
        "Sorry, can I stop you there? What is this call about? Okay. Thanks. Goodbye."
    )
    assert reply.end_call
    assert reply.text == "Thank you for your time. Goodbye."
    asked = OfflinePolicy(DENTAL)
    asked.opening()
    assert not asked.respond("What is this call about?").end_call, "a question alone is answered"


def test_a_greeting_cut_during_its_question_asks_only_the_question_again() -> None:
    policy = OfflinePolicy(DENTAL)
    policy.opening()
    policy.interrupted(f"{INTRO}{PURPOSE}")  # sentences as Pipecat joins them
    reply = policy.respond("Hello?")
    assert reply.text == f"Nice to talk to you. {QUESTION}"


def test_a_cut_greeting_still_answers_who_is_calling_and_voicemail() -> None:
    who = OfflinePolicy(DENTAL)
    who.opening()
    who.interrupted(INTRO)
    assert (
        who.respond("Sorry, who is this?").text
        == f"Sorry, this is Sarah from Bright Dental. {PURPOSE} {QUESTION}"
    )
    voicemail = OfflinePolicy(DENTAL)
    voicemail.opening()
    voicemail.interrupted(INTRO)
    assert voicemail.respond("Please leave a message after the tone.").end_call


def test_a_question_cut_before_it_was_said_is_asked_next() -> None:
    roof = "Could you tell me how old your roof is?"
    policy = OfflinePolicy(SOLAR + " Ask them how old their roof is.")
    policy.opening()
    assert policy.respond("Yes, sure.").text == f"Great. {roof}"
    policy.interrupted("Great.")  # cut before the question
    assert policy.pending is None
    assert policy.respond("Sorry, go on.").text == f"I see. {roof}"
    # Heard whole, the same reply's question is answered and the policy moves on.
    heard = OfflinePolicy(SOLAR + " Ask them how old their roof is.")
    heard.opening()
    heard.interrupted(heard.respond("Yes, sure.").text)
    assert heard.pending == roof
    assert heard.respond("Sorry, go on.").text == "I see. Would you like to go ahead?"


def test_a_reply_heard_whole_is_not_taken_back() -> None:
    policy = OfflinePolicy(DENTAL)
    opening = policy.opening().text
    policy.interrupted(opening)
    assert policy.pending == QUESTION
    assert policy.respond("Yes.").end_call


def test_a_prompt_with_abbreviations_keeps_its_sentences_whole() -> None:
    b = Brief.from_prompt(
        "You are Sam from Acme Clinic. You are calling to confirm the appointment with Dr. Patel "
        "on Tuesday at 3:30 p.m. at 12 St. Mary St. in suite 3.5. Ask them if the time still works."
    )
    assert b.purpose == (
        "I'm calling to confirm the appointment with Dr. Patel on Tuesday at 3:30 p.m. at 12 "
        "St. Mary St. in suite 3.5."
    )
    assert b.questions == ("Could you tell me if the time still works?",)


@pytest.mark.parametrize("greeted", [True, False], ids=["after the greeting", "as the first words"])
def test_an_opt_out_is_acknowledged_and_ends_the_call(greeted: bool) -> None:
    policy = OfflinePolicy(DENTAL)
    if greeted:
        policy.opening()
    reply = policy.respond("Stop calling me. Take me off your list.")
    assert (reply.text, reply.end_call, reply.intent) == (OPT_OUT_REPLY, True, Intent.OPT_OUT)
    assert policy.ended
    assert opts_out("please don't ever call me again")
    assert not opts_out("No thanks, I am not interested.")


def test_an_opt_out_s_reply_cut_before_it_was_heard_is_said_again() -> None:
    """The opt-out callee's "Bye." over the acknowledgement (a lab run, docs/lab.md "Eight at
    once"): what was not heard of it is said again, not a plain goodbye; what was heard is not."""
    disclosure = "I'm an AI assistant, and this call is recorded."
    policy = OfflinePolicy(DENTAL, disclosure=disclosure)
    policy.opening()
    policy.interrupted(INTRO)  # cut after the introduction: the disclosure is owed
    assert policy.respond("Please stop calling me.").text == f"{disclosure} {OPT_OUT_REPLY}"
    policy.interrupted(f"{disclosure} I understand, and I'm sorry for the trouble.")
    policy.reopen()
    again = policy.respond("Bye.")
    assert (again.text, again.end_call, again.intent) == (OPT_OUT_REPLY, True, Intent.OPT_OUT)
    heard = OfflinePolicy(DENTAL)
    heard.opening()
    heard.respond("Please stop calling me.")
    heard.interrupted(OPT_OUT_REPLY)  # cut at its very end: heard whole
    heard.reopen()
    assert heard.respond("Bye.").text == GOODBYE_REPLY


@pytest.mark.parametrize(
    "heard",
    [
        "Do you have a free time on Tuesday afternoon?",
        "Is anything available next week?",
        "Where is my order?",
        "What is my account balance?",
        "Can you check my booking?",
    ],
)
def test_a_question_only_a_tool_could_answer_is_a_lookup(heard: str) -> None:
    assert classify(heard) is Intent.LOOKUP


def test_the_offline_brain_says_plainly_it_cannot_look_things_up() -> None:
    """Without an LLM there are no tools: asked what only one could answer, it says it cannot
    look that up, offers a call back, and goes on with the call (+1 500 555 0030's lines)."""
    prompt = "You are Nova from Acme Dental. You are calling about an appointment."
    said = _talk(prompt, SPECIAL["+15005550030"].lines)
    lookup = said[2]
    assert lookup[0].startswith(LOOKUP_REPLY), said
    assert not lookup[1], "the call goes on"
    assert said[-1][1], "and ends politely"
    # Still "later" when the callee puts the call off, and "yes" when they are available.
    assert classify("Can you call me back tomorrow?") is Intent.LATER
    assert classify("Yes, that works, I am available.") is Intent.YES
