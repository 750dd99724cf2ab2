"""Reading concurrency back from the calls' own times."""

from __future__ import annotations

from datetime import datetime


def most_at_once(spans: list[tuple[datetime, datetime]]) -> int:
    """The most spans (start, end) in progress at one instant."""
    moments = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    live = most = 0
    for _, step in moments:  # an end before a start at the same instant
        live += step
        most = max(most, live)
    return most
