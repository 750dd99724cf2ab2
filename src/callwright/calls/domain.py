"""The calls domain as the rest of the app reaches it (`app.state.calls`): its parts, each
built by the composition root (`callwright.core`)."""

from __future__ import annotations

from dataclasses import dataclass

from callwright.billing.service import Billing
from callwright.calls.events import CallEvents
from callwright.calls.flows import CallFlows
from callwright.calls.media_hooks import CallMedia
from callwright.calls.service import CallService


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
