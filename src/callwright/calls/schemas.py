"""The call API's shapes, with the spec's names (camelCase where the client sends it)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator

from callwright.agents.settings import BackgroundAudio, checked_prompt
from callwright.agents.transfers import TransferMode, optional_number
from callwright.calls.service import CallKind
from callwright.compliance.disclosure import Disclosure
from callwright.kit.bounds import BodyId, Minutes, TextMap
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.phone import DialNumber
from callwright.realtime.events import CallAction, FlowNodeChange, TranscriptLine, TurnLatencyOut
from callwright.speech import languages
from callwright.telephony.state import AnsweredBy, CallOutcome
from callwright.voice_agent.flow_graph import FlowGraph

#: The most `{{variables}}` one call may be given, and the longest value.
VARIABLES_MAX = 50
VARIABLE_VALUE_MAX = 1000
VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]{0,63}$")


class SendCallIn(BaseModel):
    """The Send Call form. With `agentId` the saved agent's settings fill in every field the
    request leaves out (the fields it sends win); `variables` fill the `{{placeholders}}`."""

    userId: BodyId
    #: E.164 once validated (kit.phone).
    phone: DialNumber
    #: Required unless the call starts from an agent.
    prompt: str | None = Field(None, max_length=20_000)
    max_duration: Minutes = Field(30, ge=1, le=120)
    voice: str = Field("", max_length=64)
    #: The call's language (BCP-47, one of GET /languages; over the agent's; default English).
    language: str | None = Field(None, max_length=32)
    waitGreeting: bool = False
    temperature: float = Field(0.7, ge=0, le=1)
    interruption_threshold: int = Field(100, ge=50, le=200)
    background_audio: BackgroundAudio = "null"
    #: The saved agent the call starts from.
    agentId: str | None = Field(None, max_length=36)
    #: Values for the `{{placeholders}}` of the prompt, first sentence and voicemail message.
    variables: TextMap | None = None
    #: A fixed opening line ("" for none, over the agent's).
    first_sentence: str | None = Field(None, max_length=1000)
    voicemail_action: Literal["leave_message", "hangup"] | None = None
    voicemail_message: str | None = Field(None, max_length=1000)
    #: The AI disclosure's wording for this call (over the agent's; empty: the default).
    disclosure: Disclosure = None
    #: Dial at this moment instead of at once ("Call when the window opens"): ISO 8601 with
    #: an offset, in the future, at most 30 days ahead.
    start_at: AwareDatetime | None = None
    #: Where the agent may hand the callee to a person ("" for none, over the agent's), and
    #: how (cold or warm; over the agent's).
    transfer_number: str | None = Field(None, max_length=40)
    transfer_mode: TransferMode | None = None
    #: A conversation flow of the user's to follow instead of the prompt (over the agent's):
    #: its published version (null: the latest) and the node to start at (null: its start).
    #: An empty `flow_id` switches an agent's flow off for this call (the prompt leads it).
    flow_id: str | None = Field(None, max_length=36)
    flow_version: int | None = Field(None, ge=1, le=1_000_000)
    start_node_id: str | None = Field(None, max_length=64)

    @field_validator("transfer_number")
    @classmethod
    def _transfer_number(cls, value: str | None) -> str | None:
        return None if value is None else optional_number(value) or ""

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, value: str | None) -> str | None:
        return None if value is None else checked_prompt(value)

    @field_validator("language")
    @classmethod
    def _language(cls, value: str | None) -> str | None:
        return None if value is None or not value.strip() else languages.checked(value)

    @field_validator("first_sentence", "voicemail_message")
    @classmethod
    def _trimmed(cls, value: str | None) -> str | None:
        return None if value is None else value.strip()

    @field_validator("variables")
    @classmethod
    def _variables(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is None:
            return None
        if len(value) > VARIABLES_MAX:
            raise ValueError(f"At most {VARIABLES_MAX} variables may be given.")
        for name, text in value.items():
            if not VARIABLE_NAME.match(name):
                raise ValueError(f'"{name[:64]}" is not a valid variable name.')
            if len(text) > VARIABLE_VALUE_MAX:
                raise ValueError(
                    f"The value of {name} must be {VARIABLE_VALUE_MAX} characters or less."
                )
        return {name: text.strip() for name, text in value.items()}


class SendCallOut(Envelope):
    model_config = ConfigDict(populate_by_name=True)

    message: str = "Call initiated"
    callId: str
    from_: str = Field(alias="from", serialization_alias="from")
    balance: float
    #: When a scheduled call will be dialled (null: at once).
    scheduled_for: datetime | None = None
    #: What the rules for calling people said of the call: on the sandbox network, outside
    #: calling hours, what a real carrier would have done (else null).
    notice: str | None = None


class HasRecording(Protocol):
    id: str
    recording_path: str | None


def play_url(call: HasRecording) -> str | None:
    """Where a call's recording plays (`GET play-recording/{id}`), None when it has none."""
    return f"/api/v1/play-recording/{call.id}" if call.recording_path else None


class CallRecord(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    call_id: str
    from_: str = Field(alias="from", serialization_alias="from")
    to: str
    created_at: datetime
    status: str
    #: How the call ended; null while it is live.
    outcome: CallOutcome | None
    #: Who picked up: null before the answer, "unknown" until the callee is heard.
    answered_by: AnsweredBy | None
    #: Seconds from answer to end (what is billed).
    corrected_duration: int
    #: Seconds from the send to the end, ringing included.
    call_length: int
    #: Where the recording plays, or null when there is none.
    record_url: str | None
    #: Settled cost in dollars; null until the call is settled.
    cost: float | None
    max_duration: int
    voice: str
    completed: bool


class CallTransferOut(BaseModel):
    """Where the call could be handed to a person, and what its transfer did (Bland's names)."""

    transfer_number: str | None
    transfer_list: dict[str, str] | None
    #: cold or warm.
    transfer_mode: str
    #: The number the agent handed the callee to (null: no transfer asked for).
    transferred_to: str | None
    transferred_at: datetime | None
    #: dialing, then the person's leg's end: completed, busy, no-answer, failed, canceled.
    transfer_status: str | None
    #: Seconds of the call before the transfer, and after a transfer that reached the person
    #: (the two parts of the billed duration).
    pre_transfer_duration: int | None
    post_transfer_duration: int | None
    #: Who ended a call whose transfer reached the person: callee or person (null otherwise).
    transfer_ended_by: Literal["callee", "person"] | None = None


class CallDetails(CallRecord):
    prompt: str
    #: The call's transfer settings and what its transfer did.
    transfer: CallTransferOut
    #: Why it failed (the carrier's words), or how a fault cut it; null otherwise.
    error: str | None
    transcripts: list[TranscriptLine]
    analysis: AnalysisOut | None = None
    #: Per agent reply, in turn order.
    latencies: list[TurnLatencyOut]
    #: The conversation flow the call followed (null: its prompt), the published version it
    #: pinned, and the node it started at (null: the flow's start; docs/flows.md).
    flow_id: str | None = None
    flow_version: int | None = None
    start_node_id: str | None = None
    #: Each move through the flow, in order: the node, the edge taken and why, what the callee
    #: said and what was captured (null: not a flow's call).
    pathway_logs: list[FlowNodeChange] | None = None


class CallsPage(Paged[CallRecord]):
    pass


class CallSettingsOut(BaseModel):
    """What the call was placed with (from the form, an agent, the API or a campaign)."""

    #: Where it was placed from: the dashboard, the /v1 API, a campaign or the public test call.
    source: Literal["dashboard", "api", "campaign", "test", "lab"]
    prompt: str
    voice: str
    temperature: float
    interruption_threshold: int
    background_audio: str
    #: Minutes.
    max_duration: int
    wait_for_greeting: bool
    first_sentence: str | None
    voicemail_action: str
    voicemail_message: str | None
    disclosure: str | None
    variables: dict[str, Any] | None
    summary_prompt: str | None
    dispositions: list[str] | None
    analysis_schema: list[dict[str, Any]] | None
    agent_id: str | None
    #: The agent's name now (null: no agent, or deleted since).
    agent_name: str | None
    campaign_id: str | None
    campaign_name: str | None
    #: When a scheduled call was due (null: dialled at once).
    start_at: datetime | None


class CallActionOut(CallAction):
    """An action line's action as the call's page shows it (what its live message carried)."""


class CallEventOut(BaseModel):
    """One row of the call's log (what went out live as a `webhook-event`)."""

    category: str
    message: str
    created_at: datetime
    #: An action line's action (kind, name, status, arguments, result, latency_ms).
    action: CallActionOut | None = None


class CallTimes(BaseModel):
    queued_at: datetime
    ringing_at: datetime | None
    answered_at: datetime | None
    ended_at: datetime | None
    #: When the recording begins: the media stream's "Call connected" (else the answer).
    recording_started_at: datetime | None
    #: When the recording ends (the media stream closed).
    recording_ended_at: datetime | None


class LedgerLineOut(BaseModel):
    #: hold | charge | release | refund | adjustment
    kind: str
    #: Dollars; negative takes money from the balance.
    amount: float
    balance_after: float
    created_at: datetime


class CallBillingOut(BaseModel):
    """How the call's cost was computed (docs/calls-and-billing.md, the spec's rule)."""

    #: Dollars per started minute.
    rate_per_minute: float
    #: Held at send: max duration x the rate.
    hold: float
    #: Seconds connected (answer to hang-up): what is billed.
    billed_seconds: int
    #: ceil((billed_seconds - 1) / 60).
    billed_minutes: int
    #: The settled charge (null until settled).
    cost: float | None
    #: The rule's charge was more than the hold, so the hold was charged.
    capped: bool
    #: The rule in words.
    rule: str
    #: This call's figures through the rule, in words.
    explanation: str
    ledger: list[LedgerLineOut]


class CallOwner(BaseModel):
    id: int
    name: str
    email: str


class CallPage(CallDetails):
    """Everything a call's page shows: the details, the settings it was placed with, its events,
    its times (to place the transcript on the recording) and its cost with the rule."""

    #: Where it came from: the Send Call page, the API, a batch, a campaign, the test call, the CLI.
    kind: CallKind
    settings: CallSettingsOut
    events: list[CallEventOut]
    times: CallTimes
    billing: CallBillingOut
    #: Who placed it (the admin's view; null on the owner's own page and for the test call).
    owner: CallOwner | None = None
    #: The graph of the flow's version the call followed, as it ran it (null: not a flow's
    #: call): its `pathway_logs` drawn on it show the path, whatever became of the flow since.
    flow_graph: FlowGraph | None = None


class CallPageOut(Ok[CallPage]):
    pass


class CallDetailsOut(Ok[CallDetails]):
    pass


class TranscriptOut(Ok[list[TranscriptLine]]):
    pass


class LiveCall(BaseModel):
    """A call that has not ended, with what Send Call needs to pick it up again: its settings,
    when it was answered (the timer) and its transcript so far."""

    call_id: str
    status: str
    to: str
    prompt: str
    voice: str
    language: str
    temperature: float
    interruption_threshold: int
    background_audio: BackgroundAudio
    max_duration: int
    wait_for_greeting: bool
    created_at: datetime
    answered_at: datetime | None
    transcripts: list[TranscriptLine]


class LiveCallsOut(Ok[list[LiveCall]]):
    pass


class LatencyOut(Ok[list[TurnLatencyOut]]):
    pass


class StatsData(BaseModel):
    name: str
    balance: float
    totalCalls: int
    totalMinutesUsed: float


class StatsOut(Ok[StatsData]):
    pass


class WeekdayStats(BaseModel):
    day: Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    totalCalls: int
    totalDuration: int
    successfulCalls: int
    failedCalls: int
    #: The failed calls by how they ended (each outcome its own colour in the chart).
    failedByOutcome: dict[CallOutcome, int]
    averageDuration: float
    usedBalance: float


class AnalysisByDayOut(Ok[list[WeekdayStats]]):
    pass


class ReportIn(BaseModel):
    reason: str = Field(max_length=2000)

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("The reason field is required.")
        return value


class KeyFactOut(BaseModel):
    fact: str
    lines: list[int]


class ExtractedFieldOut(BaseModel):
    #: Text, a number, true/false, or an ISO 8601 date; null when the call does not say.
    value: str | int | float | bool | None
    #: The transcript line (1-based) it comes from.
    line: int | None = None


class AnalysisOut(BaseModel):
    summary: str
    outcome: str
    sentiment: str
    key_facts: list[KeyFactOut]
    method: Literal["offline", "llm"]
    #: One of the call's dispositions (null: it gave none, or none fits).
    disposition_tag: str | None = None
    #: The call's analysis_schema fields by name.
    fields: dict[str, ExtractedFieldOut] = {}


class AnalyzeIn(BaseModel):
    #: Analyse again even when a stored analysis exists.
    refresh: bool = False


class AnalyzeOut(Ok[AnalysisOut]):
    pass


CallDetails.model_rebuild()
CallPage.model_rebuild()
