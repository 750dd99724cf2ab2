"""Twilio over its REST API and Media Streams. The built-in sandbox network speaks the same
protocol, so this one class serves both: only the base URL and the credentials differ."""

from __future__ import annotations

import email.utils
import json
import logging
from collections.abc import Mapping
from datetime import datetime
from html import escape
from typing import Any

import httpx

from callwright.telephony import signature
from callwright.telephony.base import (
    Capabilities,
    Carrier,
    CarrierError,
    DialRequest,
    StatusUpdate,
    StreamRequest,
    TransferRequest,
    TransferResult,
    WebhookAnswer,
    WebhookRequest,
)
from callwright.telephony.state import parse

log = logging.getLogger(__name__)

STATUS_EVENTS = ["initiated", "ringing", "answered", "completed"]
#: The name this class goes by when it talks to the built-in sandbox network (core.py).
SANDBOX = "sandbox"
#: The sandbox's own create field: a lab call's callee as data (sandbox.network, which the
#: carrier seam does not import).
CALLEE_FIELD = "CallwrightCallee"


XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>'
#: The name of a transfer's listening stream.
LISTEN_STREAM = "listen"


def _attr(value: str) -> str:
    return escape(value, quote=True)


def _parameters(parameters: Mapping[str, str]) -> str:
    return "".join(
        f'<Parameter name="{_attr(k)}" value="{_attr(v)}"/>' for k, v in parameters.items()
    )


def stream_twiml(media_url: str, parameters: Mapping[str, str]) -> str:
    """`<Connect><Stream>`: the call's audio both ways with our media endpoint."""
    return (
        f"{XML_HEAD}<Response><Connect>"
        f'<Stream url="{_attr(media_url)}">{_parameters(parameters)}</Stream>'
        "</Connect></Response>"
    )


def transfer_twiml(request: TransferRequest) -> str:
    """The call update of a transfer: a listening stream of both tracks (`<Start><Stream>`),
    then `<Dial>` to the person, its result posted to `result_url`; a warm transfer's
    `<Number url=...>` has the person hear the whisper first."""
    listen = _parameters(
        {"callId": request.call_id, "token": request.listen_token, "leg": "listen"}
    )
    whisper = f' url="{_attr(request.whisper_url)}" method="POST"' if request.whisper_url else ""
    return (
        f"{XML_HEAD}<Response><Start>"
        f'<Stream name="{LISTEN_STREAM}" url="{_attr(request.media_url)}" track="both_tracks">'
        f"{listen}</Stream></Start>"
        f'<Dial action="{_attr(request.result_url)}" method="POST" '
        f'timeout="{request.timeout_seconds}" callerId="{_attr(request.caller_id)}">'
        f"<Number{whisper}>{escape(request.to_number)}</Number></Dial></Response>"
    )


class TwilioCarrier(Carrier):
    capabilities = Capabilities(
        media_protocol="twilio-media-streams", answering_machine_detection=True
    )

    def __init__(
        self,
        *,
        account_sid: str,
        auth_token: str,
        base_url: str = "https://api.twilio.com",
        name: str = "twilio",
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.name = name
        self.account_sid = account_sid
        self.auth_token = auth_token
        self.base_url = base_url.rstrip("/")
        self._client = httpx.AsyncClient(
            auth=(account_sid, auth_token),
            timeout=httpx.Timeout(15.0, connect=5.0),
            transport=transport,
        )

    def _calls_url(self, sid: str | None = None) -> str:
        tail = f"/{sid}.json" if sid else ".json"
        return f"{self.base_url}/2010-04-01/Accounts/{self.account_sid}/Calls{tail}"

    async def dial(self, request: DialRequest) -> str:
        form: dict[str, str | list[str]] = {
            "To": request.to_number,
            "From": request.from_number,
            "Twiml": stream_twiml(
                request.media_url, {"callId": request.call_id, "token": request.media_token}
            ),
            "StatusCallback": request.status_callback_url,
            "StatusCallbackMethod": "POST",
            "StatusCallbackEvent": STATUS_EVENTS,  # repeated form field, as Twilio expects
        }
        if request.callee is not None:
            form[CALLEE_FIELD] = self._callee(request.callee)
        try:
            response = await self._client.post(self._calls_url(), data=form)
        except httpx.HTTPError as exc:
            raise CarrierError(f"{self.name} is unreachable: {exc}") from exc
        body = _json(response)
        if response.status_code >= 400 or "sid" not in body:
            raise CarrierError(
                str(body.get("message") or f"{self.name} refused the call ({response.status_code})")
            )
        return str(body["sid"])

    def _callee(self, callee: dict[str, Any]) -> str:
        """A lab call's simulated callee as the sandbox's create field. Only the sandbox network
        plays one: on a real Twilio the call would ring a person instead, so it is refused."""
        if self.name != SANDBOX:
            raise CarrierError(f"{self.name} cannot play a simulated callee: only the sandbox can")
        return json.dumps(callee, separators=(",", ":"))

    async def hang_up(self, carrier_call_id: str) -> None:
        try:
            response = await self._client.post(
                self._calls_url(carrier_call_id), data={"Status": "completed"}
            )
        except httpx.HTTPError as exc:
            raise CarrierError(f"{self.name} is unreachable: {exc}") from exc
        if response.status_code == 404:
            return  # already over
        if response.status_code >= 400:
            raise CarrierError(
                str(_json(response).get("message") or f"hang-up failed ({response.status_code})")
            )

    async def transfer(self, carrier_call_id: str, request: TransferRequest) -> None:
        """`POST .../Calls/{sid}.json` with the transfer's TwiML (`transfer_twiml`)."""
        try:
            response = await self._client.post(
                self._calls_url(carrier_call_id), data={"Twiml": transfer_twiml(request)}
            )
        except httpx.HTTPError as exc:
            raise CarrierError(f"{self.name} is unreachable: {exc}") from exc
        if response.status_code >= 400:
            raise CarrierError(
                str(_json(response).get("message") or f"transfer failed ({response.status_code})")
            )

    def parse_transfer(self, request: WebhookRequest) -> TransferResult | None:
        """The `<Dial>` action callback: DialCallStatus, DialCallDuration, DialCallSid, and the
        parent call's CallStatus (over: the callee hung up first)."""
        form = dict(request.form)
        status, sid = form.get("DialCallStatus", ""), form.get("CallSid", "")
        if not status or not sid:
            return None
        duration = form.get("DialCallDuration", "")
        return TransferResult(
            carrier_call_id=sid,
            status=status,
            duration_seconds=int(duration) if duration.isdigit() else None,
            person_call_id=form.get("DialCallSid") or None,
            callee_gone=_parent_over(form.get("CallStatus")),
        )

    def after_transfer(self, resume: StreamRequest | None) -> WebhookAnswer:
        """`<Hangup/>`, or the agent back on a new `<Connect><Stream>` (its secret, `leg`,
        and the failed transfer's status). The listening stream is not stopped here: our media
        endpoint closes it when it learns the transfer failed (a fork whose socket the app
        closes ends, the call goes on)."""
        if resume is None:
            return WebhookAnswer(f"{XML_HEAD}<Response><Hangup/></Response>")
        parameters = {"callId": resume.call_id, "token": resume.token, "leg": resume.leg}
        return WebhookAnswer(stream_twiml(resume.media_url, parameters | dict(resume.parameters)))

    def whisper(self, text: str) -> WebhookAnswer:
        return WebhookAnswer(f"{XML_HEAD}<Response><Say>{escape(text)}</Say></Response>")

    async def fetch(self, carrier_call_id: str) -> StatusUpdate | None:
        """`GET .../Calls/{sid}.json`: its status, end time and billable seconds."""
        try:
            response = await self._client.get(self._calls_url(carrier_call_id))
        except httpx.HTTPError as exc:
            raise CarrierError(f"{self.name} is unreachable: {exc}") from exc
        if response.status_code >= 400:
            return None
        body = _json(response)
        status = parse(str(body.get("status") or ""))
        if status is None:
            return None
        duration = str(body.get("duration") or "")
        return StatusUpdate(
            carrier_call_id=carrier_call_id,
            status=status,
            at=_stamp(body.get("end_time")),
            duration_seconds=int(duration) if duration.isdigit() else None,
        )

    def verify_webhook(self, request: WebhookRequest) -> bool:
        return signature.validate(
            self.auth_token,
            request.url,
            request.form,
            request.headers.get("x-twilio-signature", ""),
        )

    def verify_media_connection(self, url: str, headers: Mapping[str, str]) -> bool:
        # Twilio signs the websocket upgrade like a webhook: the stream URL, no parameters.
        return signature.validate(self.auth_token, url, [], headers.get("x-twilio-signature", ""))

    def parse_status(self, request: WebhookRequest) -> StatusUpdate | None:
        form = dict(request.form)
        status = parse(form.get("CallStatus", ""))
        sid = form.get("CallSid", "")
        if status is None or not sid:
            return None
        duration = form.get("CallDuration")
        return StatusUpdate(
            carrier_call_id=sid,
            status=status,
            at=_stamp(form.get("Timestamp")),
            duration_seconds=int(duration) if duration and duration.isdigit() else None,
            reason=form.get("HangupReason") or form.get("SipResponseCode") or None,
        )

    async def close(self) -> None:
        await self._client.aclose()


def _stamp(value: object) -> datetime | None:
    """Twilio's RFC 2822 time (`Timestamp`, `end_time`), or None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None


def _json(response: httpx.Response) -> dict[str, object]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _parent_over(status: str | None) -> bool | None:
    """Whether the parent call had ended when its `<Dial>` did (None: not said)."""
    if not status:
        return None
    return status in ("completed", "canceled", "failed", "busy", "no-answer")
