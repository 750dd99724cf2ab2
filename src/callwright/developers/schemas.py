"""The developers page's API shapes: API keys, webhook endpoints, the signing secret and the
delivery log."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field, field_validator

from callwright.developers.outbox import EVENTS
from callwright.developers.ssrf import TargetRefused, check_syntax
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.validation import Label


class ApiKeyIn(BaseModel):
    name: Label = Field(min_length=1, max_length=100)


class ApiKeyOut(BaseModel):
    id: int
    name: str
    #: The key's first characters (`cw_` and 8), to tell keys apart; never the key.
    prefix: str
    created_at: datetime
    last_used_at: datetime | None


class ApiKeysPage(Paged[ApiKeyOut]): ...


class ApiKeyCreated(Envelope):
    data: ApiKeyOut
    #: The key itself: shown this once, only its hash is kept.
    key: str


def _url(value: str) -> str:
    value = value.strip()
    try:
        check_syntax(value)
    except TargetRefused as exc:
        raise ValueError(str(exc)) from None
    return value


def _events(value: list[str]) -> list[str]:
    unknown = [event for event in value if event not in EVENTS]
    if unknown:
        raise ValueError(f"Unknown event {unknown[0]!r}: choose from {', '.join(EVENTS)}.")
    if not value:
        raise ValueError("Choose at least one event.")
    return [event for event in EVENTS if event in value]


class EndpointIn(BaseModel):
    url: str = Field(max_length=2048)
    description: str = Field("", max_length=200)
    events: list[str] = Field(default_factory=lambda: list(EVENTS), max_length=len(EVENTS) * 2)
    enabled: bool = True

    _check_url = field_validator("url")(_url)
    _check_events = field_validator("events")(_events)


class EndpointUpdate(BaseModel):
    """What a PUT changes (fields left out stay as they are)."""

    url: str | None = Field(None, max_length=2048)
    description: str | None = Field(None, max_length=200)
    events: list[str] | None = Field(None, max_length=len(EVENTS) * 2)
    enabled: bool | None = None

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        return None if value is None else _url(value)

    @field_validator("events")
    @classmethod
    def _check_events(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else _events(value)


class EndpointOut(BaseModel):
    id: int
    url: str
    description: str
    events: list[str]
    enabled: bool
    #: Why the system disabled it (410 Gone, failing for a day); null otherwise.
    disabled_reason: str | None
    #: Since when every delivery to it has failed; null while it succeeds.
    failing_since: datetime | None
    created_at: datetime


class EndpointsPage(Paged[EndpointOut]): ...


class EndpointOutResponse(Ok[EndpointOut]):
    #: Said when the saved URL is on a private address (loopback, the LAN ...) and why those
    #: are allowed on this server; null for a public URL.
    notice: str | None = None


class EndpointCreated(Envelope):
    data: EndpointOut
    #: The endpoint's signing secret (`whsec_...`): shown this once.
    secret: str
    #: Said when the URL is on a private address, and why those are allowed here.
    notice: str | None = None


class SigningSecretOut(Envelope):
    #: Signs deliveries to each call's own `webhook` URL (`whsec_...`).
    secret: str


class DeliveryOut(BaseModel):
    id: str
    event: str
    url: str
    endpoint_id: int | None
    call_id: str | None
    #: pending | delivered | failed | cancelled
    status: str
    attempts: int
    last_status_code: int | None
    next_attempt_at: datetime | None
    created_at: datetime
    finished_at: datetime | None


class DeliveriesPage(Paged[DeliveryOut]): ...


class AttemptOut(BaseModel):
    id: int
    attempted_at: datetime
    status_code: int | None
    response_ms: int
    response_excerpt: str
    error: str | None


class DeliveryDetail(DeliveryOut):
    #: The exact JSON body sent and signed.
    payload: str
    attempts_log: list[AttemptOut]


class DeliveryDetailResponse(Ok[DeliveryDetail]): ...


class Done(Envelope):
    message: str
