"""A campaign's rules as pure functions: its states and the moves between them, its schedule
(days and a daily window in each callee's local time), and its retry policy. The dialler and
the API decide with these; nothing here touches the database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, Literal
from zoneinfo import ZoneInfo

from callwright.compliance.calling_hours import Window, callee_zones, your_time

State = Literal["draft", "scheduled", "running", "paused", "completed", "cancelled"]
ContactStatus = Literal["pending", "calling", "done", "opted-out", "skipped"]
#: The outcomes a retry policy may name (telephony.state.CallOutcome's values).
RETRYABLE = ("no-answer", "busy", "voicemail", "failed")

#: What each action may start from, and the state it leads to.
MOVES: dict[str, tuple[tuple[State, ...], State]] = {
    "start": (("draft",), "scheduled"),
    "pause": (("scheduled", "running"), "paused"),
    "resume": (("paused",), "scheduled"),
    "cancel": (("draft", "scheduled", "running", "paused"), "cancelled"),
}
CANNOT = {
    "start": "Only a draft campaign can be started.",
    "pause": "Only a scheduled or running campaign can be paused.",
    "resume": "Only a paused campaign can be resumed.",
    "cancel": "This campaign has already ended.",
}
#: The dialler's own reasons to stop.
OUT_OF_BALANCE = "Paused: your balance ran out. Add funds, then resume the campaign."
SPEND_CAP_REACHED = "Paused: the campaign's spending cap of ${:.2f} is reached."
END_PASSED = "Ended: the campaign's end time passed with contacts still to call."
ALL_DONE = "Every contact has been called."

#: Sensible defaults: one more try after no answer (an hour later) and after busy (15 minutes
#: later), none after voicemail (a message was left) or a failed call.
DEFAULT_RETRIES: dict[str, dict[str, int]] = {
    "no-answer": {"attempts": 1, "wait_minutes": 60},
    "busy": {"attempts": 1, "wait_minutes": 15},
    "voicemail": {"attempts": 0, "wait_minutes": 60},
    "failed": {"attempts": 0, "wait_minutes": 60},
}


def move(action: str, state: str) -> State | None:
    """The state `action` leads to from `state`, or None when it may not be taken."""
    sources, target = MOVES[action]
    return target if state in sources else None


@dataclass(frozen=True)
class Schedule:
    """When a campaign may ring a contact: on `days` (0 Monday .. 6 Sunday) inside `window`,
    both in the callee's local time, from `start_at` until `end_at`."""

    window: Window
    days: frozenset[int]
    start_at: datetime | None = None
    end_at: datetime | None = None

    @classmethod
    def of(
        cls, window: str, days: Sequence[int], start_at: datetime | None, end_at: datetime | None
    ) -> Schedule:
        return cls(Window.parse(window), frozenset(days), start_at, end_at)

    def begun(self, now: datetime) -> bool:
        return self.start_at is None or now >= self.start_at

    def over(self, now: datetime) -> bool:
        return self.end_at is not None and now >= self.end_at

    def open_in(self, zones: tuple[ZoneInfo, ...], now: datetime) -> bool:
        """Whether `now` is a calling day and inside the window in every one of `zones`."""
        for z in zones:
            local = now.astimezone(z)
            if local.weekday() not in self.days or not self.window.contains(local.time()):
                return False
        return True

    def next_open(self, zones: tuple[ZoneInfo, ...], now: datetime) -> datetime | None:
        """The first quarter hour from `now` (within two weeks) the contact may be called."""
        moment = now.replace(second=0, microsecond=0)
        for _ in range(14 * 24 * 4):
            moment += timedelta(minutes=15)
            if self.end_at is not None and moment >= self.end_at:
                return None
            if self.open_in(zones, moment):
                return moment
        return None


def waiting_note(
    window: Window,
    zones: tuple[ZoneInfo, ...],
    opens: datetime | None,
    reader_zone: str | None,
    now: datetime,
) -> str:
    """Why a contact waits and until when, told in its owner's zone: shown on the campaign
    page and in the export."""
    where = ", ".join(z.key for z in zones)
    until = (
        f"it opens at {your_time(opens, reader_zone, now)}"
        if opens is not None
        else "it does not open again before the campaign ends"
    )
    return f"Waiting for the campaign's calling window ({window} on its days in {where}): {until}."


def zones_of(
    phone: str, given: str | None, window: Window, default_zone: str
) -> tuple[ZoneInfo, ...]:
    """The zones a contact's window is checked in: its file's `timezone`, else its number's,
    else the operator's default (compliance.calling_hours.callee_zones)."""
    return callee_zones(phone, window, default_zone, given).zones


def stored_zones(names: str | None, default_zone: str) -> tuple[ZoneInfo, ...]:
    """A contact's zones as its load stored them (comma-separated IANA names)."""
    return tuple(_zone(name) for name in (names or default_zone).split(",") if name)


@cache
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


@dataclass(frozen=True)
class Retry:
    attempts: int
    wait: timedelta


def retry_policy(retries: Mapping[str, Any]) -> dict[str, Retry]:
    """The campaign's stored policy over the defaults, by outcome."""
    policy: dict[str, Retry] = {}
    for outcome in RETRYABLE:
        given = {**DEFAULT_RETRIES[outcome], **dict(retries.get(outcome) or {})}
        policy[outcome] = Retry(
            int(given["attempts"]), timedelta(minutes=int(given["wait_minutes"]))
        )
    return policy


def after_attempt(
    outcome: str | None, attempts: int, policy: Mapping[str, Retry], now: datetime
) -> tuple[ContactStatus, datetime | None]:
    """A contact's status after an attempt that ended with `outcome`, its `attempts`-th: called
    again after the policy's wait while it has retries left for that outcome, else done."""
    retry = policy.get(outcome or "")
    if retry is not None and attempts <= retry.attempts:
        return "pending", now + retry.wait
    return "done", None
