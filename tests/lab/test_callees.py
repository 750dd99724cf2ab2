"""Callees written as data (issue 32, docs/lab.md): a phone menu (IVR) as JSON, validated with
clear messages and played as the sandbox's `Menu`; a noise bed under the callee's voice; a
free-text persona, refused where no LLM can play it. Checks on keys and on what the callee's
side said; the starter suite's phone menu."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from callwright.lab.contract import (
    PERSONA_NEEDS_LLM,
    Callee,
    CallRecord,
    Expectations,
    RecordAction,
    RecordLine,
)
from callwright.lab.evaluate import judge
from callwright.lab.starter import DESK_LINES, agent_suite, phone_menu_scenario
from callwright.models import Agent
from callwright.sandbox.callee import answer_for
from callwright.sandbox.noise import NOISES, NoiseBed
from callwright.sandbox.numbers import ACME_MENU, Desk, Menu, persona_of
from callwright.sandbox.phone_menu import MenuWalker
from callwright.speech.audio import rms
from callwright.speech.vad import EnergyVAD
from tests.factories import signed_in
from tests.lab.test_lab_api import SCENARIO, _agent

#: The sandbox's own IVR (+15005550020, numbers.ACME_MENU) written as data.
ACME: dict[str, Any] = {
    "prompt": ACME_MENU.prompt,
    "options": {
        "1": "Our sales team is closed right now.",
        "2": "All our support agents are busy right now.",
        "3": {
            "prompt": "Deliveries and returns. For a late or missing delivery, press 1. "
            "To return an item, press 2. To go back to the main menu, press 9.",
            "options": {
                "1": {
                    "desk": "Jordan",
                    "lines": [
                        "Hi, this is Jordan in deliveries. How can I help you?",
                        "Let me check that order. It ships tomorrow morning.",
                        "You're welcome. Goodbye.",
                    ],
                },
                "2": "Returns are closed right now.",
                "9": "Main menu.",
            },
        },
    },
}


def _nested(depth: int) -> dict[str, Any]:
    menu: dict[str, Any] = {"desk": "Kim", "lines": ["Kim here."]}
    for _ in range(depth):
        menu = {"prompt": "Press 1.", "options": {"1": menu}}
    return menu


def _error(**callee: Any) -> tuple[str, str]:
    with pytest.raises(ValidationError) as refused:
        Callee.model_validate(callee)
    error = refused.value.errors()[0]
    return ".".join(str(p) for p in error["loc"]), error["msg"].removeprefix("Value error, ")


def test_a_menu_written_as_data_is_the_menu_the_sandbox_plays() -> None:
    persona = persona_of(Callee(kind="ivr", label="Acme's menu", menu=ACME, noise="office"))
    assert persona.menu == ACME_MENU
    assert (persona.kind, persona.noise, persona.persona) == ("ivr", "office", "")
    walker = MenuWalker(persona.menu)
    assert walker.press(["3", "1"]) == "Hi, this is Jordan in deliveries. How can I help you?"
    assert walker.desk == Desk("Jordan", tuple(ACME["options"]["3"]["options"]["1"]["lines"]))
    # A menu as deep as allowed is taken, its keys in their order.
    deep = persona_of(Callee(kind="ivr", menu=_nested(4)))
    assert isinstance(deep.menu, Menu)
    assert MenuWalker(deep.menu).press(list("1111")) == "Kim here."


@pytest.mark.parametrize(
    ("callee", "where", "message"),
    [
        ({"kind": "ivr"}, "menu", "An IVR callee needs its menu."),
        (
            {"kind": "person", "menu": ACME},
            "menu",
            'Only an "ivr" callee has a menu.',
        ),
        (
            {"kind": "ivr", "menu": {"prompt": "Hi.", "options": {"*": "Again."}}},
            "menu.options",
            '"*" says the menu again: it cannot lead to an option.',
        ),
        (
            {"kind": "ivr", "menu": {"prompt": "Hi.", "options": {"a": "Closed."}}},
            "menu.options",
            "'a' is not a key: a menu's keys are 0-9 and #.",
        ),
        ({"kind": "ivr", "menu": _nested(5)}, "menu", "A menu is at most 4 menus deep."),
        (
            {
                "kind": "ivr",
                "menu": {
                    "prompt": "Hi.",
                    "options": {
                        k: {"prompt": "Then.", "options": dict.fromkeys("0123456789", "x")}
                        for k in "0123"
                    },
                },
            },
            "menu",
            "A menu has at most 40 options in all.",
        ),
        (
            {"kind": "ivr", "menu": {"prompt": "Hi.", "options": {"1": {"desk": "Al"}}}},
            "menu.options.1.desk.lines",
            "Field required",
        ),
        (
            {"kind": "voicemail", "persona": "a grumpy answering machine"},
            "persona",
            "A free-text persona plays a callee who talks: person, interrupts, opts-out, "
            "wants-a-person.",
        ),
        (
            {"kind": "silent", "answers": [{"when": ["time"], "say": "Friday."}]},
            "answers",
            "Answers are for a callee who talks: person, interrupts, opts-out, wants-a-person.",
        ),
        (
            {"answers": [{"when": [], "say": "Friday."}]},
            "answers.0.when",
            "List should have at least 1 item after validation, not 0",
        ),
        ({"noise": "jackhammer"}, "noise", "Input should be 'none', 'office', 'street' or 'cafe'"),
        ({"persona": "x" * 2001}, "persona", "String should have at most 2000 characters"),
    ],
)
def test_a_callee_that_cannot_be_played_is_refused_naming_the_field(
    callee: dict[str, Any], where: str, message: str
) -> None:
    assert _error(**callee) == (where, message)


def test_a_persona_and_a_noise_reach_the_sandbox() -> None:
    callee = Callee(persona="  a busy nurse who wants Friday afternoon  ", noise="street")
    persona = persona_of(callee)
    assert (persona.persona, persona.noise) == ("a busy nurse who wants Friday afternoon", "street")


def test_answers_by_the_kind_of_question_reach_the_sandbox_and_pick_by_whole_words() -> None:
    callee = Callee(
        lines=["Yes, that works.", "Bye."],
        answers=[
            {"when": ["still work", "works for you"], "say": "No, can we do Friday?"},
            {"when": ["card"], "say": "[press 1]"},
        ],
    )
    persona = persona_of(callee)
    assert persona.answers == (
        (("still work", "works for you"), "No, can we do Friday?"),
        (("card",), "[press 1]"),
    )
    asks = [when for when, _ in persona.answers]
    assert answer_for(asks, "Could you tell me if the time STILL works... still work?") == 0
    assert answer_for(asks, "Does three pm work for you?") is None, "whole words only"
    assert answer_for(asks, "Which card would you like to use?") == 1
    assert answer_for(asks, "Discard that, please.") is None
    assert answer_for(asks, "") is None


def test_the_noise_bed_is_heard_and_never_taken_for_speech() -> None:
    silence = np.zeros(160, np.int16)
    assert NoiseBed("none").under(silence) is silence
    for kind in NOISES:
        bed = NoiseBed(kind)
        frames = [bed.under(silence) for _ in range(500)]  # 10 s: the whole loop
        levels = [rms(f) for f in frames]
        assert min(levels) > 20, f"{kind}: heard"
        vad = EnergyVAD()
        assert [vad.feed(f) for f in frames].count("start") == 0, f"{kind}: not speech"
    # Mixed under a voice, it adds to it without wrapping around.
    loud = np.full(160, 32000, np.int16)
    assert int(NoiseBed("street").under(loud).max()) <= 32767


def _record(lines: list[RecordLine], actions: list[RecordAction]) -> CallRecord:
    return CallRecord("call-1", "completed", 30.0, lines=lines, actions=actions)


def test_keys_pressed_and_the_person_reached_are_checked() -> None:
    def keys(digits: str, at: float) -> RecordAction:
        return RecordAction("keypad", "press_digits", {"digits": digits}, "succeeded", at)

    record = _record(
        [
            RecordLine("callee", "Thanks for calling. To reach a person, press 3.", 0.5),
            RecordLine("callee", "Hi, this is Robin.", 4.0),
            RecordLine("agent", "Hi Robin, this is Ava, an AI assistant.", 5.0),
        ],
        [keys("2w", 1.0), keys("3", 2.0), keys("1", 3.0)],
    )
    expect = Expectations(keys="31", callee_says=["hi this is robin", "press 9"])
    found = {c.expectation: c for c in judge(expect, record)}
    assert found["keys"].passed
    assert found["keys"].found == "pressed 231 at 2.0 s"
    assert found["keys"].evidence is not None
    assert found["keys"].evidence.index == 1
    assert found["callee_says[0]"].passed
    assert found["callee_says[0]"].evidence is not None
    assert found["callee_says[0]"].evidence.index == 1
    assert not found["callee_says[1]"].passed
    # Only the callee's lines count: the agent saying it is not the callee reaching it.
    agent_only = Expectations(callee_says=["this is ava"])
    assert not judge(agent_only, record)[0].passed
    missed = judge(Expectations(keys="12"), record)[0]
    assert (missed.passed, missed.found) == (False, "pressed 231")
    none = judge(Expectations(keys="1"), _record([], []))[0]
    assert (none.passed, none.found, none.evidence) == (False, "pressed no key", None)
    with pytest.raises(ValidationError, match=r"Keys are 0-9, \* and #\."):
        Expectations(keys="1w2")


def test_the_starter_suite_has_a_phone_menu_when_the_agent_presses_keys() -> None:
    plain = Agent(user_id=1, name="Reminders", prompt="Remind them.", voice="joe")
    assert "Phone menu" not in [s.name for s in agent_suite(plain)]
    pressing = Agent(
        user_id=1, name="Orders", prompt="Ask about order 12.", precall_dtmf_sequence="3w1"
    )
    menu = agent_suite(pressing)[-1]
    assert menu.name == "Phone menu"
    assert (menu.expect.keys, menu.expect.callee_says) == ("31", [DESK_LINES[0]])
    walker = MenuWalker(persona_of(menu.callee).menu)  # type: ignore[arg-type]
    assert walker.press(["3", "1"]) == DESK_LINES[0]
    assert MenuWalker(persona_of(menu.callee).menu).press(["0"]).startswith("We are open")  # type: ignore[arg-type]
    for sequence in ("", "w", "1*", "12345"):
        assert phone_menu_scenario(sequence) is None, sequence


async def test_a_persona_is_refused_without_an_llm(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-persona@example.com")
    nurse = SCENARIO | {"callee": {"persona": "a busy nurse", "lines": ["Friday, please."]}}
    async with client:
        agent_id = await _agent(client)
        refused = await client.api("POST", f"agents/{agent_id}/lab/scenarios", json=nurse)
        assert refused.status_code == 422
        assert refused.json()["errors"] == {"callee.persona": [PERSONA_NEEDS_LLM]}
        plain = await client.api("POST", f"agents/{agent_id}/lab/scenarios", json=SCENARIO)
        scenario_id = plain.json()["data"]["id"]
        changed = await client.api("PUT", f"lab/scenarios/{scenario_id}", json=nurse)
        assert changed.json()["errors"] == {"callee.persona": [PERSONA_NEEDS_LLM]}

        # With an LLM configured it is kept; a run on an install without one is refused.
        plain_settings = app.state.settings
        app.state.settings = plain_settings.model_copy(
            update={"llm_base_url": "http://127.0.0.1:9/v1"}
        )
        try:
            kept = await client.api("PUT", f"lab/scenarios/{scenario_id}", json=nurse)
        finally:
            app.state.settings = plain_settings
        assert kept.status_code == 200, kept.text
        assert kept.json()["data"]["callee"]["persona"] == "a busy nurse"
        run = await client.api("POST", f"agents/{agent_id}/lab/runs", json={})
        assert run.status_code == 422
        assert run.json()["errors"] == {"callee.persona": [PERSONA_NEEDS_LLM]}
