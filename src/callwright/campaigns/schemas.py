"""The campaigns API's shapes (docs/campaigns.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from callwright.compliance.calling_hours import Window
from callwright.kit.bounds import Moment
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.validation import Label

#: 0 Monday .. 6 Sunday.
Weekday = Annotated[int, Field(ge=0, le=6)]
CONCURRENCY_MAX = 20
PACE_MAX = 120
RETRIES_MAX = 5
WAIT_MAX_MINUTES = 7 * 24 * 60


class RetryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attempts: int = Field(ge=0, le=RETRIES_MAX)
    wait_minutes: int = Field(ge=0, le=WAIT_MAX_MINUTES)


class CampaignIn(BaseModel):
    """A new campaign (a draft until started)."""

    model_config = ConfigDict(extra="forbid")

    name: Label = Field(max_length=120)
    agent_id: str = Field(max_length=36)
    start_at: Moment | None = None
    end_at: Moment | None = None
    #: 0 Monday .. 6 Sunday, in the callee's local time.
    days: list[Weekday] = Field(default_factory=lambda: [0, 1, 2, 3, 4], min_length=1, max_length=7)
    #: The daily window in the callee's local time; inside the legal calling hours.
    calling_window: str = Field("09:00-20:00", max_length=11)
    concurrency: int = Field(3, ge=1, le=CONCURRENCY_MAX)
    pace_per_minute: int = Field(10, ge=1, le=PACE_MAX)
    retries: dict[Literal["no-answer", "busy", "voicemail", "failed"], RetryIn] = Field(
        default_factory=dict
    )
    #: In dollars; None for no cap.
    spend_cap: float | None = Field(None, gt=0, le=1_000_000)

    @field_validator("days")
    @classmethod
    def _days(cls, value: list[int]) -> list[int]:
        return sorted(set(value))

    @field_validator("calling_window")
    @classmethod
    def _window(cls, value: str) -> str:
        return str(Window.parse(value))

    @model_validator(mode="after")
    def _times(self) -> CampaignIn:
        if self.start_at and self.end_at and self.end_at <= self.start_at:
            raise ValueError("The end must come after the start.")
        return self


class Counters(BaseModel):
    total: int = 0
    pending: int = 0
    calling: int = 0
    done: int = 0
    opted_out: int = 0
    skipped: int = 0
    #: The done contacts by their last call's outcome.
    outcomes: dict[str, int] = Field(default_factory=dict)


class CampaignOut(BaseModel):
    id: str
    name: str
    agent_id: str | None
    agent_name: str | None
    state: Literal["draft", "scheduled", "running", "paused", "completed", "cancelled"]
    state_reason: str | None
    start_at: datetime | None
    end_at: datetime | None
    days: list[int]
    calling_window: str
    concurrency: int
    pace_per_minute: int
    retries: dict[str, RetryIn]
    spend_cap: float | None
    #: Charged and held so far, in dollars.
    spent: float
    #: The most the contacts still to call can cost (each at the agent's max duration).
    max_remaining_cost: float
    counters: Counters
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class CampaignResponse(Ok[CampaignOut]):
    pass


class CampaignsPage(Paged[CampaignOut]):
    pass


class RefusedRowOut(BaseModel):
    row: int
    value: str
    reason: str


class ZoneMismatchOut(BaseModel):
    """A row whose `timezone` is not one its number rings in: the campaign's window is kept in
    the file's zone, the legal calling hours in the number's."""

    row: int
    phone_number: str
    file_zone: str
    number_zones: list[str]


class LoadReport(BaseModel):
    accepted: int
    refused_count: int
    #: The first 100 refused rows; `reasons` counts them all by reason.
    refused: list[RefusedRowOut]
    reasons: dict[str, int]
    #: Accepted rows whose file's zone and number disagree (the first 100; all counted).
    zone_mismatch_count: int = 0
    zone_mismatches: list[ZoneMismatchOut] = []
    #: The legal calling hours (HH:MM-HH:MM in the number's zone) the review names.
    calling_hours: str = ""
    #: The agent's `{{variables}}` each row had to fill.
    variables: list[str]


class LoadOut(Ok[LoadReport]):
    pass


class ContactOut(BaseModel):
    id: int
    row: int
    phone_number: str
    variables: dict[str, str]
    timezone: str | None
    status: Literal["pending", "calling", "done", "opted-out", "skipped"]
    outcome: str | None
    note: str | None
    attempts: int
    next_attempt_at: datetime | None
    last_call_id: str | None
    #: From the last call's post-call analysis.
    disposition: str | None
    fields: dict[str, object] | None


class ContactsPage(Paged[ContactOut]):
    pass


class ZoneOut(BaseModel):
    #: The zone (or zones, comma-separated) its contacts' window is checked in.
    zones: str
    contacts: int
    open_now: bool
    #: When the window next opens there (UTC); None when it does not within two weeks.
    opens_at: datetime | None


class ZonesOut(Ok[list[ZoneOut]]):
    pass


class Acted(Envelope):
    message: str
    data: CampaignOut
