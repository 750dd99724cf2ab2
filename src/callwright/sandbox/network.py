"""The sandbox phone network: a local stand-in for Twilio's Voice API.

REST: `POST /2010-04-01/Accounts/{sid}/Calls.json` places a call (form fields To, From, Twiml,
StatusCallback, StatusCallbackEvent; Callwright's own `CallwrightCallee`: the callee as data,
played instead of the persona the number picks), `POST .../Calls/{CallSid}.json` with
Status=completed or canceled hangs up, and with `Twiml` (or `Url`) moves a live call to new
TwiML (a transfer); `GET .../Calls/{CallSid}.json` reads a call or a `<Dial>`'s child leg;
HTTP Basic auth with the sandbox account SID and auth token; errors in Twilio's JSON shape.
Status callbacks are form POSTs signed with X-Twilio-Signature. On answer the network runs
the call's TwiML (sandbox/runner.py): the callee connects to the `<Connect><Stream>` URL, and
so on.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import hmac
import logging
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
from pydantic import ValidationError
from starlette.datastructures import FormData

from callwright.kit.time import utcnow
from callwright.lab.contract import Callee
from callwright.sandbox.callee import CalleeReport, Segment, SimulatedCallee
from callwright.sandbox.dial import DialLeg
from callwright.sandbox.line import ForkReport, Wire
from callwright.sandbox.numbers import Persona, persona_for, persona_of
from callwright.sandbox.persona_llm import Hear, PersonaLLM
from callwright.sandbox.rest import TwilioError, call_resource, make_router
from callwright.sandbox.rest import install_error_handler as install_error_handler
from callwright.sandbox.runner import CallRunner
from callwright.sandbox.twiml import Connect, TwimlError, Verb
from callwright.sandbox.twiml import parse as parse_twiml
from callwright.speech import tts
from callwright.telephony import signature

log = logging.getLogger(__name__)
API_VERSION = "2010-04-01"
#: The create form's Callwright extension: the callee as data (the lab's `Callee` as JSON),
#: played instead of the persona the dialled number picks (docs/sandbox.md).
CALLEE_FIELD = "CallwrightCallee"
#: The code the network answers a value it cannot take with (as for `Status`, `PageSize`).
INVALID_PARAMETER = 20001


def sandbox_credentials(secret_key: str) -> tuple[str, str]:
    """A stable account SID and auth token derived from the app secret."""
    digest = hmac.new(secret_key.encode(), b"sandbox-twilio", hashlib.sha256).hexdigest()
    return "AC" + digest[:32], digest[32:64]


@dataclass
class SandboxCall:
    sid: str
    to: str
    from_: str
    #: The TwiML document given at create, or empty when `url` gives it.
    twiml: str
    #: The create's `Url` and `Method`: the network fetches the TwiML once the call answers.
    url: tuple[str, str] | None
    status_callback: str
    events: set[str]
    persona: Persona
    status: str = "queued"
    created: datetime = field(default_factory=utcnow)
    answered: datetime | None = None
    ended: datetime | None = None
    duration: int | None = None
    #: The callee on the stream now (each <Connect><Stream> has its own).
    callee: SimulatedCallee | None = None
    #: The first stream's report (a call without a transfer has only that one).
    report: CalleeReport | None = None
    task: asyncio.Task[None] | None = None
    hangup_requested: asyncio.Event = field(default_factory=asyncio.Event)
    #: Set by a hang-up or a call update: what plays now stops.
    break_in: asyncio.Event = field(default_factory=asyncio.Event)
    #: A call update's TwiML (its verbs, or its (Url, Method)) waiting to run.
    pending: list[Verb] | tuple[str, str] | None = None
    #: The last status callback's SequenceNumber (Twilio counts them from 0).
    seq: int = -1
    #: Every bidirectional stream's report, in order.
    sessions: list[CalleeReport] = field(default_factory=list)
    #: The <Dial>s' child legs: the whisper the person heard, who said what once joined.
    legs: list[DialLeg] = field(default_factory=list)
    #: The listening forks (<Start><Stream>) and what each was sent.
    forks: list[ForkReport] = field(default_factory=list)
    #: Who said what over the whole call (seconds of call time from the answer): the callee
    #: and the agent on the streams, the network's <Say>s, the callee and the person joined.
    said: list[Segment] = field(default_factory=list)
    hung_up_by: str = ""
    #: TwiML requests that failed (Twilio's "application error").
    errors: list[str] = field(default_factory=list)

    def resource(self, account_sid: str) -> dict[str, Any]:
        return call_resource(
            account_sid,
            sid=self.sid,
            parent=None,
            to=self.to,
            from_=self.from_,
            status=self.status,
            direction="outbound-api",
            times=(self.created, self.answered, self.ended),
            duration=self.duration,
        )


#: Called with each finished call's report (tests and the benchmark read what the callee heard).
ReportListener = Callable[[SandboxCall], Awaitable[None]]


class SandboxNetwork:
    def __init__(
        self,
        secret_key: str,
        *,
        speed: float = 1.0,
        callback_transport: httpx.AsyncBaseTransport | None = None,
        writer: PersonaLLM | None = None,
    ) -> None:
        self.account_sid, self.auth_token = sandbox_credentials(secret_key)
        self.speed = speed
        self.calls: dict[str, SandboxCall] = {}
        self.listeners: list[ReportListener] = []
        self._http = httpx.AsyncClient(timeout=15.0, transport=callback_transport)
        self._wire = Wire(self.account_sid, self.auth_token, speed, self._http, writer)
        self.router = make_router(self)

    def play_personas_with(self, writer: PersonaLLM | None) -> None:
        """The LLM that writes free-text personas' lines (None: their scripted lines)."""
        self._wire.writer = writer

    def hear_with(self, ears: Hear) -> None:
        """How callees make out the agent's words (their answers by the kind of question)."""
        self._wire.ears = ears

    async def close(self) -> None:
        for call in list(self.calls.values()):
            if call.task and not call.task.done():
                call.hangup_requested.set()
                call.break_in.set()
                if call.callee:
                    call.callee.hang_up_from_network()
        tasks = [c.task for c in self.calls.values() if c.task and not c.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        await self._http.aclose()

    # --- REST (sandbox/rest.py) -------------------------------------------------------------

    def resources(self) -> list[dict[str, Any]]:
        """Every call and `<Dial>` child leg as Twilio's call resource, newest first."""
        rows: list[tuple[datetime, dict[str, Any]]] = []
        for call in self.calls.values():
            rows.append((call.created, call.resource(self.account_sid)))
            rows += [(leg.created, leg.resource(self.account_sid)) for leg in call.legs]
        return [row for _, row in sorted(rows, key=lambda pair: pair[0], reverse=True)]

    def resource(self, sid: str) -> dict[str, Any]:
        """A call, or a `<Dial>`'s child leg, as Twilio's call resource."""
        leg = self._leg(sid)
        if leg is not None:
            return leg.resource(self.account_sid)
        return self._call(sid).resource(self.account_sid)

    def update(self, call_sid: str, form: FormData) -> SandboxCall:
        """Twilio's Calls/{sid}.json update: new TwiML (`Twiml` or `Url`), or a hang-up."""
        if form.get("Twiml") or form.get("Url"):
            return self._redirect(call_sid, form)
        return self._hang_up(call_sid, str(form.get("Status", "")))

    def place(self, form: FormData) -> SandboxCall:
        """Twilio's Calls.json create: the call starts ringing in the background. Its TwiML is
        `Twiml`, or what `Url` answers (fetched with `Method`, signed, once the call answers).
        The callee is the persona `CallwrightCallee` gives, else the one `To` picks."""
        to, from_ = str(form.get("To", "")), str(form.get("From", ""))
        if not to or not from_:
            raise TwilioError(
                21201 if not to else 21603, "A 'To' and a 'From' phone number are required.", 400
            )
        document, url = str(form.get("Twiml", "")), str(form.get("Url", ""))
        method = str(form.get("Method", "POST")).upper()
        if document:
            _verbs(document)
        elif not url:
            raise TwilioError(21205, "Url or Twiml is required.", 400)
        elif not url.startswith(("http://", "https://")) or method not in ("GET", "POST"):
            raise TwilioError(21205, "Url is not a valid URL.", 400)
        call = SandboxCall(
            sid="CA" + secrets.token_hex(16),
            to=to,
            from_=from_,
            twiml=document,
            url=(url, method) if not document else None,
            status_callback=str(form.get("StatusCallback", "")),
            events={str(v) for v in form.getlist("StatusCallbackEvent")} or {"completed"},
            persona=callee_persona(form.get(CALLEE_FIELD)) or persona_for(to),
        )
        self.calls[call.sid] = call
        call.task = asyncio.create_task(self._run(call), name=f"sandbox-{call.sid}")
        return call

    def _hang_up(self, call_sid: str, status: str) -> SandboxCall:
        """Twilio's Calls/{sid}.json update with Status=completed|canceled: hang up."""
        call = self._call(call_sid)
        if status not in ("completed", "canceled"):
            raise TwilioError(21218, "Status must be completed or canceled.", 400)
        if call.ended is None:
            # Twilio's answer is the call as the hang-up leaves it: an answered call completed,
            # one still queued or ringing canceled.
            call.status = "completed" if call.status == "in-progress" else "canceled"
            call.hangup_requested.set()
            call.break_in.set()
            if call.callee:
                call.callee.hang_up_from_network()
        return call

    def _redirect(self, call_sid: str, form: FormData) -> SandboxCall:
        """Twilio's Calls/{sid}.json update with Twiml (or Url): the call leaves what it is
        doing (a stream gets `stop` and closes) and runs the new TwiML."""
        call = self._call(call_sid)
        document = str(form.get("Twiml", ""))
        pending: list[Verb] | tuple[str, str]
        if document:
            pending = _verbs(document)
        else:
            url, method = str(form.get("Url", "")), str(form.get("Method", "POST")).upper()
            if not url.startswith(("http://", "https://")) or method not in ("GET", "POST"):
                raise TwilioError(21205, "Url is not a valid URL.", 400)
            pending = (url, method)
        if call.status != "in-progress" or call.hangup_requested.is_set():
            raise TwilioError(21220, "Call is not in-progress. Cannot redirect.", 400)
        call.pending = pending
        call.break_in.set()
        return call

    def _leg(self, sid: str) -> DialLeg | None:
        """A <Dial>'s child leg, by its sid."""
        for call in self.calls.values():
            for leg in call.legs:
                if leg.sid == sid:
                    return leg
        return None

    def _call(self, sid: str) -> SandboxCall:
        call = self.calls.get(sid)
        if call is None:
            raise TwilioError(20404, f"The requested resource /Calls/{sid}.json was not found", 404)
        return call

    # --- the call itself ------------------------------------------------------------------

    async def _run(self, call: SandboxCall) -> None:
        try:
            await self._post_status(call, "initiated")
            p = call.persona
            if p.kind == "failed":
                await self._sleep(0.2)
                await self._end(call, "failed")
                return
            call.status = "ringing"
            await self._post_status(call, "ringing")
            if await self._wait_hangup(call, p.ring_seconds):
                await self._end(call, "canceled")
                return
            if p.kind in ("no-answer", "busy"):
                await self._end(call, p.kind)
                return
            call.status = "in-progress"
            call.answered = utcnow()
            await self._post_status(call, "answered")
            runner = CallRunner(self._wire, call)
            try:
                await runner.run()
                # CallDuration: the whole call, every stream and whatever ran between them.
                call.duration = math.ceil(round(runner.clock, 3))
            except Exception as exc:
                log.warning("sandbox call %s: media stream failed: %s", call.sid, exc)
                # Twilio's CallDuration counts from the answer whatever ended the call.
                up = (utcnow() - call.answered).total_seconds() * self.speed
                call.duration = max(1, math.ceil(up))
                await self._end(call, "failed")
                return
            await self._end(call, "completed")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sandbox call %s crashed", call.sid)
        finally:
            for listener in self.listeners:
                try:
                    await listener(call)
                except Exception:
                    log.exception("sandbox report listener failed")

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)

    async def _wait_hangup(self, call: SandboxCall, seconds: float) -> bool:
        try:
            await asyncio.wait_for(call.hangup_requested.wait(), timeout=seconds / self.speed)
        except TimeoutError:
            return False
        return True

    async def _end(self, call: SandboxCall, status: str) -> None:
        call.status = status
        call.ended = utcnow()
        await self._post_status(call, "completed" if status == "completed" else status)

    async def _post_status(self, call: SandboxCall, event: str) -> None:
        """A signed status callback, as Twilio sends them (only for the events asked for;
        final statuses are always sent)."""
        terminal = event in ("completed", "busy", "no-answer", "failed", "canceled")
        if not call.status_callback or (event not in call.events and not terminal):
            return
        call.seq += 1
        status = {"initiated": "queued", "answered": "in-progress"}.get(event, event)
        form = {
            "AccountSid": self.account_sid,
            "ApiVersion": API_VERSION,
            "CallSid": call.sid,
            "CallStatus": status,
            "Called": call.to,
            "Caller": call.from_,
            "Direction": "outbound-api",
            "From": call.from_,
            "To": call.to,
            "SequenceNumber": str(call.seq),
            "CallbackSource": "call-progress-events",
            "Timestamp": email.utils.format_datetime(datetime.now(UTC)),
        }
        if terminal:
            form["CallDuration"] = str(call.duration or 0)
            if call.hung_up_by:
                form["HangupReason"] = (
                    "hangup-by-callee" if call.hung_up_by == "callee" else "hangup-by-caller"
                )
        sig, body = signature.sign_form(self.auth_token, call.status_callback, form)
        headers = {"X-Twilio-Signature": sig, "Content-Type": "application/x-www-form-urlencoded"}
        for attempt in range(3):
            try:
                response = await self._http.post(
                    call.status_callback, content=body, headers=headers
                )
                if response.status_code < 500:
                    return
            except httpx.HTTPError as exc:
                log.warning("sandbox status callback failed (%s): %s", attempt + 1, exc)
            await asyncio.sleep(0.2 * (attempt + 1))


def callee_persona(given: object) -> Persona | None:
    """The persona a create's `CallwrightCallee` asks for (None when it is not given), or
    Twilio's 400 naming the field at fault: not JSON, not a callee (`CallwrightCallee.lines.0`
    too long, an unknown `kind`...), or a voice the speech engines do not have."""
    if given is None or given == "":
        return None
    if not isinstance(given, str):
        raise TwilioError(INVALID_PARAMETER, f"{CALLEE_FIELD} must be JSON text.", 400)
    try:
        callee = Callee.model_validate_json(given)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in (CALLEE_FIELD, *error["loc"]))
        raise TwilioError(INVALID_PARAMETER, f"{where}: {error['msg']}", 400) from None
    if callee.voice is not None and tts.find(callee.voice) is None:
        names = ", ".join(v.name for v in tts.catalogue())
        raise TwilioError(
            INVALID_PARAMETER,
            f"{CALLEE_FIELD}.voice: no voice is named {callee.voice!r} (voices: {names}).",
            400,
        )
    return persona_of(callee)


def _verbs(document: str) -> list[Verb]:
    """A TwiML document's verbs, or Twilio's error for it (12100 Document parse failure...)."""
    try:
        return parse_twiml(document)
    except TwimlError as exc:
        raise TwilioError(exc.code, exc.message, 400) from exc


def _stream_of(document: str) -> tuple[str, dict[str, str]]:
    """The first <Connect><Stream url=...> of a TwiML document and its <Parameter>s."""
    for verb in parse_twiml(document):
        if isinstance(verb, Connect):
            return verb.stream.url, dict(verb.stream.parameters)
    raise ValueError("the TwiML has no <Connect><Stream url=...>")
