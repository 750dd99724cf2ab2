"""The Carrier interface: what the call flows need from a phone network."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from callwright.telephony.state import CallStatus


@dataclass(frozen=True)
class DialRequest:
    call_id: str
    to_number: str
    from_number: str
    #: Where the carrier streams the call's audio (our media websocket).
    media_url: str
    #: Where the carrier posts status changes (our webhook).
    status_callback_url: str
    #: The call's single-use secret: the carrier hands it back when its media stream connects.
    media_token: str = ""
    #: A lab call's simulated callee (the lab's `Callee` as JSON data, docs/lab.md): only the
    #: sandbox network plays one; None for every other call.
    callee: dict[str, Any] | None = None


@dataclass(frozen=True)
class StatusUpdate:
    carrier_call_id: str
    status: CallStatus
    #: When the carrier says it happened (falls back to now).
    at: datetime | None = None
    #: Billable seconds, when the carrier reports them (Twilio's CallDuration).
    duration_seconds: int | None = None
    #: Why the call ended, in the carrier's words (for example hangup-by-callee).
    reason: str | None = None


@dataclass(frozen=True)
class WebhookRequest:
    url: str
    headers: Mapping[str, str]
    form: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


@dataclass(frozen=True)
class TransferRequest:
    """Move a live call to a person (docs/actions.md, "Transfer"): the carrier stops the
    agent's stream, opens a listening stream (both tracks) to `media_url` with `listen_token`,
    and rings `to_number`; when that leg ends it posts the result to `result_url`. A warm
    transfer's person first hears what `whisper_url` answers."""

    call_id: str
    to_number: str
    #: The caller id the person sees (the call's own number).
    caller_id: str
    media_url: str
    listen_token: str
    result_url: str
    whisper_url: str | None = None
    #: Seconds the person's phone rings before the transfer counts as not answered.
    timeout_seconds: int = 20


@dataclass(frozen=True)
class TransferResult:
    """How the person's leg ended (Twilio's Dial action callback)."""

    carrier_call_id: str
    #: completed | busy | no-answer | failed | canceled (Twilio's DialCallStatus).
    status: str
    #: Seconds the person was connected (completed only).
    duration_seconds: int | None = None
    person_call_id: str | None = None
    #: Whether the callee's own call was over when the person's leg ended (Twilio's
    #: `CallStatus` on the Dial action: "completed" when the callee hung up, "in-progress"
    #: when the person did); None when the carrier does not say.
    callee_gone: bool | None = None


@dataclass(frozen=True)
class StreamRequest:
    """A new two-way media stream for a live call (the agent back after a failed transfer)."""

    call_id: str
    media_url: str
    token: str
    leg: str
    #: Extra stream parameters (the failed transfer's status).
    parameters: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WebhookAnswer:
    """What we answer a carrier's webhook with (TwiML for Twilio)."""

    body: str
    media_type: str = "application/xml"


@dataclass(frozen=True)
class Capabilities:
    #: How the carrier carries audio to us; the voice agent picks its serializer from it.
    media_protocol: Literal["twilio-media-streams", "none"]
    #: The carrier runs the conversation itself (Bland); we only map its results.
    external_agent: bool = False
    answering_machine_detection: bool = False


class CarrierError(Exception):
    """The carrier refused or failed a request."""


class Carrier(ABC):
    name: str
    capabilities: Capabilities

    @abstractmethod
    async def dial(self, request: DialRequest) -> str:
        """Place the call; returns the carrier's call id."""

    @abstractmethod
    async def hang_up(self, carrier_call_id: str) -> None:
        """End the call; an already-ended call is not an error."""

    @abstractmethod
    def verify_webhook(self, request: WebhookRequest) -> bool:
        """True when the webhook really comes from this carrier."""

    @abstractmethod
    def verify_media_connection(self, url: str, headers: Mapping[str, str]) -> bool:
        """True when a media websocket's upgrade request to `url` (the media URL we gave the
        carrier) carries this carrier's proof that it comes from the carrier."""

    @abstractmethod
    def parse_status(self, request: WebhookRequest) -> StatusUpdate | None:
        """The status change a webhook reports, or None when it reports none we know."""

    async def fetch(self, carrier_call_id: str) -> StatusUpdate | None:
        """The call's status as the carrier knows it now, for a call whose status callbacks may
        have been lost (our database was down when they came); None when it cannot tell."""
        return None

    async def transfer(self, carrier_call_id: str, request: TransferRequest) -> None:
        """Move the live call to a person (CarrierError when the carrier refuses or cannot)."""
        raise CarrierError(f"{self.name} cannot transfer calls")

    def parse_transfer(self, request: WebhookRequest) -> TransferResult | None:
        """The transfer result a webhook reports (None when it reports none)."""
        return None

    def after_transfer(self, resume: StreamRequest | None) -> WebhookAnswer:
        """The answer to a transfer's result: hang up (None), or a new stream to the agent."""
        raise CarrierError(f"{self.name} cannot transfer calls")

    def whisper(self, text: str) -> WebhookAnswer:
        """The answer to a warm transfer's whisper request: `text` said to the person."""
        raise CarrierError(f"{self.name} cannot transfer calls")

    async def close(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Release connections (called at shutdown)."""
