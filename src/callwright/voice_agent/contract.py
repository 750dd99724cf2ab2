"""What the voice agent and the call flows exchange (no Pipecat here)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

if TYPE_CHECKING:  # flow_graph imports this module (KEYS_PATTERN)
    from callwright.voice_agent.flow_graph import FlowGraph, FlowState, Step

Speaker = Literal["assistant", "user", "person"]
#: The media streams a call may have (see CallPlan.leg).
Leg = Literal["agent", "listen", "resume"]
#: Keys the agent can press: 0-9, * and #, `w` a half-second pause; 1 to 64 of them (Bland's
#: `precall_dtmf_sequence`).
KEYS_PATTERN = re.compile(r"[0-9*#w]{1,64}")
#: Said at once when a tool starts, unless the tool has its own line.
WAITING_LINE = "One moment while I check that."
#: How long a tool may take by default, and at most (seconds).
TOOL_TIMEOUT = 5.0
TOOL_TIMEOUT_MAX = 30.0


@dataclass(frozen=True)
class ToolSpec:
    """A custom tool as the voice agent calls it: an HTTP endpoint (secrets already opened)."""

    name: str
    description: str
    #: The JSON Schema (an object) of its arguments.
    parameters: Mapping[str, Any]
    url: str
    method: str = "POST"
    headers: Mapping[str, str] = field(default_factory=dict)
    #: A body template (its `{{variables}}` and `{{input.NAME}}` filled); None: the arguments.
    body: Any = None
    timeout_seconds: float = TOOL_TIMEOUT
    waiting_line: str = WAITING_LINE


@dataclass(frozen=True)
class CallPlan:
    call_id: str
    prompt: str
    voice: str
    temperature: float
    interruption_threshold_ms: int
    background_audio: str
    max_duration_seconds: float
    wait_for_greeting: bool
    #: On voicemail: leave a message ("message") or hang up without one ("hangup").
    voicemail: Literal["message", "hangup"] = "message"
    #: The fixed opening line, spoken instead of a generated greeting (None: generated).
    first_sentence: str | None = None
    #: The message left on voicemail (None: a short one made from the prompt, or the LLM's).
    voicemail_message: str | None = None
    #: Said in the first turn, after the introduction or the first sentence: the AI disclosure
    #: and recording notice ("" for none: the call side always gives one).
    disclosure: str = ""
    #: The language the call is held in (a `speech.languages` code): the STT's and the voice's.
    language: str = "en-US"
    #: Whether the agent may hand the callee to a person, and the departments it may name
    #: (empty: one number, or none).
    can_transfer: bool = False
    transfer_departments: tuple[str, ...] = ()
    #: Which of the call's media streams this is: the agent's first ("agent"), the transfer's
    #: listening stream ("listen"), or the agent back after a failed transfer ("resume").
    leg: Leg = "agent"
    #: For a resumed agent: the conversation so far, and how the transfer ended (busy,
    #: no-answer, failed, canceled).
    history: tuple[tuple[Speaker, str], ...] = ()
    transfer_result: str | None = None
    #: Keys pressed when the call is answered, before the agent speaks ("" for none; see
    #: KEYS_PATTERN and voice_agent.keypad).
    precall_dtmf_sequence: str = ""
    #: The custom tools the agent may call (an LLM through function calling; docs/actions.md).
    tools: tuple[ToolSpec, ...] = ()
    #: The call's `{{variables}}`: filled into a tool's URL, headers and body.
    variables: Mapping[str, Any] = field(default_factory=dict)
    #: Whether the call is recorded (false: nothing is spooled and no recording handed over).
    record: bool = True
    #: The callee's own date when the call started: what a flow's captures count "tomorrow"
    #: from (None: the voice process's date).
    today: date | None = None
    #: The conversation flow the call follows (docs/flows.md), its pinned published version's
    #: graph, and the node it starts at (None: the graph's start); None: the prompt's call.
    flow: FlowGraph | None = None
    flow_start_node_id: str | None = None
    #: For a resumed agent on a flow: where the flow stood when the transfer began.
    flow_state: FlowState | None = None
    #: How much faster than real time the call's clock runs: its carrier's (the sandbox's in
    #: tests, also a lab call's beside a real carrier; else 1).
    speed: float = 1.0


@dataclass(frozen=True)
class Recording:
    #: Interleaved stereo int16: agent left, callee right.
    stereo: np.ndarray
    rate: int
    seconds: float


@dataclass
class TurnTiming:
    turn: int
    end_of_speech_ms: int | None = None
    stt_ms: int | None = None
    llm_ms: int | None = None
    tts_ms: int | None = None
    total_ms: int | None = None


#: Why the agent ends a call: its conversation is over (a voicemail message left included; the
#: calls side tells a voicemail by `answered_by`), or the call's time limit ran out.
AgentEnding = Literal["completed", "time-limit"]
#: Who the agent heard pick up, from the callee's first words.
Answerer = Literal["human", "voicemail"]


ActionKind = Literal["tool", "transfer", "keypad"]
ActionStatus = Literal["started", "succeeded", "failed", "timed-out"]


@dataclass(frozen=True)
class ActionReport:
    """Something the agent did in the call (docs/actions.md): a tool called, a transfer, keys
    pressed or heard. `summary` is the line the transcript shows."""

    kind: ActionKind
    #: The tool's name, or the built-in action's (`transfer`, `press_digits`, `caller_pressed`).
    name: str
    status: ActionStatus
    summary: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    result: Any = None
    latency_ms: int | None = None


@dataclass(frozen=True)
class TransferStarted:
    """What the carrier said to a transfer: `ok` (the call is being moved: this stream will
    stop), or why not; `to` names the department it went to."""

    ok: bool
    to: str = ""
    reason: str = ""


class CallHooks(Protocol):
    async def answered(self) -> None: ...
    async def caption(self, speaker: Speaker, text: str, *, key: str, at: float) -> None:
        """A line still being spoken (or just transcribed): its words so far. `key` names the
        line (the same key comes with its final form); `at` is when it started (epoch s)."""
        ...

    async def line(self, speaker: Speaker, text: str, *, key: str, at: float) -> None:
        """A line's final form, to keep in the transcript."""
        ...

    async def answered_by(self, who: Answerer) -> None: ...
    async def opted_out(self, heard: str) -> None:
        """The callee asked not to be called again, in these words (the evidence)."""
        ...

    async def latency(self, timing: TurnTiming) -> None: ...
    async def action(self, report: ActionReport) -> None:
        """The agent did something in the call: kept in the call's events (an action line),
        published live, and sent as the `call.action` webhook."""
        ...

    async def step(self, step: Step) -> None:
        """The call's flow moved (docs/flows.md): kept in the call's `pathway_logs` and
        published live as a node change."""
        ...

    async def hang_up(self, ending: AgentEnding = "completed") -> None: ...
    async def transfer(
        self,
        department: str | None,
        summary: str,
        *,
        number: str | None = None,
        mode: str | None = None,
    ) -> TransferStarted:
        """Hand the callee to a person (the department's number, else the call's; a flow's
        transfer node may name its own `number` and `mode`): the carrier stops this stream
        when it has taken the call; `summary` is a warm transfer's whisper."""
        ...

    async def transfer_failed(self) -> bool:
        """Whether the call's transfer ended without reaching the person (a listening stream
        then ends: the agent comes back on a stream of its own)."""
        ...

    async def recorded(self, callee: bytes, agent: bytes, rate: int) -> None:
        """What each side's track (mono int16 at `rate`) recorded since the last time, as the
        call goes, so a process that dies mid-call leaves what it had."""
        ...

    async def finished(self, recording: Recording | None) -> None: ...


class MediaCalls(Protocol):
    """Which media streams may join which call: what the media endpoint asks of the calls."""

    def verify(self, headers: Mapping[str, str]) -> bool:
        """Whether the websocket upgrade's headers carry the proof of origin of one of the
        install's carriers (the call's own secret, in `claim`, says which call it is)."""
        ...

    async def claim(self, call_id: str, token: str, leg: str = "agent") -> CallPlan | None:
        """Spend the call's single-use media secret for this leg (the listening stream has its
        own): the call's plan, or None to refuse."""
        ...

    def hooks(self, call_id: str, leg: Leg = "agent") -> CallHooks: ...
