"""Phone menus as the offline brain reads them (voice_agent/ivr.py), the keys it answers them
with (policy), and the callee's keys it answers; and the sandbox callee's DTMF ear."""

from __future__ import annotations

import io
import wave
from importlib.resources import files
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pipecat.services.openai.llm import OpenAILLMService

from callwright.sandbox.keys import KeyDetector, key_in
from callwright.sandbox.numbers import ACME_MENU, Desk, Menu
from callwright.sandbox.phone_menu import INVALID, MenuWalker
from callwright.speech import tts
from callwright.speech.audio import tone, ulaw_decode, ulaw_encode
from callwright.voice_agent.ivr import Option, choose, menu_options, refused, system_talk
from callwright.voice_agent.keypad import (
    KeysFrame,
    key_in_message,
    pressed_summary,
    register_press_digits,
)
from callwright.voice_agent.policy import Intent, OfflinePolicy

LATE = (
    "You are Sarah from Bright Dental. You are calling Acme Supplies about a late delivery: "
    "order 4471 of dental supplies has not arrived. Ask when it will arrive."
)


@pytest.mark.parametrize(
    ("heard", "options"),
    [
        (
            "Thanks for calling Acme. For sales, press 1. For support, press 2.",
            [("1", "sales"), ("2", "support")],
        ),
        (
            "Press 1 for sales, press 2 for support, or press 0 to speak with an operator.",
            [("1", "sales"), ("2", "support"), ("0", "speak with an operator")],
        ),
        (
            "For billing press one, for technical support press two.",
            [("1", "billing"), ("2", "technical support")],
        ),
        (
            "If you are calling about an order, press 1. If you want to make a payment, press 2.",
            [("1", "an order"), ("2", "make a payment")],
        ),
        ("Sales, press 1. Support, press 2.", [("1", "Sales"), ("2", "Support")]),
        (
            "For sales, press one; for support, press two; to repeat, press the star key.",
            [("1", "sales"), ("2", "support"), ("*", "repeat")],
        ),
        # A transcript that lost its full stops, or put them in the wrong places.
        (
            "Thanks for calling Army Supplies for Sales Press 1 for Support Press 2 for Delivery "
            "and Returns Press 3 to hear these options again. press R.",
            [("1", "Sales"), ("2", "Support"), ("3", "Delivery and Returns")],
        ),
        (
            "Delivery and returns for a late or missing delivery. Press 1 to return an item. "
            "Press 2 to go back to the main menu. Press 9.",
            [("1", "a late or missing delivery"), ("2", "return an item"), ("9", "the main menu")],
        ),
        ("Press 1 for sales. Press 2 for support.", [("1", "sales"), ("2", "support")]),
        ("Hello, this is Sam speaking.", []),
        ("Thanks for calling Acme.", []),
    ],
)
def test_menu_options(heard: str, options: list[tuple[str, str]]) -> None:
    assert menu_options(heard) == [Option(key, label) for key, label in options]


def test_the_option_is_the_one_whose_words_the_goal_shares() -> None:
    top = menu_options(ACME_MENU.prompt)
    assert choose(top, LATE) == "3", "deliveries: the goal's delivery"
    deliveries = ACME_MENU.option("3")
    assert isinstance(deliveries, Menu)
    assert choose(menu_options(deliveries.prompt), LATE) == "1", "a late delivery, not a return"
    assert choose(top, "You are calling to ask about an invoice.") is None, "nothing fits: wait"
    operator = menu_options("For sales, press 1. For anything else, press 0 for an operator.")
    assert choose(operator, "Ask about an invoice.") == "0", "a person when nothing fits"
    assert choose(top, LATE, tried=frozenset("3")) is None, "a tried key is not pressed again"


def test_system_talk_and_refusals() -> None:
    assert system_talk("Thanks for calling Acme Supplies.")
    assert system_talk("Please hold while I connect you.")
    assert not system_talk("Hi, this is Jordan in deliveries. How can I help you?")
    receptionist = "Thank you for calling Acme, Jordan speaking, how can I help you"
    assert not system_talk(receptionist), "a person's greeting, though it thanks for calling"
    assert OfflinePolicy(LATE).respond(receptionist).text, "a person is answered"
    assert refused("Our sales team is closed right now. Thanks for calling Acme.")
    assert refused("Sorry, that is not a valid choice.")
    assert not refused("Sorry, I did not get a choice.")


def test_the_offline_brain_presses_the_menus_keys_and_greets_the_person() -> None:
    policy = OfflinePolicy(LATE)
    assert policy.respond("Thanks for calling Acme Supplies.").text == "", "not answered"
    first = policy.respond(ACME_MENU.prompt)
    assert (first.text, first.keys, first.intent) == ("", "3", Intent.MENU)
    deliveries = ACME_MENU.option("3")
    assert isinstance(deliveries, Menu)
    assert policy.respond(deliveries.prompt).keys == "1"
    assert not policy.greeted, "a menu is not greeted"
    person = policy.respond("Hi, this is Jordan in deliveries. How can I help you?")
    assert person.keys == ""
    assert person.text.startswith("Hi, this is Sarah from Bright Dental."), person.text


def test_a_menu_said_again_after_a_refusal_gets_another_option() -> None:
    policy = OfflinePolicy("You are calling to ask about your account with the support team.")
    menu = "For sales, press 1. For support, press 2. For an operator, press 0."
    assert policy.respond(menu).keys == "2"
    assert policy.respond(f"All our support agents are busy right now. {menu}").keys == "0"
    # Said again because the key was not heard: the same choice again.
    other = OfflinePolicy("You are calling to ask about your account with the support team.")
    assert other.respond(menu).keys == "2"
    assert other.respond(f"Sorry, I did not get a choice. {menu}").keys == "2"


def test_the_offline_brain_answers_the_key_it_asked_for() -> None:
    policy = OfflinePolicy(
        "You are Sarah from Bright Dental. You are calling to remind the customer about their "
        "appointment. Ask them to press 1 to confirm the appointment."
    )
    opening = policy.opening().text
    assert opening.endswith("Please press 1 on your keypad to confirm the appointment."), opening
    wrong = policy.pressed("2")
    assert wrong.text == "I heard 2. Please press 1 on your keypad to confirm the appointment."
    assert not wrong.end_call
    right = policy.pressed("1")
    assert right.text.startswith("Thank you, I got your 1")
    assert right.end_call
    unasked = OfflinePolicy("You are Sarah. You are calling to say hello.")
    unasked.opening()
    assert unasked.pressed("5").text == "", "a key nobody asked for is not answered"


def test_key_messages_and_summaries() -> None:
    assert key_in_message("[The caller pressed 1]") == "1"
    assert key_in_message("[The caller pressed #]") == "#"
    assert key_in_message("I pressed 1") is None
    assert pressed_summary("12#") == "Pressed 1 2 #"
    assert pressed_summary("3w1") == "Pressed 3 (pause) 1"


def _tone(name: str) -> np.ndarray:
    data = files("pipecat.audio.dtmf").joinpath(f"dtmf-{name}.wav").read_bytes()
    with wave.open(io.BytesIO(data)) as w:
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    return ulaw_decode(ulaw_encode(pcm))  # as the phone line carries it


def _heard(pcm: np.ndarray) -> list[str]:
    detector = KeyDetector()
    for i in range(0, len(pcm) - 159, 160):
        detector.feed(pcm[i : i + 160])
    return detector.heard


def test_the_sandbox_hears_the_agents_tones_and_not_its_words() -> None:
    tones = [_tone(n) for n in ("3", "1", "star", "pound", "0")]
    assert _heard(np.concatenate(tones)) == ["3", "1", "*", "#", "0"]
    assert _heard(np.concatenate([_tone("5"), _tone("5")])) == ["5", "5"], "a key pressed twice"
    for voice in ("kal", "joe"):
        found = tts.find(voice)
        assert found is not None
        speech = tts.synthesize(found, f"{ACME_MENU.prompt} Hello, this is Sarah from Bright.")
        assert _heard(ulaw_decode(ulaw_encode(speech))) == [], voice
    # One strong row frequency with a trace of a column one is a voice, not a key (its twist):
    # a voiced sound in voice joe once read as a key that way.
    row, column = tone(697.0, 0.02, amplitude=0.3), tone(1633.0, 0.02, amplitude=0.3)
    assert key_in(ulaw_decode(ulaw_encode(row + column))) == "A"
    faint = tone(1633.0, 0.02, amplitude=0.09)  # 10 dB under the row tone
    assert key_in(ulaw_decode(ulaw_encode(row + faint))) is None


def test_the_sandbox_ivr_leads_only_the_right_keys_to_the_person() -> None:
    walker = MenuWalker(ACME_MENU)
    assert walker.press(["1"]).startswith("Our sales team is closed right now. Thanks for calling")
    assert walker.press(["7"]) == f"{INVALID} {ACME_MENU.prompt}"
    assert walker.press(["3", "1"]).startswith("Hi, this is Jordan"), "typed ahead"
    assert isinstance(walker.desk, Desk)
    assert walker.desk.name == "Jordan"
    assert walker.press(["2"]) == "", "the person does not hear keys"
    assert walker.pressed == ["1", "7", "3", "1"]


async def test_press_digits_sends_valid_keys_and_returns_bad_ones_to_the_model() -> None:
    """The LLM's press_digits: keys are cleaned ("1 2-3" is "123") and sent after the reply's
    words without running the model again; anything else goes back to it as an error."""
    llm = OpenAILLMService(
        api_key="x", base_url="http://127.0.0.1:9/v1", settings=OpenAILLMService.Settings(model="m")
    )
    pushed: list[Any] = []

    async def push(frame: Any, *_: Any) -> None:
        pushed.append(frame)

    llm.push_frame = push  # type: ignore[method-assign, assignment]
    register_press_digits(llm)
    handler: Any = llm._functions["press_digits"].handler
    results: list[tuple[Any, Any]] = []

    async def result(value: Any, properties: Any = None) -> None:
        results.append((value, properties))

    await handler(SimpleNamespace(arguments={"digits": "1 2-3#"}, result_callback=result))
    assert [(type(f), f.digits) for f in pushed] == [(KeysFrame, "123#")]
    assert results[0][0] == {"pressed": "123#"}
    assert results[0][1].run_llm is False
    await handler(SimpleNamespace(arguments={"digits": "call me"}, result_callback=result))
    assert len(pushed) == 1, "nothing pressed"
    assert "error" in results[1][0]
    assert results[1][1] is None, "the model runs again to correct it"
