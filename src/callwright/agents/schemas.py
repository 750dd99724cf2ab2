"""The agents API's shapes: what an agent holds, checked with clear per-field messages."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from callwright.agents import transfers
from callwright.agents.settings import (
    BackgroundAudio,
    checked_dtmf,
    checked_prompt,
    voice_mismatch,
)
from callwright.compliance.disclosure import Disclosure
from callwright.kit.bounds import Minutes
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.validation import Label
from callwright.speech import languages, tts
from callwright.voice_agent.flow_graph import FlowGraph

NAME_MAX = 120
PROMPT_MAX = 20_000
TEXT_MAX = 1000
SUMMARY_PROMPT_MAX = 2000
LIST_MAX = 30
LABEL_MAX = 64
DESCRIPTION_MAX = 500
URL_MAX = 2048
#: An extraction field's name: a letter or underscore, then letters, digits or underscores.
FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

VoicemailAction = Literal["leave_message", "hangup"]
FieldType = Literal["string", "number", "boolean", "date"]


def _optional_text(value: str | None) -> str | None:
    """Trimmed; an empty text is no text."""
    if value is None:
        return None
    return value.strip() or None


OptionalText = Annotated[str | None, AfterValidator(_optional_text)]
TransferNumber = Annotated[str | None, AfterValidator(transfers.optional_number)]
TransferList = Annotated[dict[str, str] | None, AfterValidator(transfers.departments)]


def voice_name(value: str) -> str:
    """A voice of this server's catalogue ("" when empty: the language's first, see AgentIn)."""
    value = value.strip()
    if value and tts.find(value) is None:
        raise ValueError("The selected voice is not available.")
    return value


def checked_webhook_url(value: str | None) -> str | None:
    """An http(s) URL (only its form: where it may point is checked at delivery)."""
    value = _optional_text(value)
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or any(c.isspace() for c in value)
    ):
        raise ValueError("The webhook URL must be a valid http or https URL.")
    return value


class AnalysisField(BaseModel):
    """A named value to extract from the call's transcript after it ends."""

    name: str = Field(max_length=LABEL_MAX)
    type: FieldType = "string"
    description: str = Field("", max_length=DESCRIPTION_MAX)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not FIELD_NAME.match(value):
            raise ValueError(
                "A field name starts with a letter or underscore and has only letters, "
                "digits and underscores (at most 64)."
            )
        return value

    @field_validator("description")
    @classmethod
    def _description(cls, value: str) -> str:
        return value.strip()


class AgentIn(BaseModel):
    """A saved agent as the editor sends it (POST creates, PUT replaces)."""

    model_config = ConfigDict(extra="forbid")

    name: Label = Field(max_length=NAME_MAX)
    prompt: str = Field(max_length=PROMPT_MAX)
    first_sentence: OptionalText = Field(None, max_length=TEXT_MAX)
    #: The language its calls are held in: one of GET /languages (BCP-47). Before `voice`,
    #: which must speak it.
    language: str = Field(languages.DEFAULT, max_length=32)
    voice: str = Field("", max_length=64, validate_default=True)
    temperature: float = Field(0.7, ge=0, le=1)
    interruption_threshold: int = Field(100, ge=50, le=200)
    background_audio: BackgroundAudio = "null"
    max_duration: Minutes = Field(30, ge=1, le=120)
    wait_for_greeting: bool = False
    voicemail_action: VoicemailAction = "leave_message"
    voicemail_message: OptionalText = Field(None, max_length=TEXT_MAX)
    #: Said in the first turn; None or empty: "I'm an AI assistant, and this call is recorded."
    disclosure: Disclosure = None
    summary_prompt: OptionalText = Field(None, max_length=SUMMARY_PROMPT_MAX)
    dispositions: list[str] = Field(default_factory=list, max_length=LIST_MAX)
    analysis_schema: list[AnalysisField] = Field(default_factory=list, max_length=LIST_MAX)
    webhook_url: Annotated[str | None, AfterValidator(checked_webhook_url)] = Field(
        None, max_length=URL_MAX
    )
    #: Where the agent may hand the callee to a person: one number, or departments -> numbers
    #: ("default" for a callee who names none); cold or warm (docs/actions.md, "Transfer").
    transfer_number: TransferNumber = Field(None, max_length=40)
    transfer_list: TransferList = None
    transfer_mode: transfers.TransferMode = "cold"
    #: Keys its calls press when answered, before the agent speaks: 0-9, *, #, and w for a
    #: half-second pause (Bland's `precall_dtmf_sequence`); None or empty: none.
    precall_dtmf_sequence: Annotated[str | None, AfterValidator(checked_dtmf)] = Field(
        None, max_length=200
    )
    #: The conversation flow its calls follow (the flow's latest published version when each
    #: is placed; docs/flows.md); None: the prompt. A call names its own with `pathway_id`.
    flow_id: str | None = Field(None, min_length=1, max_length=36)

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, value: str) -> str:
        return checked_prompt(value)

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        return languages.checked(value)

    @field_validator("voice")
    @classmethod
    def _voice(cls, value: str, info: ValidationInfo) -> str:
        """A catalogue voice that speaks the language (empty: the language's first)."""
        language = info.data.get("language")
        value = voice_name(value)
        if language is None:
            return value  # the language is refused: its own message says why
        if not value:
            return tts.default_voice(language).name
        voice = tts.find(value)
        if voice is not None and (mismatch := voice_mismatch(voice, language)):
            raise ValueError(mismatch)
        return value

    @field_validator("dispositions")
    @classmethod
    def _dispositions(cls, values: list[str]) -> list[str]:
        out: list[str] = []
        for value in values:
            value = value.strip()
            if not value or len(value) > LABEL_MAX:
                raise ValueError("Each disposition must be 1 to 64 characters long.")
            if value.casefold() in (v.casefold() for v in out):
                raise ValueError(f'The disposition "{value}" is listed twice.')
            out.append(value)
        return out

    @field_validator("analysis_schema")
    @classmethod
    def _fields(cls, values: list[AnalysisField]) -> list[AnalysisField]:
        seen: set[str] = set()
        for field in values:
            if field.name in seen:
                raise ValueError(f'The field "{field.name}" is listed twice.')
            seen.add(field.name)
        return values


class AgentSummary(BaseModel):
    """An agent in the list."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    voice: str
    language: str
    #: The `{{variables}}` its texts use, in first-use order.
    variables: list[str]
    created_at: datetime
    updated_at: datetime


class AgentOut(AgentSummary):
    prompt: str
    first_sentence: str | None
    temperature: float
    interruption_threshold: int
    background_audio: BackgroundAudio
    max_duration: int
    wait_for_greeting: bool
    voicemail_action: VoicemailAction
    voicemail_message: str | None
    disclosure: str | None
    summary_prompt: str | None
    dispositions: list[str]
    analysis_schema: list[AnalysisField]
    webhook_url: str | None
    transfer_number: str | None = None
    transfer_list: dict[str, str] | None = None
    transfer_mode: transfers.TransferMode = "cold"
    precall_dtmf_sequence: str | None = None
    flow_id: str | None = None


class AgentsPage(Paged[AgentSummary]):
    pass


class AgentResponse(Ok[AgentOut]):
    pass


class AgentSaved(Ok[AgentOut]):
    message: str
    #: Said when `webhook_url` is on a private address (loopback, the LAN ...) and why this
    #: server allows those; null otherwise.
    notice: str | None = None


class AgentDeleted(Envelope):
    message: str


class AgentVersionOut(BaseModel):
    """A saved state of the agent: its number (from 1), when it was saved and its settings."""

    version: int
    created_at: datetime
    settings: dict[str, Any]


class AgentVersionsPage(Paged[AgentVersionOut]):
    pass


class DerivedFlow(BaseModel):
    """The flow the offline brain follows for the agent's prompt. `offline`: no LLM is
    configured, so this is what the agent's calls really do (with one, the model improvises
    from the prompt and this is only the offline brain's reading of it)."""

    graph: FlowGraph
    offline: bool


class DerivedFlowResponse(Ok[DerivedFlow]):
    pass
