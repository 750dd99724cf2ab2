"""Reading a campaign's calls back: concurrency from their own times, a call's story for a
failure's message."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from callwright.models import CallEvent, TranscriptEntry


def most_at_once(spans: list[tuple[datetime, datetime]]) -> int:
    """The most spans (start, end) in progress at one instant."""
    moments = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    live = most = 0
    for _, step in moments:  # an end before a start at the same instant
        live += step
        most = max(most, live)
    return most


async def story(app: Any, call_id: str | None) -> list[str]:
    """A call's transcript and events in order, for a failure's message."""
    async with app.state.db.sessionmaker() as session:
        lines = await session.scalars(
            select(TranscriptEntry).where(TranscriptEntry.call_id == call_id)
        )
        events = await session.scalars(select(CallEvent).where(CallEvent.call_id == call_id))
        told = [(e.created_at, f"{e.speaker}: {e.text}") for e in lines]
        told += [(e.created_at, f"event: {e.message}") for e in events]
    return [text for _, text in sorted(told, key=lambda t: t[0])]
