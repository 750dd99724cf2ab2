"""Placing a call: one way in for every kind of call (`CallKind`), holding the rules that apply
to all of them. Its order comes from `calls.builder`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.calls import repository as calls
from callwright.calls.lifecycle import CallLife
from callwright.calls.tasks import DIAL_JOB
from callwright.compliance import calling_hours, do_not_call, frequency
from callwright.config import Settings
from callwright.kit import phone
from callwright.kit.db import on_commit
from callwright.kit.errors import ValidationFailed
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.models import Call, User
from callwright.models.call import new_call_id
from callwright.telephony.state import CallStatus

#: Where a call came from: the Send Call page, `POST /v1/calls`, a `/v1` batch, a campaign,
#: the landing page's free test call, `callwright call`, the agent lab (a scenario's call to
#: a simulated callee: docs/lab.md).
CallKind = Literal["dashboard", "api", "batch", "campaign", "test", "cli", "lab"]
#: The users' own calls (the others: the free test call, the operator's CLI), which the rules
#: for calling people apply to.
USERS_KINDS: tuple[CallKind, ...] = ("dashboard", "api", "batch", "campaign")
#: The carrier whose callees are all simulated (telephony: the built-in network).
SANDBOX = "sandbox"
#: The category of a call's event that says what the rules for calling people did.
COMPLIANCE = "compliance"
VoicemailAction = Literal["leave_message", "hangup"]
LAB_CALLEE_ONLY = "Only a lab call has a simulated callee."
LAB_NEEDS_SANDBOX = (
    "A lab call rings a simulated callee: it needs the sandbox carrier, and this install has "
    "only {}."
)
#: A lab call on an install whose carrier is a real network, which neither hosts the sandbox
#: network nor says where one is (docs/lab.md, "The lab on a Twilio install").
LAB_NO_SANDBOX = (
    "A lab call rings a simulated callee on the sandbox network, and this install reaches "
    "none: its carrier is {}, CALLWRIGHT_HOST_SANDBOX is false and CALLWRIGHT_SANDBOX_URL is "
    "not set. Host the network in the API process (CALLWRIGHT_HOST_SANDBOX=true) or set "
    "CALLWRIGHT_SANDBOX_URL to a `callwright sandbox`."
)
LAB_NUMBER = "A lab call dials one of the sandbox's own numbers, and {} is not one of them."


@dataclass(frozen=True)
class CallOrder:
    """A call as it is placed, every check done (built by `calls.builder` alone). The defaults
    are the product's (and the spec's)."""

    kind: CallKind
    to_number: str
    prompt: str
    voice: str
    #: The language the call is held in (an offered `speech.languages` code).
    language: str = "en-US"
    #: Who pays; None for calls nobody is billed for (the free test call, the CLI).
    user_id: int | None = None
    #: Minutes; a paid call holds this many minutes' price until it ends.
    max_duration: int = 30
    temperature: float = 0.7
    interruption_threshold: int = 100
    background_audio: str = "null"
    wait_for_greeting: bool = False
    #: The caller id; the carrier's configured number when not given.
    from_number: str | None = None
    #: The public test call: SHA-256 of the secret that lets the visitor's browser watch it.
    viewer_token_hash: str | None = None
    # --- the developer platform (agents, the /v1 API) --------------------------------------
    #: The saved agent it started from, and the `{{variables}}` its prompt was filled with
    #: (the prompt above is already filled).
    agent_id: str | None = None
    variables: dict[str, Any] | None = None
    #: The caller's own data, returned on every read and webhook.
    call_metadata: dict[str, Any] | None = None
    #: Where this call's `call.*` events go, besides the user's endpoints.
    webhook_url: str | None = None
    #: A fixed opening line the agent speaks first.
    first_sentence: str | None = None
    voicemail_action: VoicemailAction = "leave_message"
    voicemail_message: str | None = None
    #: The AI disclosure's wording (None: the default).
    disclosure: str | None = None
    #: The post-call analysis: a summary instruction, dispositions, fields to extract.
    summary_prompt: str | None = None
    dispositions: list[str] | None = None
    analysis_schema: list[dict[str, Any]] | None = None
    #: Dial at this time (UTC) instead of at once.
    start_at: datetime | None = None
    #: The API key that placed it.
    api_key_id: int | None = None
    #: The campaign and contact it is an attempt for.
    campaign_id: str | None = None
    campaign_contact_id: int | None = None
    #: Where the agent may hand the callee to a person, and how (agents.transfers).
    transfer_number: str | None = None
    transfer_list: dict[str, str] | None = None
    transfer_mode: str = "cold"
    #: Keys pressed when the call is answered, before the agent speaks (docs/actions.md).
    precall_dtmf_sequence: str | None = None
    #: The custom tools its agent may call, and the requests made when it is dialled whose
    #: answers fill variables (docs/actions.md; header values sealed).
    tools: list[dict[str, Any]] | None = None
    dynamic_data: list[dict[str, Any]] | None = None
    #: Whether the call is recorded (Bland's `record`), and whether `/v1` and the webhooks
    #: show who answered (Bland's `answered_by_enabled`: a `/v1/calls` call asks for it; every
    #: other way shows it; the dashboard always does).
    record: bool = True
    answered_by_enabled: bool = True
    #: The conversation flow it follows, the published version pinned, the node it starts at
    #: and that version's graph (docs/flows.md; calls.builder pins it).
    flow_id: str | None = None
    flow_version: int | None = None
    start_node_id: str | None = None
    flow_graph: dict[str, Any] | None = None
    # --- the agent lab (docs/lab.md) --------------------------------------------------------
    #: A lab call's simulated callee (lab.contract.Callee as JSON data), played by the sandbox
    #: network instead of the persona its number picks; None for every other kind.
    lab_callee: dict[str, Any] | None = None


class CallService:
    def __init__(
        self,
        settings: Settings,
        billing: Billing,
        carrier: str,
        jobs: JobQueue,
        life: CallLife,
        clock: Callable[[], datetime] = utcnow,
        test_numbers: phone.TestNumbers | None = None,
        lab_numbers: phone.TestNumbers | None = None,
    ) -> None:
        self.settings = settings
        #: The carrier's own test numbers, which the number policy lets through.
        self.test_numbers = test_numbers
        #: The sandbox's own numbers, which the lab's calls dial on the sandbox carrier
        #: whatever the install's own; None: this install has no sandbox carrier.
        self.lab_numbers = lab_numbers
        self.billing = billing
        self.carrier = carrier
        self.jobs = jobs
        #: Told of every placed call, in the placing transaction (calls.lifecycle).
        self.life = life
        #: What time it is (the rules that depend on it read this; tests set it).
        self.clock = clock

    async def place(self, session: AsyncSession, order: CallOrder) -> Call:
        """Store the call queued, holding its maximum cost from its payer first
        (InsufficientBalance when the balance does not cover it), after the rules for calling
        people (docs/compliance.md): OutsideCallingHours outside the callee's calling hours,
        OnDoNotCallList for a listed number, TooManyCallsToNumber beyond the daily cap. It is
        dialled once the session's transaction commits, never for a rolled-back one. Every call
        is held to the number policy first (kit.phone: no emergency, premium-rate, shared-cost
        or invalid number), whichever way it came.

        On the sandbox network every callee is simulated: a call outside calling hours is placed
        anyway, and its events say once (category `compliance`) what a real carrier would have
        done, in the user's own time zone. A lab call rings only a simulated callee: no rule
        for calling people applies to it, and it is placed only where `_check_lab` allows."""
        self._check_number(order)
        notice = None
        if order.kind in USERS_KINDS and order.user_id is not None:
            # The free test call rings the visitor who asked for it, and the CLI is the
            # operator's own tool: the rules for calling people are for users' calls.
            now = self.clock()
            notice = await self._calling_hours(session, order.user_id, order, now)
            await do_not_call.check(session, order.user_id, order.to_number)
            await frequency.check(
                session,
                order.user_id,
                order.to_number,
                self.settings.max_calls_per_number_per_day,
                now,
            )
        elif order.kind == "test":
            await do_not_call.check(session, None, order.to_number)  # the global list binds all
        fields = asdict(order)
        lab = order.kind == "lab"
        caller_id = self.settings.sandbox_from_number if lab else self.settings.from_number
        fields["from_number"] = order.from_number or caller_id
        call = Call(
            id=new_call_id(),
            # The lab's calls go on the sandbox network whatever the install's carrier.
            carrier=SANDBOX if lab else self.carrier,
            status=CallStatus.QUEUED.value,
            queued_at=utcnow(),
            **fields,
        )
        if order.user_id is not None:
            await self.billing.hold(session, order.user_id, call)
        await calls.add(session, call)
        if notice is not None:
            await calls.add_event(session, call.id, COMPLIANCE, notice, utcnow())
        await self.life.queued(session, call)
        call_id = call.id
        if order.start_at is not None and order.start_at > utcnow():
            return call  # dialled by the due-call sweep when its time comes

        async def dial_later() -> None:
            await self.jobs.send(DIAL_JOB, call_id)

        on_commit(session, dial_later)
        return call

    def _check_number(self, order: CallOrder) -> None:
        """The lab's rules (`_check_lab`), then the number policy (kit.phone), which lets the
        carrier's own test numbers through: the sandbox's for a lab call, whatever the
        install's carrier."""
        self._check_lab(order)
        numbers = self.lab_numbers if order.kind == "lab" else self.test_numbers
        reason = phone.refusal(order.to_number, test_numbers=numbers)
        if reason is not None:
            raise ValidationFailed({"phone_number": [reason]})

    def _check_lab(self, order: CallOrder) -> None:
        """A lab call rings only a simulated callee, on the sandbox carrier whatever this
        install's own (a Twilio install keeps the sandbox beside it: core.build_carriers), so
        it is refused where there is no sandbox carrier, or no sandbox network to reach, and
        unless the number is one of the sandbox's own (`lab_numbers`:
        sandbox.numbers.own_number, given by the composition root, for the calls do not import
        the sandbox). It is nobody's bill (no user) and has its callee; no other kind carries
        one."""
        if order.kind != "lab":
            if order.lab_callee is not None:
                raise ValidationFailed({"lab_callee": [LAB_CALLEE_ONLY]})
            return
        if self.lab_numbers is None:
            raise ValidationFailed({"kind": [LAB_NEEDS_SANDBOX.format(self.carrier)]})
        hosted = self.settings.host_sandbox or self.settings.sandbox_url
        if self.carrier != SANDBOX and not hosted:
            raise ValidationFailed({"kind": [LAB_NO_SANDBOX.format(self.carrier)]})
        if not self.lab_numbers(order.to_number):
            raise ValidationFailed({"phone_number": [LAB_NUMBER.format(order.to_number)]})
        if order.lab_callee is None:
            raise ValidationFailed({"lab_callee": ["A lab call needs its simulated callee."]})
        if order.user_id is not None:
            raise ValidationFailed({"user_id": ["A lab call is nobody's bill: it has no user."]})

    async def notice(self, session: AsyncSession, call: Call) -> str | None:
        """What the rules for calling people said of a call they let through (the sandbox's
        note on calling hours), for the placing request's answer."""
        return await calls.first_event(session, call.id, COMPLIANCE)

    async def _calling_hours(
        self, session: AsyncSession, user_id: int, order: CallOrder, now: datetime
    ) -> str | None:
        """Refuse a call outside the callee's calling hours (told in the user's zone, with the
        next opening); on the sandbox carrier, what a real one would have done instead."""
        closed = calling_hours.closed(self.settings, order.to_number, order.start_at or now)
        if closed is None:
            return None
        user = await session.get(User, user_id)
        zone = user.timezone if user is not None else None
        if self.carrier == SANDBOX:
            return calling_hours.sandbox_notice(closed, zone, now)
        raise calling_hours.OutsideCallingHours(calling_hours.refusal(closed, zone), closed.opens)
