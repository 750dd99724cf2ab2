"""A call's per-reply latency as it goes live: the `turn-latency` socket event.

The voice agent measures each reply (`voice_agent.turn_timer`); `MediaHooks.latency` stores the
row and, once it commits, publishes it to the call's owner's and the admins' rooms as this event
(not as a call event row: a figure per reply is not part of the call's story, and the table
`turn_latencies` already keeps it for `GET call/{id}/latency` and the call details).
"""

from __future__ import annotations

from typing import Any

from callwright.calls.schemas import TurnLatencyOut
from callwright.models import TurnLatency

TURN_LATENCY = "turn-latency"


def live_latency(row: TurnLatency) -> dict[str, Any]:
    """The event's data: the API's `TurnLatencyOut` fields and the call's id (`callId`, as in
    `webhook-event`)."""
    return {"callId": row.call_id, **TurnLatencyOut.model_validate(row).model_dump()}
