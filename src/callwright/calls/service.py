"""Placing a call: one way in for every kind of call (a user's, the public test call, the CLI's;
later the API's and campaigns'), holding the rules that apply to all of them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.calls import repository as calls
from callwright.calls.tasks import DIAL_JOB
from callwright.config import Settings
from callwright.kit.db import on_commit
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.models.call import new_call_id
from callwright.telephony.state import CallStatus

CallKind = Literal["user", "test", "cli"]


@dataclass(frozen=True)
class CallOrder:
    """What a caller asks for. The defaults are the product's (and the spec's)."""

    kind: CallKind
    to_number: str
    prompt: str
    voice: str
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


class CallService:
    def __init__(self, settings: Settings, billing: Billing, carrier: str, jobs: JobQueue) -> None:
        self.settings = settings
        self.billing = billing
        self.carrier = carrier
        self.jobs = jobs

    async def place(self, session: AsyncSession, order: CallOrder) -> Call:
        """Store the call queued, holding its maximum cost from its payer first
        (InsufficientBalance when the balance does not cover it). It is dialled once the
        session's transaction commits, never for a rolled-back one."""
        fields = asdict(order)
        fields["from_number"] = order.from_number or self.settings.from_number
        call = Call(
            id=new_call_id(),
            carrier=self.carrier,
            status=CallStatus.QUEUED.value,
            queued_at=utcnow(),
            **fields,
        )
        if order.user_id is not None:
            await self.billing.hold(session, order.user_id, call)
        await calls.add(session, call)
        call_id = call.id

        async def dial_later() -> None:
            await self.jobs.send(DIAL_JOB, call_id)

        on_commit(session, dial_later)
        return call
