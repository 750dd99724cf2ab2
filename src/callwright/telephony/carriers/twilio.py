"""Twilio over its REST API and Media Streams. The built-in sandbox network speaks the same
protocol, so this one class serves both: only the base URL and the credentials differ."""

from __future__ import annotations

import email.utils
import logging
from collections.abc import Mapping
from datetime import datetime
from html import escape

import httpx

from callwright.telephony import signature
from callwright.telephony.base import (
    Capabilities,
    Carrier,
    CarrierError,
    DialRequest,
    StatusUpdate,
    WebhookRequest,
)
from callwright.telephony.state import parse

log = logging.getLogger(__name__)

STATUS_EVENTS = ["initiated", "ringing", "answered", "completed"]


def stream_twiml(media_url: str, parameters: dict[str, str]) -> str:
    params = "".join(
        f'<Parameter name="{escape(k, quote=True)}" value="{escape(v, quote=True)}"/>'
        for k, v in parameters.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><Response><Connect>'
        f'<Stream url="{escape(media_url, quote=True)}">{params}</Stream>'
        "</Connect></Response>"
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
