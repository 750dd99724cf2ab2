"""The call API's shapes, with the spec's names (camelCase where the client sends it)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from callwright.kit.pagination import Pagination

PHONE_RE = re.compile(r"^\+\d{10,15}$")
PROMPT_MIN = 10
BackgroundAudio = Literal["null", "office", "cafe", "restaurant", "none"]


def check_phone(value: str) -> str:
    """Spec section 5, send-call phone (trimmed), with its three messages."""
    value = value.strip()
    if not value:
        raise ValueError("Phone number cannot be empty")
    if re.search(r"\s", value):
        raise ValueError("Phone number should not contain spaces")
    if not PHONE_RE.match(value):
        raise ValueError(
            'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)'
        )
    return value


class SendCallIn(BaseModel):
    userId: int
    phone: str
    prompt: str = Field(max_length=20_000)
    max_duration: int = Field(30, ge=1, le=120)
    voice: str = Field("", max_length=64)
    waitGreeting: bool = False
    temperature: float = Field(0.7, ge=0, le=1)
    interruption_threshold: int = Field(100, ge=50, le=200)
    background_audio: BackgroundAudio = "null"

    @field_validator("phone")
    @classmethod
    def _phone(cls, value: str) -> str:
        return check_phone(value)

    @field_validator("prompt")
    @classmethod
    def _prompt(cls, value: str) -> str:
        value = value.strip()
        if len(value) < PROMPT_MIN:
            raise ValueError("The prompt must be at least 10 characters long")
        return value


class SendCallOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    success: bool = True
    message: str = "Call initiated"
    callId: str
    from_: str = Field(alias="from", serialization_alias="from")
    balance: float


class TranscriptLine(BaseModel):
    user: Literal["assistant", "user"]
    text: str
    created_at: datetime


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


class CallDetails(CallRecord):
    prompt: str
    end_reason: str | None
    transcripts: list[TranscriptLine]
    analysis: AnalysisOut | None = None


class CallsPage(BaseModel):
    success: bool = True
    data: list[CallRecord]
    pagination: Pagination


class CallDetailsOut(BaseModel):
    success: bool = True
    data: CallDetails


class TranscriptOut(BaseModel):
    success: bool = True
    data: list[TranscriptLine]


class StatsData(BaseModel):
    name: str
    balance: float
    totalCalls: int
    totalMinutesUsed: float


class StatsOut(BaseModel):
    success: bool = True
    data: StatsData


class WeekdayStats(BaseModel):
    day: Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    totalCalls: int
    totalDuration: int
    successfulCalls: int
    failedCalls: int
    averageDuration: float
    usedBalance: float


class AnalysisByDayOut(BaseModel):
    success: bool = True
    data: list[WeekdayStats]


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


class AnalysisOut(BaseModel):
    summary: str
    outcome: str
    sentiment: str
    key_facts: list[KeyFactOut]
    method: Literal["offline", "llm"]


class AnalyzeIn(BaseModel):
    #: Analyse again even when a stored analysis exists.
    refresh: bool = False


class AnalyzeOut(BaseModel):
    success: bool = True
    data: AnalysisOut


CallDetails.model_rebuild()
