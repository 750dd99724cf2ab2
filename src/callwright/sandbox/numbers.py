"""The sandbox number plan: the dialled number picks who answers, like Twilio's test numbers.
Documented in docs/sandbox.md; keep the two in step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Union

from callwright.lab.contract import Callee, DeskSpec, MenuSpec

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
    "wants-a-person",
    "ivr",
    "presses-keys",
]


@dataclass(frozen=True)
class Desk:
    """A person at the end of a phone menu: says the first line when the call reaches them,
    then one line per agent turn, like a talking callee."""

    name: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Menu:
    """A phone menu: its prompt, and what each key leads to: another menu, a person, or a line
    said before the top menu again (a closed department). `*` says the menu again; any other
    key is not a valid choice (the menu again)."""

    prompt: str
    options: tuple[tuple[str, Union[Menu, Desk, str]], ...]  # noqa: UP007 (a forward reference)

    def option(self, key: str) -> Menu | Desk | str | None:
        return dict(self.options).get(key)


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
    #: Answers by the kind of question: (words, line); an agent's turn holding one of the
    #: words (as the callee heard it) gets the line, once, instead of the next of `lines`.
    answers: tuple[tuple[tuple[str, ...], str], ...] = ()
    #: For "interrupts": the line said over the agent.
    interruption: str = ""
    #: Seconds of silence at each "|" in a line: a pause in the middle of a sentence.
    pauses: float = 0.0
    #: Seconds (of call time) it waits, once the agent has stopped, before it answers.
    thinking: float = 0.3
    #: Once joined with another party by a <Dial> (a transfer), its lines there in order; a
    #: transfer target says `hello` first, then its `lines`, and hangs up after the last.
    joined: tuple[str, ...] = ()
    #: Back with the agent after a transfer that failed (busy, no answer): its lines then.
    resumed: tuple[str, ...] = ()
    #: For "ivr": the phone menu that answers.
    menu: Menu | None = None
    #: The voice it speaks with (a `speech.tts` voice name); None: one unlike the agent's
    #: (`callee.callee_voice_for`).
    voice: str | None = None
    #: A quiet noise bed mixed under its audio (sandbox.noise.NOISES; "none": clean).
    noise: str = "none"
    #: Who it is in free text: with an LLM, the LLM writes its replies (sandbox.persona_llm);
    #: its `lines` are said when the LLM fails.
    persona: str = ""


#: A line of `Persona.lines` that presses a key instead of speaking ("[press 1]").
def press_line(key: str) -> str:
    return f"[press {key}]"


def pressed_in(line: str) -> str | None:
    """The key a `press_line` presses (None: a spoken line)."""
    if line.startswith("[press ") and line.endswith("]") and len(line) == len("[press 1]"):
        return line[len("[press ")]
    return None


#: The sandbox IVR (+15005550020): only 3 then 1 reaches a person (the deliveries desk).
ACME_MENU = Menu(
    "Thanks for calling Acme Supplies. For sales, press 1. For support, press 2. "
    "For deliveries and returns, press 3. To hear these options again, press star.",
    (
        ("1", "Our sales team is closed right now."),
        ("2", "All our support agents are busy right now."),
        (
            "3",
            Menu(
                "Deliveries and returns. For a late or missing delivery, press 1. "
                "To return an item, press 2. To go back to the main menu, press 9.",
                (
                    (
                        "1",
                        Desk(
                            "Jordan",
                            (
                                "Hi, this is Jordan in deliveries. How can I help you?",
                                "Let me check that order. It ships tomorrow morning.",
                                "You're welcome. Goodbye.",
                            ),
                        ),
                    ),
                    ("2", "Returns are closed right now."),
                    ("9", "Main menu."),
                ),
            ),
        ),
    ),
)


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
    # Transfers (issue 29): a callee who asks for a person, and three transfer targets.
    "+15005550010": Persona(
        "wants-a-person",
        "asks for a real person; talks with them once transferred, carries on if it fails",
        lines=(
            "Can I speak to a real person, please?",
            "I would really rather talk to a person.",
            "Okay, never mind. Goodbye.",
        ),
        joined=("Hi Jordan. I have a question about my order.", "Great, thank you so much."),
        resumed=("Oh, okay. Can you help me yourself then?", "Alright, thanks. Goodbye."),
    ),
    "+15005550011": Persona(
        "person",
        "a transfer target: Jordan in sales answers, hears the whisper, talks, hangs up",
        ring_seconds=3.0,
        hello="Hi, this is Jordan in sales. How can I help?",
        lines=(
            "Sure, I can help with your order. It ships tomorrow.",
            "You are welcome. Have a great day, goodbye.",
        ),
    ),
    "+15005550012": Persona("busy", "a transfer target whose line is busy", ring_seconds=0.5),
    "+15005550013": Persona(
        "no-answer", "a transfer target that rings and never answers", ring_seconds=60.0
    ),
    "+15005550020": Persona(
        "ivr",
        "a phone menu (IVR): only 3, then 1, reaches a person",
        ring_seconds=1.0,
        menu=ACME_MENU,
    ),
    "+15005550021": Persona(
        "presses-keys",
        "asked to press a key to confirm: presses 1",
        lines=(press_line("1"), "Thank you. Goodbye."),
    ),
    # Tools (+1 500 555 0030..0039, docs/actions.md): asks what only the business's systems
    # know, and waits for the answer (an agent's waiting line, then its tool's answer).
    "+15005550030": Persona(
        "person",
        "asks about a free time, and waits while the agent checks",
        lines=(
            "Yes, speaking.",
            "Do you have a free time on Tuesday afternoon?",
            "Thanks, goodbye.",
        ),
        thinking=3.0,
    ),
    # Turn-taking (issue 31, +1 500 555 0040..0049): pauses inside a sentence.
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
    # Conversation flows (issue 30, +1 500 555 0050..0059): answers an appointment
    # confirmation's question (docs/flows.md).
    "+15005550050": Persona(
        "person",
        "confirms an appointment",
        lines=("Yes, that works for me.", "Thanks, bye."),
    ),
    "+15005550051": Persona(
        "person",
        "asks to reschedule an appointment, then gives a new day and time",
        lines=(
            "I need to reschedule, I can't make it then.",
            "Friday at two pm would be better.",
            "Great, thanks. Bye.",
        ),
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


def persona_of(callee: Callee) -> Persona:
    """The persona a callee written as data plays (the lab's `Callee`, given on a placed
    call as `CallwrightCallee`: docs/sandbox.md). Its `label` is what the call's report shows;
    "[press N]" lines press keys as the plan's personas' do."""
    return Persona(
        kind=callee.kind,
        label=callee.label or f"{_article(callee.kind)} {callee.kind} callee written as data",
        ring_seconds=callee.ring_seconds,
        hello=callee.hello,
        lines=tuple(callee.lines),
        answers=tuple((tuple(a.when), a.say) for a in callee.answers),
        interruption=callee.interruption,
        pauses=callee.pauses,
        thinking=callee.thinking,
        joined=tuple(callee.joined),
        resumed=tuple(callee.resumed),
        voice=callee.voice,
        menu=menu_of(callee.menu) if callee.menu is not None else None,
        noise=callee.noise,
        persona=callee.persona,
    )


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def menu_of(spec: MenuSpec) -> Menu:
    """The sandbox's `Menu` a phone menu written as data describes (its keys in their order)."""
    options: list[tuple[str, Menu | Desk | str]] = []
    for key, target in spec.options.items():
        if isinstance(target, MenuSpec):
            options.append((key, menu_of(target)))
        elif isinstance(target, DeskSpec):
            options.append((key, Desk(target.desk, tuple(target.lines))))
        else:
            options.append((key, target))
    return Menu(spec.prompt, tuple(options))


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
    "wants-a-person": "transferred",
    "ivr": "completed",
    "presses-keys": "completed",
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
