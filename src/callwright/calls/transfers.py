"""Transfers to a person, the calls' side (docs/actions.md, "Transfer").

The agent asks (`CallTransfers.start`, through the media hooks): the call's target is picked
(the department asked for, else the default), the call is marked as being transferred with a
fresh single-use secret for its listening stream, and the carrier moves the call (Twilio: a call
update whose TwiML opens a listening stream of both tracks and dials the person, cold or warm).
A warm transfer's person first hears `whisper`'s one line. When the person's leg ends the
carrier posts its result (`finished`): a completed transfer ends the call with it; a busy,
unanswered or failed one brings the agent back on a new stream (a fresh secret, `leg=resume`)
to tell the callee and carry on. Each step is an action line (kind "transfer").

A transferred call is one call: billed for its whole duration at the normal rate (our leg stays
up, recorded and transcribed, while the person talks), split on its page and in `/v1` into the
part before the transfer and the part after (`pre_transfer_duration`,
`post_transfer_duration`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from callwright.agents.transfers import DEFAULT_DEPARTMENT, target
from callwright.calls import repository as calls
from callwright.kit.security import random_token, sha256_hex
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.realtime.events import CallAction
from callwright.telephony.base import (
    Carrier,
    CarrierError,
    StreamRequest,
    TransferRequest,
    TransferResult,
    WebhookAnswer,
)
from callwright.telephony.state import TERMINAL
from callwright.voice_agent.contract import TransferStarted

if TYPE_CHECKING:
    from callwright.calls.flows import CallFlows

#: What a warm transfer's person hears when the agent gave no summary.
DEFAULT_WHISPER = "You have a call transferred from the AI assistant."
NO_TARGET = "This call has no transfer number."
#: The target's name when a flow's transfer node gives its own number.
FLOW_TARGET = "the flow's number"
UNDER_WAY = "A transfer is already under way."
NOT_LIVE = "The call is not live."
#: Seconds the person's phone rings before the transfer counts as not answered.
RING_SECONDS = 20
#: DialCallStatus of a transfer that reached its person.
COMPLETED = "completed"
#: Who ended a transferred call (`Call.transfer_ended_by`).
ENDED_BY_CALLEE = "callee"
ENDED_BY_PERSON = "person"
#: How each result reads on the call's action line.
_RESULT_WORDS = {
    COMPLETED: "the person took the call",
    "busy": "the line was busy",
    "no-answer": "nobody answered",
    "failed": "the number could not be reached",
    "canceled": "the transfer was canceled",
}


def post_transfer_seconds(call: Call) -> int | None:
    """Seconds of the call after its transfer reached the person (its whole duration less the
    part before), for a call whose transfer completed; None otherwise."""
    if call.transfer_status != COMPLETED or call.pre_transfer_duration is None:
        return None
    return max(0, (call.duration_seconds or 0) - call.pre_transfer_duration)


def resume_follows(call: Call) -> bool:
    """Whether the agent comes back on a new stream: the live call's transfer failed."""
    failed = call.transfer_status not in (None, calls.TRANSFER_DIALING, COMPLETED)
    return failed and call.status not in TERMINAL


class CallTransfers:
    def __init__(self, flows: CallFlows, carrier: Carrier | None = None) -> None:
        self.flows = flows
        self.db = flows.db
        #: The carrier whose callbacks this answers (the webhook's); a transfer is started on
        #: the carrier its call was placed on.
        self.carrier = carrier or flows.carrier

    def url(self, call_id: str, step: str, carrier: str | None = None) -> str:
        """Where `carrier` (None: this one) posts a transfer's `result`, or asks for its
        `whisper`."""
        base = self.flows.settings.app_url
        name = carrier or self.carrier.name
        return f"{base}/api/v1/webhooks/{name}/transfer/{call_id}/{step}"

    async def start(
        self,
        call_id: str,
        department: str | None,
        summary: str,
        *,
        number: str | None = None,
        mode: str | None = None,
    ) -> TransferStarted:
        """Move the live call to the person of `department` (None: the default), or to
        `number` in `mode` (a flow's transfer node's own; None: the call's)."""
        token = random_token()
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is None or call.status in TERMINAL or not call.carrier_call_id:
                return TransferStarted(False, reason=NOT_LIVE)
            found = (
                (FLOW_TARGET, number)
                if number
                else target(call.transfer_number, call.transfer_list, department)
            )
            if found is None:
                return TransferStarted(False, reason=NO_TARGET)
            name, number = found
            warm = (mode or call.transfer_mode) == "warm"
            carrier = self.flows.carriers.for_call(call)
            values = {
                "transferred_to": number,
                "transferred_at": utcnow(),
                "pre_transfer_duration": self._since_answer(call),
                "post_transfer_duration": None,
                "transfer_summary": (summary or DEFAULT_WHISPER) if warm else None,
                "listen_token_hash": sha256_hex(token),
            }
            if not await calls.start_transfer(session, call_id, values):
                return TransferStarted(False, to=name, reason=UNDER_WAY)
            await self.flows.life.acted(session, call, _started_action(name, number, values))
            carrier_call_id = call.carrier_call_id
            request = TransferRequest(
                call_id=call_id,
                to_number=number,
                caller_id=call.from_number,
                media_url=self.flows.media_url_for(carrier.name),
                listen_token=token,
                result_url=self.url(call_id, "result", carrier.name),
                whisper_url=self.url(call_id, "whisper", carrier.name) if warm else None,
                timeout_seconds=RING_SECONDS,
            )
        try:
            await carrier.transfer(carrier_call_id, request)
        except CarrierError as exc:
            async for session in self.db.session():
                await calls.end_transfer(
                    session, call_id, {"transfer_status": "failed", "listen_token_hash": None}
                )
            return TransferStarted(False, to=name, reason=str(exc))
        return TransferStarted(True, to=name)

    def _since_answer(self, call: Call) -> int:
        """Seconds since the answer on the call's clock (the sandbox's runs faster in tests),
        like the carrier's CallDuration."""
        if call.answered_at is None:
            return 0
        seconds = (utcnow() - call.answered_at).total_seconds() * self.flows.speed(call.carrier)
        return max(0, math.ceil(seconds))

    async def finished(self, call_id: str, result: TransferResult) -> WebhookAnswer:
        """The person's leg ended: the call hangs up after a completed transfer; otherwise the
        agent comes back on a new stream (a fresh secret) to tell the callee."""
        token: str | None = None
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is None or call.carrier_call_id != result.carrier_call_id:
                return self.carrier.after_transfer(None)
            values: dict[str, object] = {"transfer_status": result.status}
            if result.status == COMPLETED:
                values["transfer_ended_by"] = _ended_by(call, result)
            if result.status != COMPLETED and call.status not in TERMINAL:
                token = random_token()
                values["media_token_hash"] = sha256_hex(token)
            first = await calls.end_transfer(session, call_id, values)
            if not first and token is not None:  # a replayed callback: a new secret all the same
                await calls.set_media_token(session, call_id, sha256_hex(token))
            await session.refresh(call)
            if first:
                await self.flows.life.acted(session, call, _result_action(call, result))
        if token is None:
            return self.carrier.after_transfer(None)
        resume = StreamRequest(
            call_id=call_id,
            media_url=self.flows.media_url_for(self.carrier.name),
            token=token,
            leg="resume",
            parameters={"transfer": result.status},
        )
        return self.carrier.after_transfer(resume)

    async def whisper(self, call_id: str) -> WebhookAnswer:
        """A warm transfer's person answered: the line they hear before the callee joins."""
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            text = (call.transfer_summary if call is not None else None) or DEFAULT_WHISPER
        return self.carrier.whisper(text)


def _started_action(department: str, number: str, values: dict[str, object]) -> CallAction:
    """The action line of a transfer under way: where it goes (the department and its number)
    and how (cold, or warm with the person's summary)."""
    default = department.casefold() == DEFAULT_DEPARTMENT
    to = number if default else f"{department} ({number})"
    arguments: dict[str, object] = (
        {"to": number} if default else {"to": number, "department": department}
    )
    arguments["mode"] = "warm" if values["transfer_summary"] is not None else "cold"
    if values["transfer_summary"] is not None:
        arguments["summary"] = values["transfer_summary"]
    return CallAction(
        kind="transfer",
        name="transfer",
        status="started",
        summary=f"Transferring to {to}",
        arguments=arguments,
    )


def _ended_by(call: Call, result: TransferResult) -> str:
    """Who ended a call whose person took it: the callee when their call was over first (the
    carrier says so; a call already ended says so too), else the person, who left the callee
    (the call then hangs up)."""
    if result.callee_gone or call.status in TERMINAL:
        return ENDED_BY_CALLEE
    return ENDED_BY_PERSON


def _result_action(call: Call, result: TransferResult) -> CallAction:
    """The action line of a transfer's result (succeeded, or failed with its DialCallStatus)."""
    words = _RESULT_WORDS.get(result.status, result.status)
    to = call.transferred_to or ""
    completed = result.status == COMPLETED
    return CallAction(
        kind="transfer",
        name="transfer",
        status="succeeded" if completed else "failed",
        summary=f"Transfer to {to}: {words}",
        arguments={"to": to, "mode": call.transfer_mode},
        result={
            "dial_call_status": result.status,
            "dial_call_duration": result.duration_seconds,
            **({"ended_by": call.transfer_ended_by} if call.transfer_ended_by else {}),
        },
    )
