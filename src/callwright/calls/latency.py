"""A call's per-reply latency as it goes live: the `turn-latency` socket event.

The voice agent measures each reply (`voice_agent.turn_timer`); `MediaHooks.latency` stores the
row and, once it commits, publishes it to the call's owner's and the admins' rooms as this event
(not as a call event row: a figure per reply is not part of the call's story, and the table
`turn_latencies` already keeps it for `GET call/{id}/latency` and the call details).
"""

from __future__ import annotations

from callwright.models import TurnLatency
from callwright.realtime.events import TurnLatencyEvent


def live_latency(row: TurnLatency) -> TurnLatencyEvent:
    """The event: the API's `TurnLatencyOut` fields and the call's id (`callId`, as in
    `webhook-event`)."""
    return TurnLatencyEvent.model_validate(row)
