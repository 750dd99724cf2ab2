"""The agent lab's contract (issue 32, docs/lab.md). A scenario is a simulated callee written as
data (`Callee`) and what must hold of the call placed to it (`Expectations`). The lab places
each scenario as a real sandbox call through the real pipeline; once the call is finished, its
record (`CallRecord`, read from the database) is judged against the expectations, and each
expectation gives one `Check`: passed or failed, with the transcript line, event, flow step or
reply latency that decided it (`Evidence`).

Everything here is data: pydantic models (the API's and the JSON view's shapes) and plain
records. The sandbox turns a `Callee` into its `Persona` (sandbox.numbers); lab.evaluate judges;
lab.starter writes a starter suite; lab.junit writes a run as JUnit XML."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    field_validator,
)

#: What a simulated callee is (the sandbox's kinds: sandbox.numbers.Kind).
CalleeKind = Literal[
    "person",
    "no-answer",
    "busy",
    "voicemail",
    "hangs-up",
    "interrupts",
    "silent",
    "opts-out",
    "wants-a-person",
    "ivr",
    "presses-keys",
]
#: The kinds that hold a conversation (a free-text persona can play them).
TALKING_KINDS = ("person", "interrupts", "opts-out", "wants-a-person")
#: The background noise a callee's audio may carry (sandbox.noise: generated, never recorded).
Noise = Literal["none", "office", "street", "cafe"]
#: A key of a phone menu's option; `*` is not one: it says the menu again.
MENU_KEYS = "0123456789#"
#: The keys of a keypad.
KEYPAD = "0123456789*#"
#: A phone menu's depth (the top menu is 1) and the options it may hold in all.
MENU_DEPTH_MAX = 4
MENU_OPTIONS_MAX = 40
#: A free-text persona's length.
PERSONA_MAX = 2000
PERSONA_NEEDS_LLM = (
    "A free-text persona needs an LLM: set CALLWRIGHT_LLM_BASE_URL (docs/configuration.md)."
)
#: A line the callee says; "[press 1]" presses a key instead (sandbox.numbers.press_line).
Line = Annotated[str, Field(min_length=1, max_length=500)]
Phrase = Annotated[str, Field(min_length=1, max_length=300)]
#: A tool argument's expected value.
ArgumentValue = (
    Annotated[str, Field(max_length=300)]
    | Annotated[int, Field(ge=-(10**12), le=10**12)]
    | Annotated[float, Field(ge=-1e12, le=1e12)]
    | bool
)

LINES_MAX = 30
#: Words an answer is for: a few, each short.
WHEN_MAX = 10


class Answer(BaseModel):
    """What a callee says when the agent's turn, as the callee heard it, holds one of `when`
    (case and punctuation aside): its answer to that kind of question, said once, before its
    next line in order."""

    model_config = ConfigDict(extra="forbid")

    when: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(
        min_length=1, max_length=WHEN_MAX
    )
    say: Line


#: The suite a scenario is in unless it says another.
DEFAULT_SUITE = "main"
#: A suite's name: letters, digits, spaces, "-" and "_", starting with a letter or digit.
SUITE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 _-]*$"


class DeskSpec(BaseModel):
    """A person a phone menu's key reaches: says its first line when reached, then one line per
    agent turn."""

    model_config = ConfigDict(extra="forbid")

    desk: str = Field(min_length=1, max_length=80)
    lines: list[Line] = Field(min_length=1, max_length=LINES_MAX)


def _option_kind(value: Any) -> str:
    """Which of a menu option's shapes `value` is: a person ("desk" in it), another menu (any
    other object) or a line (text)."""
    if isinstance(value, str):
        return "line"
    if isinstance(value, dict):
        return "desk" if "desk" in value else "menu"
    return "desk" if isinstance(value, DeskSpec) else "menu"


#: What a menu's key leads to: another menu, a person, or a line said before the top menu
#: again (a closed department).
MenuOption = Annotated[
    Annotated["MenuSpec", Tag("menu")]
    | Annotated[DeskSpec, Tag("desk")]
    | Annotated[str, Tag("line"), Field(min_length=1, max_length=300)],
    Discriminator(_option_kind),
]


class MenuSpec(BaseModel):
    """A phone menu (IVR) as data: its prompt and what each key leads to (sandbox.numbers.Menu).
    Keys are 0-9 and #; `*` says the menu again. At most `MENU_DEPTH_MAX` menus deep and
    `MENU_OPTIONS_MAX` options in all (checked on the callee)."""

    model_config = ConfigDict(extra="forbid")

    prompt: str = Field(min_length=1, max_length=500)
    options: dict[Annotated[str, Field(min_length=1, max_length=1)], MenuOption] = Field(
        min_length=1, max_length=len(MENU_KEYS)
    )

    @field_validator("options")
    @classmethod
    def _keys(cls, options: dict[str, MenuOption]) -> dict[str, MenuOption]:
        for key in options:
            if key == "*":
                raise ValueError('"*" says the menu again: it cannot lead to an option.')
            if key not in MENU_KEYS:
                raise ValueError(f"{key!r} is not a key: a menu's keys are 0-9 and #.")
        return options

    def measure(self) -> tuple[int, int, int]:
        """Its depth (this menu is 1), its options in all and the people it reaches."""
        depth, options, desks = 1, len(self.options), 0
        for target in self.options.values():
            if isinstance(target, MenuSpec):
                inner = target.measure()
                depth = max(depth, inner[0] + 1)
                options, desks = options + inner[1], desks + inner[2]
            elif isinstance(target, DeskSpec):
                desks += 1
        return depth, options, desks


class Callee(BaseModel):
    """A simulated callee as data: what it says at each of the agent's turns, in order, and how
    it behaves. The same fields as the sandbox's personas (docs/sandbox.md)."""

    model_config = ConfigDict(extra="forbid")

    kind: CalleeKind = "person"
    #: Who it is, in a few words ("a patient who wants to reschedule").
    label: str = Field("", max_length=200)
    #: What it says when it picks up and the agent stays quiet.
    hello: str = Field("Hello?", min_length=1, max_length=300)
    #: Its replies, one per agent turn, in order ("[press 1]" presses a key).
    lines: list[Line] = Field(default_factory=list, max_length=LINES_MAX)
    #: Its answers by the kind of question: a turn of the agent's that holds one of an answer's
    #: words gets that answer (once) instead of the next of `lines`.
    answers: list[Answer] = Field(default_factory=list, max_length=LINES_MAX)
    #: For "interrupts": the line said over the agent.
    interruption: str = Field("", max_length=300)
    #: Seconds of silence at each "|" in a line (a pause in the middle of a sentence).
    pauses: float = Field(0.0, ge=0, le=5)
    #: Seconds it waits, once the agent has stopped, before it answers.
    thinking: float = Field(0.3, ge=0, le=10)
    #: Seconds of ringing before it answers (or gives up, for no-answer).
    ring_seconds: float = Field(2.0, ge=0, le=60)
    #: Once joined with a person by a transfer: its lines there.
    joined: list[Line] = Field(default_factory=list, max_length=LINES_MAX)
    #: Back with the agent after a transfer that failed: its lines then.
    resumed: list[Line] = Field(default_factory=list, max_length=LINES_MAX)
    #: The voice it speaks with (a voice name of `GET /api/v1/voices`, for an accent); none:
    #: one unlike the agent's.
    voice: str | None = Field(None, max_length=64)
    #: For "ivr": the phone menu that answers.
    menu: MenuSpec | None = Field(None, validate_default=True)
    #: A quiet noise bed under its audio (generated: sandbox.noise).
    noise: Noise = "none"
    #: Who it is, in free text: with an LLM configured, the LLM writes its replies in this
    #: part (its `lines` are said when the LLM fails).
    persona: str = Field("", max_length=PERSONA_MAX)

    @field_validator("menu")
    @classmethod
    def _menu_fits(cls, menu: MenuSpec | None, info: ValidationInfo) -> MenuSpec | None:
        kind = info.data.get("kind")
        if menu is None:
            if kind == "ivr":
                raise ValueError("An IVR callee needs its menu.")
            return None
        if kind != "ivr":
            raise ValueError('Only an "ivr" callee has a menu.')
        depth, options, _ = menu.measure()
        if depth > MENU_DEPTH_MAX:
            raise ValueError(f"A menu is at most {MENU_DEPTH_MAX} menus deep.")
        if options > MENU_OPTIONS_MAX:
            raise ValueError(f"A menu has at most {MENU_OPTIONS_MAX} options in all.")
        return menu

    @field_validator("answers")
    @classmethod
    def _answers_talk(cls, answers: list[Answer], info: ValidationInfo) -> list[Answer]:
        if answers and info.data.get("kind") not in TALKING_KINDS:
            raise ValueError(
                "Answers are for a callee who talks: " + ", ".join(TALKING_KINDS) + "."
            )
        return answers

    @field_validator("persona")
    @classmethod
    def _persona_talks(cls, persona: str, info: ValidationInfo) -> str:
        if persona.strip() and info.data.get("kind") not in TALKING_KINDS:
            raise ValueError(
                "A free-text persona plays a callee who talks: " + ", ".join(TALKING_KINDS) + "."
            )
        return persona.strip()


class SaysWithin(BaseModel):
    """A phrase the agent must say (case and punctuation aside), within `within_seconds` of
    the answer when given (the AI disclosure within 10 s)."""

    model_config = ConfigDict(extra="forbid")

    phrase: Phrase
    within_seconds: float | None = Field(None, gt=0, le=3600)


class ToolExpected(BaseModel):
    """A tool the agent must call: its name, and the arguments it must have passed (a subset:
    each given key with this value)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    arguments: dict[Annotated[str, Field(max_length=64)], ArgumentValue] = Field(
        default_factory=dict, max_length=20
    )


#: How a call ends (telephony.state.CallOutcome: the call's `end_reason`).
Outcome = Literal[
    "completed",
    "voicemail",
    "transferred",
    "no-answer",
    "busy",
    "failed",
    "callee-hung-up",
    "time-limit",
]


class Expectations(BaseModel):
    """What must hold of the call. Each field left out is not checked; every one given is one
    check (a list: one check per item)."""

    model_config = ConfigDict(extra="forbid")

    outcome: Outcome | None = None
    #: Variables a flow captured, or analysis fields, with the value each must have (compared
    #: case-insensitively, spaces trimmed).
    values: dict[str, str] = Field(default_factory=dict, max_length=20)
    says: list[SaysWithin] = Field(default_factory=list, max_length=20)
    never_says: list[Phrase] = Field(default_factory=list, max_length=20)
    tools: list[ToolExpected] = Field(default_factory=list, max_length=10)
    #: Keys the agent must press, one after the other in this order (its keypad action lines'
    #: keys in all, pauses aside): "31" is pressed in "2931".
    keys: str | None = Field(None, min_length=1, max_length=64)
    #: Phrases the callee's side must say (an IVR: the first line of the person it reaches).
    callee_says: list[Phrase] = Field(default_factory=list, max_length=20)
    #: Handed to a person (True) or not (False).
    transferred: bool | None = None
    #: Flow node ids the call must pass through, in this order (others may come between).
    path: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        None, max_length=50
    )
    #: The most seconds the call may last (from the answer to the end).
    max_call_seconds: int | None = Field(None, ge=1, le=7200)
    #: The most seconds any reply may take (end of the callee's speech to the agent's audio).
    max_reply_seconds: float | None = Field(None, gt=0, le=60)

    @field_validator("keys")
    @classmethod
    def _are_keys(cls, keys: str | None) -> str | None:
        if keys is not None and any(k not in KEYPAD for k in keys):
            raise ValueError("Keys are 0-9, * and #.")
        return keys


class Scenario(BaseModel):
    """A simulated callee and what must hold of the call to it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=120)
    #: The group it is in (`callwright test-agent --suite NAME` runs one): the starter suite's
    #: are "starter" (the agent's callees) and "branches" (a flow's branches).
    suite: str = Field(DEFAULT_SUITE, min_length=1, max_length=60, pattern=SUITE_PATTERN)
    callee: Callee
    expect: Expectations = Field(default_factory=Expectations)
    #: Values for the call's `{{variables}}`.
    variables: dict[str, str] = Field(default_factory=dict, max_length=50)


class Evidence(BaseModel):
    """What decided a check: a transcript line, an event, a flow step or a reply's latency,
    where it is in the call (`index` in its list, `at`: seconds after the answer) and its text."""

    kind: Literal["line", "event", "step", "latency", "call"]
    index: int | None = None
    at: float | None = None
    text: str


class Check(BaseModel):
    """One expectation judged: `expectation` names it as the scenario does ("outcome",
    "says[0]", "never_says[1]", "tools[0]", "values.new_time", "path", ...)."""

    expectation: str
    passed: bool
    #: What was expected and what was found, in words.
    expected: str
    found: str
    evidence: Evidence | None = None


# The record of a finished call that the judge reads ---------------------------------------


@dataclass(frozen=True)
class RecordLine:
    """A transcript line: "agent" or "callee", its text, seconds after the answer."""

    speaker: Literal["agent", "callee"]
    text: str
    at: float


@dataclass(frozen=True)
class RecordAction:
    """An action the agent took (call_events.action): "tool", "transfer", "keys", ...; its
    name (a tool's), arguments, status ("ok", "failed", ...) and when."""

    kind: str
    name: str
    arguments: dict[str, Any]
    status: str
    at: float | None = None


@dataclass(frozen=True)
class CallRecord:
    """What the judge reads of a finished call."""

    call_id: str
    #: The call's end_reason (telephony.state.CallOutcome); None while unknown.
    outcome: str | None
    #: Seconds from the answer to the end (None: never answered).
    duration_seconds: float | None
    lines: list[RecordLine] = field(default_factory=list)
    actions: list[RecordAction] = field(default_factory=list)
    #: The call's pathway_logs (flow_graph.Step dumps).
    steps: list[dict[str, Any]] = field(default_factory=list)
    #: Each reply's heard latency in seconds, in order.
    reply_seconds: list[float] = field(default_factory=list)
    #: Captured flow variables and analysis fields.
    values: dict[str, str] = field(default_factory=dict)
    transferred_to: str | None = None
