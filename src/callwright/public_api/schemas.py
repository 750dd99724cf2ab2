"""The `/v1` API's shapes, in Bland's dialect (its field names, defaults and answers). Where
Bland's docs and its published Python SDK (`bland` 0.3.0) disagree, the SDK's models win: they
are what a switching customer's code parses. Every field of Bland's send call is honoured or
refused with a 400 naming it (`public_api.fields`; docs/api.md has the table); `tools`,
`dynamic_data`, the transfer fields and `precall_dtmf_sequence` are the actions'
(docs/actions.md), `pathway_id`, `pathway_version` and `start_node_id` a call on a conversation
flow (docs/flows.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from callwright.agents.settings import checked_dtmf
from callwright.agents.transfers import departments, optional_number
from callwright.compliance.disclosure import Disclosure
from callwright.kit.bounds import JsonObject, Minutes, TextMap

#: Our limit on `max_duration` (minutes); Bland allows up to 12 hours.
MAX_DURATION_MINUTES = 120
BackgroundTrack = Literal["office", "cafe", "restaurant", "none"]
VoicemailActionIn = Literal["hangup", "leave_message"]
VoiceNumber = Annotated[int, Field(ge=1, le=10_000)]
#: The types a field of `analysis_schema` may name; any other value is its description.
FIELD_TYPES = ("string", "boolean", "number", "integer")


class V1Voicemail(BaseModel):
    """Bland's `voicemail` object. `sms` and `sensitive: true` are refused (`fields`)."""

    model_config = ConfigDict(extra="forbid")

    action: VoicemailActionIn = "hangup"
    message: str | None = Field(None, max_length=2000)
    sms: Any = Field(None, description="Refused: not supported by Callwright yet.")
    sensitive: Any = Field(None, description="Only `false`: refused when true.")


class V1AnalysisField(BaseModel):
    """One field to extract after the call (the list form of `analysis_schema`)."""

    name: str = Field(min_length=1, max_length=64)
    type: str = Field("string", max_length=32)
    description: str = Field("", max_length=500)


HttpMethod = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]


def _method(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


class V1Tool(BaseModel):
    """Bland's custom tool object: an HTTP endpoint the agent's model may call mid-call
    (docs/actions.md, Tools). `response_data` is accepted and not used: the model reads the
    whole answer."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=64, description="A function name: letters, digits, _ and -.")
    description: str = Field(min_length=1, max_length=1000)
    url: str = Field(max_length=2048)
    method: HttpMethod = "POST"
    headers: dict[str, Annotated[str, Field(max_length=4000)]] | None = Field(
        None, max_length=20, description="Sent with each call; kept encrypted."
    )
    body: dict[str, Any] | list[Any] | None = Field(
        None,
        description="A JSON body template: `{{input.NAME}}` takes an argument, `{{NAME}}` a "
        "variable. Without one, the arguments are the body (the query for GET and DELETE).",
    )
    input_schema: dict[str, Any] | None = Field(
        None, description='The arguments\' JSON Schema (`"type": "object"`).'
    )
    speech: str | None = Field(
        None, max_length=300, description="Said at once while the tool runs."
    )
    timeout: int | None = Field(
        None, ge=1, le=30_000, description="Milliseconds, at most 30 000 (default 5 000)."
    )

    @field_validator("method", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return _method(value)


class V1ResponseData(BaseModel):
    """Which value of a dynamic data answer fills which variable."""

    name: str = Field(min_length=1, max_length=64)
    #: A JSON path in the answer ("$.data.name", "user.flights[0].status").
    data: str = Field(max_length=300)
    context: str | None = Field(None, max_length=1000)


class V1DynamicData(BaseModel):
    """Bland's `dynamic_data`: a request made when the call is dialled; its answer's values
    fill `{{variables}}` (docs/actions.md, Dynamic data)."""

    model_config = ConfigDict(extra="ignore")

    url: str = Field(max_length=2048)
    method: HttpMethod = "GET"
    headers: dict[str, Annotated[str, Field(max_length=4000)]] | None = Field(None, max_length=20)
    body: str | dict[str, Any] | None = Field(None, description="May use {{from}}, {{to}}, ...")
    cache: bool | None = Field(
        None, description="Accepted: the data is fetched once, when the call is dialled."
    )
    response_data: list[V1ResponseData] = Field(default_factory=list, max_length=20)

    @field_validator("method", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return _method(value)


SEND_CALL_EXAMPLES: dict[str, Any] = {
    "task": {
        "summary": "A call with a task",
        "value": {
            "phone_number": "+15551230000",
            "task": "You are Sarah from Bright Dental, confirming {{name}}'s cleaning tomorrow "
            "at 3 pm. Ask whether the time still works.",
            "first_sentence": "Hi {{name}}, this is Sarah from Bright Dental.",
            "voice": "joe",
            "max_duration": 5,
            "request_data": {"name": "Alex"},
            "metadata": {"crm_id": "lead-8812"},
            "webhook": "https://example.com/hooks/calls",
            "voicemail": {"action": "leave_message", "message": "Please call us back."},
            "summary_prompt": "Summarise whether the appointment is confirmed.",
            "dispositions": ["CONFIRMED", "RESCHEDULE", "NOT_INTERESTED"],
            "analysis_schema": {"confirmed": "boolean", "new_time": "the time they asked for"},
        },
    },
    "agent": {
        "summary": "A call from a saved agent",
        "value": {
            "phone_number": "+15551230000",
            "agent_id": "0b8f7c1e-6c2a-4a55-9d1c-3f7f0b0f6a10",
            "request_data": {"name": "Alex"},
        },
    },
    "scheduled": {
        "summary": "A scheduled call",
        "value": {
            "phone_number": "+15551230000",
            "task": "You are Sarah from Bright Dental, confirming tomorrow's cleaning at 3 pm.",
            "start_time": "2030-01-15 09:30:00",
            "timezone": "America/New_York",
        },
    },
}


TOOL_IDS_REFUSED = (
    "{at} is one of Bland's saved tool ids ({value!r}), which Callwright cannot read: send the "
    "tool object inline (name, description, url, method, headers, input_schema, speech), or "
    "save the tool on an agent and send its agent_id."
)


class V1CallActions(BaseModel):
    """What a call's agent may do besides talking (docs/actions.md): a transfer, keys pressed
    when answered, custom tools and dynamic data. Taken by `/v1/calls`, and by `/v1/batches`
    in `global` and in each call object."""

    model_config = ConfigDict(extra="ignore")

    transfer_phone_number: str | None = Field(
        None,
        max_length=40,
        description="Where the agent hands the callee to a person when they ask for one (E.164; "
        "over the agent's).",
    )
    transfer_list: dict[str, str] | None = Field(
        None,
        description='Departments and their numbers (`{"default": "+1...", "sales": "+1..."}`): '
        "the callee (or the model) names one; `default` when none is named.",
    )
    transfer_mode: Literal["cold", "warm"] | None = Field(
        None,
        description="Callwright's: `cold` (joined at once, the default) or `warm` (the person "
        "first hears a one-line summary).",
    )

    @field_validator("transfer_phone_number")
    @classmethod
    def _transfer_number(cls, value: str | None) -> str | None:
        return None if value is None else optional_number(value) or ""

    @field_validator("transfer_list")
    @classmethod
    def _transfer_list(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        return None if value is None else departments(value) or {}

    precall_dtmf_sequence: str | None = Field(
        None,
        max_length=200,
        description="Keys pressed when the call is answered, before the agent speaks: `0-9`, "
        "`*`, `#`, and `w` for a half-second pause, 64 at most (to get through a phone menu). "
        "Default: the agent's.",
        examples=["1w2#"],
    )

    @field_validator("precall_dtmf_sequence")
    @classmethod
    def _precall_dtmf_sequence(cls, value: str | None) -> str | None:
        return checked_dtmf(value)

    tools: list[V1Tool] | None = Field(
        None,
        max_length=20,
        description="Custom tools the agent may call mid-call (with an LLM configured), over "
        "the agent's own of the same name.",
    )
    dynamic_data: list[V1DynamicData] | None = Field(
        None, max_length=10, description="Requests made when the call is dialled."
    )

    @field_validator("tools", mode="before")
    @classmethod
    def _no_tool_ids(cls, value: Any) -> Any:
        """Bland's `"tools": ["TL-..."]` (tools saved on Bland's side) refused by name."""
        for i, item in enumerate(value if isinstance(value, list) else ()):
            if isinstance(item, str):
                raise ValueError(TOOL_IDS_REFUSED.format(at=f"tools[{i}]", value=item[:64]))
        return value


class V1CallPathway(BaseModel):
    """A call on a conversation flow (docs/flows.md), Bland's pathway fields: taken by
    `/v1/calls`, and by `/v1/batches` at the top level and in `global`."""

    model_config = ConfigDict(extra="ignore")

    pathway_id: str | None = Field(
        None,
        max_length=36,
        description="A conversation flow of yours (`GET /api/v1/flows`): the call follows its "
        "published version instead of the task (the task is then optional).",
    )
    pathway_version: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description="The flow's published version to follow (default: the latest).",
    )
    start_node_id: str | None = Field(
        None, max_length=64, description="The flow's node the call starts at (default: its start)."
    )


class V1SendCallIn(V1CallActions, V1CallPathway):
    """`POST /v1/calls`. `phone_number` and one of `task`, `agent_id` or `pathway_id` are
    required. Keys it does not declare are Bland's fields Callwright refuses, or unknown
    (`fields.refuse`)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    phone_number: str = Field(
        max_length=40,
        description="E.164 (`+15551230000`); without a `+` a 10-digit number is taken as US/"
        "Canada (+1), like Bland.",
    )
    task: str | None = Field(None, max_length=20_000, description="The prompt.")
    agent_id: str | None = Field(
        None,
        max_length=36,
        description="A saved agent of yours: its settings, with this request's on top.",
    )
    voice: Annotated[str, Field(max_length=64)] | VoiceNumber | None = Field(
        None, description="A voice name or id from `GET /v1/voices`.", examples=["joe"]
    )
    voice_id: VoiceNumber | None = Field(
        None, description="The SDK's numeric voice id (`voice` wins)."
    )
    language: str | None = Field(
        None,
        max_length=32,
        description="The call's language, one of `GET /api/v1/languages` (BCP-47, `en-US`; a "
        "bare `en`, Bland's `babel-en` and its SDK's `eng` name the same). Default: the "
        "agent's, else English. The voice must speak it.",
        examples=["en-US"],
    )
    first_sentence: str | None = Field(None, max_length=1000)
    wait_for_greeting: bool | None = None
    max_duration: Minutes | None = Field(
        None,
        ge=1,
        le=MAX_DURATION_MINUTES,
        description="Minutes, 1 to 120 (default 30). Its price is held until the call ends.",
    )
    temperature: float | None = Field(None, ge=0, le=1, description="0 to 1 (default 0.7).")
    interruption_threshold: int | None = Field(
        None,
        ge=50,
        le=500,
        description="Milliseconds of caller speech before the agent yields, 50 to 500 "
        "(default 100).",
    )
    background_track: BackgroundTrack | None = Field(
        None, description="`null` (quiet line static), `office`, `cafe`, `restaurant`, `none`."
    )
    request_data: JsonObject | None = Field(
        None,
        description="Values for the `{{variables}}` of the task and first sentence (at most "
        "10 levels deep and 16 KiB).",
    )
    metadata: JsonObject | None = Field(
        None,
        description="Your own data, returned on every read and webhook (at most 10 levels "
        "deep and 16 KiB).",
    )
    webhook: str | None = Field(
        None, max_length=2048, description="Where this call's `call.*` events go too."
    )
    voicemail: V1Voicemail | None = None
    voicemail_action: VoicemailActionIn | None = Field(
        None, description="Bland's older flat field (the SDK sends it); `voicemail` wins."
    )
    voicemail_message: str | None = Field(None, max_length=2000)
    record: bool | None = Field(
        None,
        description="Whether the call is recorded (default true; Bland's default is false). "
        "`false`: no recording is kept, `recording_url` is null, and the agent says it is an AI "
        "without the recording notice.",
    )
    answered_by_enabled: bool | None = Field(
        None,
        description="Show `answered_by` (human, voicemail, unknown, no-answer) on reads and "
        "webhooks; without it, it is null (as Bland).",
    )
    from_: str | None = Field(
        None,
        alias="from",
        max_length=40,
        description="The caller id: only this server's own number is taken (Callwright has "
        "no number pool); default that number.",
    )
    disclosure: Disclosure = Field(
        None,
        description="Callwright's: the AI disclosure said in the first turn, in your words (it "
        "must say the caller is an AI; the recording notice is added when left out). Default: "
        '"I\'m an AI assistant, and this call is recorded."',
    )
    summary_prompt: str | None = Field(None, max_length=2000)
    dispositions: list[str] | None = Field(None, max_length=50)
    analysis_schema: TextMap | list[V1AnalysisField] | None = Field(
        None,
        description="Fields to extract after the call: Bland's object (field -> type or "
        "description) or a list of `{name, type, description}`.",
    )
    start_time: str | None = Field(
        None,
        description="`YYYY-MM-DD HH:MM:SS` (in `timezone`), or with an offset "
        "(`2030-01-15 09:30:00 -05:00`). At least a minute ahead; stop cancels it.",
    )
    timezone: str | None = Field(
        None, max_length=64, description="IANA name; default America/Los_Angeles."
    )

    @field_validator("webhook")
    @classmethod
    def _webhook(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not value.startswith(("https://", "http://")):
            raise ValueError("The webhook must be an http(s) URL.")
        return value

    @field_validator("dispositions")
    @classmethod
    def _dispositions(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        cleaned = [d.strip() for d in value if d.strip()]
        if any(len(d) > 100 for d in cleaned):
            raise ValueError("Each disposition is at most 100 characters.")
        return cleaned or None


class V1SendCallOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "status": "success",
                    "message": "Call successfully queued.",
                    "call_id": "9c1e5b7a-3f0d-4a1e-b1c2-7d7f7f3b2a10",
                    "batch_id": None,
                }
            ]
        }
    )

    status: Literal["success"] = "success"
    message: str = "Call successfully queued."
    call_id: str
    batch_id: str | None = None
    #: What the rules for calling people said of a call they let through: on the sandbox
    #: network, outside calling hours, what a real carrier would have done; and when `webhook`
    #: is on a private address (loopback, the LAN ...), that it is and why this server allows
    #: those (else null).
    notice: str | None = None


class V1Error(BaseModel):
    """Every `/v1` error."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "status": "error",
                    "message": "Invalid phone number.",
                    "errors": {
                        "phone_number": [
                            'Phone number must start with "+" followed by 10-15 digits '
                            "(e.g., +15551234567)"
                        ]
                    },
                },
                {"status": "error", "message": "Insufficient balance.", "errors": {}},
            ]
        }
    )

    status: Literal["error"] = "error"
    message: str
    #: Field -> messages, for validation errors; empty otherwise.
    errors: dict[str, list[str]] = Field(default_factory=dict)


class V1ListedCall(BaseModel):
    """One call in `GET /v1/calls` (the SDK's `ListedCallData`)."""

    model_config = ConfigDict(populate_by_name=True)

    call_id: str
    createdAt: datetime
    created_at: datetime
    #: Minutes, answer to end.
    call_length: float
    to: str
    from_: str = Field(alias="from")
    completed: bool
    status: str
    queue_status: str
    error_message: str | None
    #: As in the call's details, but "" instead of null (the SDK's `ListedCallData` requires a
    #: string).
    answered_by: str
    batch_id: str | None
    price: float | None
    max_duration: int
    metadata: dict[str, Any]
    inbound: bool = False
    start_at: datetime | None


class V1CallsList(BaseModel):
    #: How many calls match the filters (all pages).
    count: int
    calls: list[V1ListedCall]


class V1TranscriptLine(BaseModel):
    id: str
    created_at: datetime
    text: str
    #: Who said it; "person": the person the call was transferred to.
    user: Literal["assistant", "user", "person"]
    c_id: str


class V1CallDetail(BaseModel):
    """`GET /v1/calls/{call_id}` and the `call.ended` webhook's data (the SDK's
    `CallDetailsResponse`: `batch_id` and `error_message` are strings, empty when none)."""

    model_config = ConfigDict(populate_by_name=True)

    call_id: str
    c_id: str
    to: str
    from_: str = Field(alias="from")
    status: str
    queue_status: str
    completed: bool
    #: human, voicemail, unknown (answered, not yet told), no-answer; null unless the call was
    #: sent with `answered_by_enabled` (as Bland).
    answered_by: str | None
    #: ASSISTANT or USER; PERSON (Callwright's) when the person a call was transferred to
    #: ended it.
    call_ended_by: Literal["ASSISTANT", "USER", "PERSON"] | None
    #: How Callwright says it ended (completed, voicemail, busy, no-answer, failed, stopped,
    #: time-limit, callee-hung-up, cut-by-fault); null while live.
    outcome: str | None
    #: Minutes, answer to end.
    call_length: float
    #: Seconds, answer to end (what is billed).
    corrected_duration: int
    created_at: datetime
    start_at: datetime | None
    started_at: datetime | None
    end_at: datetime | None
    max_duration: int
    #: US dollars; null until the call is settled.
    price: float | None
    voice: str
    agent_id: str | None
    summary: str | None
    disposition_tag: str | None
    analysis: dict[str, Any] | None
    analysis_schema: dict[str, str] | None
    summary_prompt: str | None
    dispositions: list[str] | None
    variables: dict[str, str]
    request_data: dict[str, str]
    metadata: dict[str, Any]
    transcripts: list[V1TranscriptLine]
    concatenated_transcript: str
    #: Whether the call is recorded (`record`); null `recording_url`: no recording.
    record: bool = True
    recording_url: str | None
    error_message: str
    #: The number the agent handed the callee to, and when (null: no transfer).
    transferred_to: str | None = None
    transferred_at: datetime | None = None
    #: Seconds before the transfer, and after one that reached the person (both billed).
    pre_transfer_duration: int | None = None
    post_transfer_duration: int | None = None
    #: Callwright's: dialing, then completed, busy, no-answer, failed or canceled.
    transfer_status: str | None = None
    #: The conversation flow the call followed (`pathway_id`, null: its task), the published
    #: version it pinned and its start node (docs/flows.md).
    pathway_id: str | None = None
    pathway_version: int | None = None
    start_node_id: str | None = None
    #: Each move through the flow: {node_id, node_name, edge_id, reason, heard, captured, at}
    #: (null: not a flow's call).
    pathway_logs: list[dict[str, Any]] | None = None
    batch_id: str
    endpoint_url: str
    inbound: bool = False


class V1StopOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"status": "success", "message": "Call ended successfully."}]
        }
    )

    status: Literal["success"] = "success"
    message: str = "Call ended successfully."


class V1RecordingOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "status": "success",
                    "url": "https://calls.example.com/v1/recordings/9c1e5b7a-3f0d-4a1e-b1c2-7d7f7f3b2a10",
                }
            ]
        }
    )

    status: Literal["success"] = "success"
    #: Where the audio is (`GET /v1/recordings/{call_id}`, with your key).
    url: str


class V1Voice(BaseModel):
    voice_id: int
    name: str
    description: str
    is_custom: bool = False
    reduce_latency: bool = True
    public: bool = True
    tags: list[str]


class V1VoicesList(BaseModel):
    voices: list[V1Voice]
    #: Bland's saved voice presets; Callwright has none.
    presets: list[dict[str, Any]] = Field(default_factory=list)
