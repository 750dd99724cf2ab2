"""The calls domain as the rest of the app reaches it (`app.state.calls`): its parts, each
built by the composition root (`callwright.core`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.calls.events import CallEvents
from callwright.calls.flows import CallFlows
from callwright.calls.lifecycle import CallLife
from callwright.calls.media_hooks import CallMedia
from callwright.calls.service import CallService
from callwright.kit.errors import AppError
from callwright.models import Call
from callwright.telephony.base import CarrierError

log = logging.getLogger(__name__)
ALREADY_ENDED = "This call has already ended."


@dataclass(frozen=True)
class Calls:
    #: Placing calls (every kind), with the rules and the billing hold.
    service: CallService
    #: The state machine: dial, stop, status callbacks, finalisation, the reconciler.
    flows: CallFlows
    #: Which media streams join which call, and what the voice agent reports.
    media: CallMedia
    #: The call log's events and their realtime publication.
    events: CallEvents
    #: The prepaid balance the calls are held against and settled to.
    billing: Billing
    #: A call's life: what its end sets off, and who else hears of it (subscribers).
    life: CallLife

    async def stop(self, session: AsyncSession, call: Call, *, ended_status: int = 409) -> None:
        """Stop `call` for the one who asked (its owner's check done): hang it up, or cancel it
        before its dial. A carrier failure answers 502; a call already over, `ended_status`."""
        try:
            stopped = await self.flows.stop(session, call)
        except CarrierError as exc:
            log.warning("stopping call %s failed: %s", call.id, exc)
            raise AppError("The carrier could not stop the call. Please try again.", 502) from exc
        if not stopped:
            raise AppError(ALREADY_ENDED, ended_status)
