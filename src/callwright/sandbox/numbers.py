"""The sandbox number plan: the dialled number picks who answers, like Twilio's test numbers.
Documented in docs/sandbox.md; keep the two in step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Kind = Literal[
    "person",
    "no-answer",
    "busy",
    "failed",
    "voicemail",
    "hangs-up",
    "interrupts",
    "silent",
    "opts-out",
]


@dataclass(frozen=True)
class Persona:
    kind: Kind
    label: str
    #: Seconds of ringing before the callee answers (or gives up, for no-answer).
    ring_seconds: float = 2.0
    #: What the callee says when it picks up and the agent stays quiet.
    hello: str = "Hello?"
    #: Replies, one per agent turn, in order.
    lines: tuple[str, ...] = ()
    #: For "interrupts": the line said over the agent.
    interruption: str = ""
    #: Seconds of silence at each "|" in a line: a pause in the middle of a sentence.
    pauses: float = 0.0


SPECIAL: dict[str, Persona] = {
    "+15005550001": Persona("no-answer", "rings out, nobody answers", ring_seconds=8.0),
    "+15005550002": Persona("busy", "the line is busy", ring_seconds=0.5),
    "+15005550003": Persona("failed", "the number cannot be reached", ring_seconds=0.0),
    "+15005550004": Persona(
        "voicemail",
        "voicemail: a greeting, then the beep",
        hello="Hi, you have reached Alex. I can't take your call right now. Please leave a message after the tone.",
    ),
    "+15005550005": Persona("hangs-up", "answers, then hangs up after a few seconds"),
    "+15005550006": Persona(
        "interrupts",
        "talks over the agent",
        lines=("Yes, this is me.", "Okay. Thanks, goodbye."),
        interruption="Sorry, can I stop you there? What is this call about?",
    ),
    "+15005550007": Persona("silent", "answers and says nothing"),
    "+15005550008": Persona(
        "opts-out",
        "asks not to be called again",
        lines=("Please stop calling me and take me off your list.", "Bye."),
    ),
    "+15005550040": Persona(
        "person",
        "pauses mid-sentence (1 s) before going on",
        lines=(
            "Yes, speaking. Well, the thing is, | who is calling?",
            "Okay, let me think, um, | that sounds interesting. Tell me more.",
            "Yes, I would like that, and my number is | five five five, one two three four.",
            "Great, thank you, | goodbye.",
        ),
        pauses=1.0,
    ),
}

#: A talking person; the number's digits pick one of these scenarios.
SCENARIOS: tuple[Persona, ...] = (
    Persona(
        "person",
        "interested: listens, asks, agrees",
        lines=(
            "Yes, speaking. Who is calling?",
            "Okay, that sounds interesting. Tell me more.",
            "Yes, I would like that.",
            "Great, thank you. Goodbye.",
        ),
    ),
    Persona(
        "person",
        "not interested: declines politely",
        lines=("Hello, yes, this is me.", "No thanks, I am not interested.", "Goodbye."),
    ),
    Persona(
        "person",
        "busy now: asks for a call back later",
        lines=(
            "Hi, who is this?",
            "I am busy right now. Can you call me back tomorrow afternoon?",
            "Tomorrow afternoon works. Bye.",
        ),
    ),
    Persona(
        "person",
        "wrong person: you have the wrong number",
        lines=("Sorry, who are you looking for?", "I think you have the wrong number.", "Bye."),
    ),
    Persona(
        "person",
        "curious: asks about the price, then agrees",
        lines=(
            "Hello, this is Sam speaking.",
            "How much does it cost?",
            "Okay, that sounds fair. Yes, let's do it.",
            "Thanks, goodbye.",
        ),
    ),
)


def persona_for(number: str) -> Persona:
    if number in SPECIAL:
        return SPECIAL[number]
    digits = [int(c) for c in number if c.isdigit()]
    return SCENARIOS[sum(digits) % len(SCENARIOS)]


#: How a call to each kind of callee usually ends (the outcome words of calls/outcomes.py);
#: "completed" when the agent closes the conversation.
OUTCOMES: dict[Kind, str] = {
    "person": "completed",
    "no-answer": "no-answer",
    "busy": "busy",
    "failed": "failed",
    "voicemail": "voicemail",
    "hangs-up": "callee-hung-up",
    "interrupts": "completed",
    "silent": "completed",
    "opts-out": "completed",
}

#: The talking scenarios' example numbers vary the last digit of this prefix.
EXAMPLE_PREFIX = "+1555123000"


def example_number(scenario: int) -> str:
    """The first number `EXAMPLE_PREFIX` + one digit that picks talking scenario `scenario`."""
    for digit in range(10):
        number = f"{EXAMPLE_PREFIX}{digit}"
        if number not in SPECIAL and persona_for(number) is SCENARIOS[scenario]:
            return number
    raise ValueError(f"no example number for scenario {scenario}")


#: The plan's own ranges: Twilio's test numbers (+1 500 555 ....) and the 555 area code no
#: NANP number has (+1 555 ... ....): callable on the sandbox carrier, though no country
#: assigns them (kit.phone's number policy asks `own_number`).
OWN_PREFIXES = ("+1500555", "+1555")
_OWN_LENGTH = len("+15551230000")


def own_number(number: str) -> bool:
    """Whether `number` (E.164) is one of the sandbox's own numbers: one of the special
    callees, or a whole number in the plan's ranges."""
    return number in SPECIAL or (
        len(number) == _OWN_LENGTH and number.startswith(OWN_PREFIXES) and number[1:].isdigit()
    )


def own_numbers_on(carrier: str) -> Callable[[str], bool] | None:
    """The test numbers the number policy accepts on `carrier`: the sandbox's own plan on
    the sandbox carrier; none on a real one."""
    return own_number if carrier == "sandbox" else None
