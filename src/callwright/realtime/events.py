"""Every socket.io message the server sends, as a pydantic model: the live events `publish()`
emits (each model names its event) and the visitor's `call-state` answer.

What goes on the wire is `LiveEvent.payload()`: the model's JSON with its aliases (`callId`,
`newBalance`, ...), and only the optional fields the sender set: a field left unset is absent,
as the screens expect (a transcript line's `answeredBy` only on a voicemail's greeting). The
models are published in the OpenAPI document (`realtime.schema`), so the web app's types for
them are generated like the REST types (`frontend/src/lib/realtime.ts`).

A low layer: the models know the shared vocabulary (`telephony.state`) and nothing of the
packages that send them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

from callwright.telephony.state import AnsweredBy, CallOutcome, CallStatus

#: A call's event, its kept transcript lines and its closing (`WebhookEvent`).
WEBHOOK_EVENT = "webhook-event"
#: Words being spoken on a call, not stored (`CaptionEvent`).
TRANSCRIPT_LIVE = "transcript-live"
#: An agent reply's latency (`TurnLatencyEvent`).
TURN_LATENCY = "turn-latency"
#: A user's balance after every change (`BalanceUpdate`).
BALANCE_UPDATE = "balance-update"
#: A campaign's progress or state changed (`CampaignUpdated`).
CAMPAIGN_UPDATED = "campaign-updated"
#: What a visitor's socket asks (acknowledged with `CallState`); never emitted.
CALL_STATE = "call-state"

#: Who said a line: the agent, the callee, or the person a call was transferred to.
Speaker = Literal["assistant", "user", "person"]
EventCategory = Literal["call", "status", "error", "action", "flow"]
#: What kind of thing the agent did in a call (docs/actions.md).
ActionKind = Literal["tool", "transfer", "keypad"]
#: Where an action stands: begun, done, or not done (failed or out of time).
ActionStatus = Literal["started", "succeeded", "failed", "timed-out"]
#: An optional field that is absent when not set, never null: the schema leaves null out.
Absent = SkipJsonSchema[None]


def _absent_has_no_default(schema: JsonDict) -> None:
    """An `Absent` field's schema: no `default: null` beside a type that is never null."""
    fields = schema.get("properties")
    for field in fields.values() if isinstance(fields, dict) else ():
        if isinstance(field, dict) and "type" in field and field.get("default", 0) is None:
            del field["default"]


class LiveEvent(BaseModel):
    """A message to sockets. Subclasses name their event in `event_name`."""

    model_config = ConfigDict(
        validate_by_name=True,
        validate_by_alias=True,
        extra="forbid",
        json_schema_extra=_absent_has_no_default,
        # "Call Id" from `call_id`, not "Callid" from its alias.
        field_title_generator=lambda name, _field: name.replace("_", " ").title(),
    )

    event_name: ClassVar[str]

    def payload(self) -> dict[str, Any]:
        """What the sockets receive."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class CallAction(BaseModel):
    """Something the agent did in a call (an in-call action): a tool it called, a transfer, keys
    pressed or heard. Kept as the call's event (category "action", `summary` its message), sent
    live on the `webhook-event` that carries it, and as the `call.action` webhook."""

    kind: ActionKind
    #: The tool's name, or the built-in action's: `transfer`, `press_digits`, `caller_pressed`.
    name: str
    status: ActionStatus
    #: The line the transcript shows ("Pressed 1 2", "check_calendar answered in 312 ms").
    summary: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    #: What came back (a tool's answer, a transfer's result), when there is one.
    result: Any = None
    #: How long it took, when it is over.
    latency_ms: int | None = None


class FlowNodeChange(BaseModel):
    """A call on a conversation flow moved (docs/flows.md): the node it went through, the edge
    it took out of it and why, what the callee said and what was captured. Kept in the call's
    `pathway_logs` and as its event (category "flow"), and sent live on the `webhook-event`
    that carries it: the live transcript marks the node change."""

    node_id: str
    node_name: str
    #: The edge taken out of the node (null: it waits there, or the call ended there).
    edge_id: str | None
    #: Why ("answer 'Confirm' by the phrase 'that works'", "fallback after 2 tries", ...).
    reason: str
    #: What the callee said (null: a move the callee did not make).
    heard: str | None
    captured: dict[str, str]
    #: Seconds into the call.
    at: float | None


class CallScoped(LiveEvent):
    """An event about one call."""

    call_id: str = Field(alias="callId")


class WebhookEvent(CallScoped):
    """`webhook-event`: one of the call's events (stored in its log), to its owner and the admins
    (the visitor, for the public test call). A kept transcript line ("Assistant: ..." / "User:
    ...") carries the line itself; "Closing call stream" carries how the call ended."""

    event_name = WEBHOOK_EVENT

    message: str
    category: EventCategory
    completed: bool
    speaker: Speaker | Absent = None
    text: str | Absent = None
    #: The line's number in the call.
    seq: int | Absent = None
    #: The line's key: its captions in flight (`transcript-live`) came under the same key.
    key: str | Absent = None
    #: When the line began (ISO 8601).
    at: str | Absent = None
    final: bool | Absent = None
    #: On "Closing call stream": how the call ended (null: not known).
    outcome: CallOutcome | None = None
    #: On "Closing call stream": who answered; on a line: "voicemail" for a voicemail's greeting.
    answered_by: AnsweredBy | None = Field(None, alias="answeredBy")
    #: On "Closing call stream": how the call ended, in words.
    outcome_text: str | Absent = Field(None, alias="outcomeText")
    #: On an action line (category "action"): what the agent did.
    action: CallAction | Absent = None
    #: On a flow's node change (category "flow"): the step taken.
    step: FlowNodeChange | Absent = None


class CaptionEvent(CallScoped):
    """`transcript-live`: a line being spoken right now, its words so far (the agent's as they
    are heard, the callee's as soon as transcribed). Its kept form follows as a `webhook-event`
    with the same key."""

    event_name = TRANSCRIPT_LIVE

    speaker: Speaker
    key: str
    text: str
    #: When the line began (ISO 8601).
    at: str
    final: Literal[False]


class TurnLatencyOut(BaseModel):
    """One agent reply's latency in milliseconds (null: the stage was not measured): the
    end-of-speech window, STT, the brain (LLM or policy) to its first text, TTS to the first
    audio, and the total from the callee's last word to the agent's first audio sent. The same
    fields go live as the `turn-latency` socket event, with `callId`."""

    model_config = ConfigDict(from_attributes=True)

    turn: int
    end_of_speech_ms: int | None
    stt_ms: int | None
    llm_ms: int | None
    tts_ms: int | None
    total_ms: int | None


class TurnLatencyEvent(TurnLatencyOut, CallScoped):
    """`turn-latency`: a reply's latency as it is measured, to the call's owner and the admins
    (the API's `TurnLatencyOut` and the call's id)."""

    event_name = TURN_LATENCY


class BalanceUpdate(LiveEvent):
    """`balance-update`: the user's balance in dollars, after every change."""

    event_name = BALANCE_UPDATE

    user_id: int = Field(alias="userId")
    new_balance: float = Field(alias="newBalance")


class CampaignUpdated(LiveEvent):
    """`campaign-updated`: a campaign's progress or state changed (the screens fetch its
    counters again)."""

    event_name = CAMPAIGN_UPDATED

    campaign_id: str = Field(alias="campaignId")
    state: str


class TranscriptLine(BaseModel):
    user: Speaker
    text: str
    #: When the line began to be spoken; lines come in that order.
    created_at: datetime
    #: The line's number in the call (the order it was kept in; the live events carry it too).
    seq: int


class CallState(CallScoped):
    """The answer to a visitor's `call-state`: the test call so far, for a socket that joined
    after it started."""

    event_name = CALL_STATE

    status: CallStatus
    answered: bool
    #: Seconds since it was answered, by the server's clock; null before.
    connected_seconds: int | None = Field(alias="connectedSeconds")
    finalized: bool
    #: The transcript so far, as `GET call/{id}/transcript` gives it.
    lines: list[TranscriptLine]


#: Every event `publish()` may emit, by name.
EMITTED: dict[str, type[LiveEvent]] = {
    model.event_name: model
    for model in (WebhookEvent, CaptionEvent, TurnLatencyEvent, BalanceUpdate, CampaignUpdated)
}
#: Every message the server sends, by name: the emitted events and the `call-state` answer.
MESSAGES: dict[str, type[LiveEvent]] = {**EMITTED, CALL_STATE: CallState}


def wire(event: LiveEvent) -> tuple[str, dict[str, Any]]:
    """The event's name and payload, as socket.io sends them; anything but a `LiveEvent` (an
    untyped dict) is refused."""
    if not isinstance(event, LiveEvent):
        raise TypeError(f"only a realtime.events.LiveEvent is published, not {type(event)!r}")
    return event.event_name, event.payload()
