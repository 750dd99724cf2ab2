"""Calling hours: a number is called only while it is daytime where its owner is. The callee's
zone comes from the number (`phonenumbers`' time-zone data) unless the caller names one (an API
`timezone`, a campaign's `timezone` column). A number that maps to several zones (an area code
that spans two) is called only while the window is open in every one of them, the strict
reading of the rules this serves (docs/compliance.md). A number whose zone the data cannot
narrow below its whole country (a mobile range, a non-geographic or unassigned one) is checked
in the operator's default zone, as are zones whose windows never overlap.

Pure functions of the time given: callers pass `now`, so tests and the campaign dialler's
clock decide what time it is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import phonenumbers
from phonenumbers import timezone as number_zones
from phonenumbers.tzdata import TIMEZONE_DATA

from callwright.config import Settings
from callwright.kit.errors import AppError

UNKNOWN_ZONE = "Etc/Unknown"
#: How far ahead `next_open` looks for a moment the window is open in every zone.
_HORIZON_DAYS = 8


def callee_today(phone: str, now: datetime) -> date:
    """The callee's own date at `now` (their number's first zone; UTC when the number does not
    say): what "tomorrow" means to them."""
    zones = number_zones_of(phone)
    return now.astimezone(zones[0] if zones else UTC).date()


@dataclass(frozen=True)
class Window:
    """A daily window in the callee's local time: `start` up to, not including, `end`.
    `end` of midnight (00:00) means the end of the day."""

    start: time = time(8, 0)
    end: time = time(21, 0)

    @classmethod
    def parse(cls, text: str) -> Window:
        """`"08:00-21:00"`; `"00:00-24:00"` is the whole day. ValueError when malformed."""
        first, sep, second = text.strip().partition("-")
        if not sep:
            raise ValueError(f"A calling window is written HH:MM-HH:MM, not {text!r}.")
        start = _clock(first)
        end = time(0, 0) if second.strip() == "24:00" else _clock(second)
        if end != time(0, 0) and end <= start:
            raise ValueError(f"A calling window must end after it starts: {text!r}.")
        return cls(start, end)

    @property
    def whole_day(self) -> bool:
        return self.start == time(0, 0) and self.end == time(0, 0)

    def contains(self, local: time) -> bool:
        local = local.replace(tzinfo=None)
        if self.end == time(0, 0):
            return local >= self.start
        return self.start <= local < self.end

    def __str__(self) -> str:
        end = "24:00" if self.end == time(0, 0) else self.end.strftime("%H:%M")
        return f"{self.start.strftime('%H:%M')}-{end}"


def _clock(text: str) -> time:
    try:
        return time.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a time of day (HH:MM).") from None


def zone(name: str) -> ZoneInfo:
    """The IANA zone `name`; ValueError for a name that is not one."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a known time zone (e.g. America/New_York).") from None


def number_zones_of(phone: str) -> tuple[ZoneInfo, ...]:
    """The zones `phone` (E.164) may ring in, by its number; empty when the number does not
    say (no data, or only its whole country's list)."""
    try:
        parsed = phonenumbers.parse(phone, None)
    except phonenumbers.NumberParseException:
        return ()
    names = [n for n in number_zones.time_zones_for_number(parsed) if n != UNKNOWN_ZONE]
    country = TIMEZONE_DATA.get(str(parsed.country_code), ())
    if len(names) > 1 and set(names) == set(country):
        return ()  # only the country's whole list: the number does not say where it rings
    zones: list[ZoneInfo] = []
    for name in names:
        try:
            zones.append(ZoneInfo(name))
        except ZoneInfoNotFoundError:
            continue
    return tuple(zones)


@dataclass(frozen=True)
class CalleeZones:
    zones: tuple[ZoneInfo, ...]
    #: Where they come from: "given" (the caller named one), "number", or "default".
    source: str

    def describe(self) -> str:
        if len(self.zones) == 1:
            return self.zones[0].key
        return f"{len(self.zones)} time zones"


def callee_zones(
    phone: str, window: Window, default_zone: str, given: str | None = None
) -> CalleeZones:
    """The zones the window is checked in for `phone`: the one the caller gave, else the
    number's own (when their windows overlap at all), else the operator's default."""
    if given:
        return CalleeZones((zone(given),), "given")
    zones = number_zones_of(phone)
    if zones and (len(zones) == 1 or _overlap(zones, window)):
        return CalleeZones(zones, "number")
    return CalleeZones((zone(default_zone),), "default")


def is_open(zones: tuple[ZoneInfo, ...], window: Window, now: datetime) -> bool:
    """Whether the window is open in every zone at `now` (aware)."""
    return all(window.contains(now.astimezone(z).time()) for z in zones)


def next_open(zones: tuple[ZoneInfo, ...], window: Window, now: datetime) -> datetime | None:
    """The first moment at or after `now` the window is open in every zone (UTC); None when it
    never is within the next week."""
    if is_open(zones, window, now):
        return now.astimezone(UTC)
    candidates: list[datetime] = []
    for z in zones:
        today = now.astimezone(z).date()
        for day in range(_HORIZON_DAYS):
            candidates.append(_local(today + timedelta(days=day), window.start, z))
    for moment in sorted(c for c in candidates if c >= now):
        if is_open(zones, window, moment):
            return moment
    return None


def _overlap(zones: tuple[ZoneInfo, ...], window: Window) -> bool:
    reference = datetime(2026, 1, 5, 12, tzinfo=UTC)  # any day: offsets differ by whole hours
    return next_open(zones, window, reference) is not None


def _local(day: date, at: time, z: ZoneInfo) -> datetime:
    """`day` at `at` in zone `z`, as UTC (a time skipped by a clock change resolves forward)."""
    return datetime.combine(day, at, tzinfo=z).astimezone(UTC)


class OutsideCallingHours(AppError):
    """A call that would ring outside the callee's calling hours; `opens` is when it may
    (None: not within the next week). The error body carries it as `next_open_at`."""

    def __init__(self, message: str, opens: datetime | None) -> None:
        extra = {"next_open_at": opens.isoformat()} if opens is not None else None
        super().__init__(message, errors={"phone_number": [message]}, extra=extra)
        self.opens = opens


@dataclass(frozen=True)
class Closed:
    """The calling window is closed for `phone` at `at`: in which zones, and when it opens."""

    phone: str
    callee: CalleeZones
    window: Window
    at: datetime
    opens: datetime | None


def closed(settings: Settings, phone: str, at: datetime) -> Closed | None:
    """Whether a call to `phone` (E.164) ringing at `at` falls outside the calling window
    (`settings.calling_hours`) in the callee's zone: None while it is open."""
    window = Window.parse(settings.calling_hours)
    if window.whole_day:
        return None
    callee = callee_zones(phone, window, settings.default_timezone)
    if is_open(callee.zones, window, at):
        return None
    return Closed(phone, callee, window, at, next_open(callee.zones, window, at))


def user_zone(name: str | None) -> ZoneInfo:
    """The zone a user reads times in (their own setting; UTC while they have none)."""
    if name:
        try:
            return zone(name)
        except ValueError:
            pass
    return ZoneInfo("UTC")


def your_time(moment: datetime, user_zone_name: str | None, now: datetime) -> str:
    """`moment` as the user reads it: "14:00 your time (Europe/Berlin)", with the date when it
    is not today there ("Sat 28 Nov 14:00 ..."); in UTC for a user without a zone."""
    where = user_zone(user_zone_name)
    local = moment.astimezone(where)
    clock = local.strftime("%H:%M")
    if local.date() != now.astimezone(where).date():
        clock = local.strftime("%a %d %b %H:%M")
    if where.key == "UTC":
        return f"{clock} UTC"
    return f"{clock} your time ({where.key})"


def _zones_and_now(closed: Closed) -> str:
    if len(closed.callee.zones) == 1:
        local = closed.at.astimezone(closed.callee.zones[0]).strftime("%H:%M")
        return f"in {closed.callee.zones[0].key} (it is {local} there)"
    return f"in each of its {len(closed.callee.zones)} time zones"


def refusal(closed: Closed, user_zone_name: str | None = None) -> str:
    """Why the number may not be called at `closed.at`, and when it may, in the user's zone."""
    callee, window, at = closed.callee, closed.window, closed.at
    start, end = str(window).split("-")
    if len(callee.zones) == 1:
        where = f"its local time ({callee.zones[0].key}"
        where += ": the number does not say where it rings)" if callee.source == "default" else ")"
        local = at.astimezone(callee.zones[0]).strftime("%H:%M")
        now = f"; it is {local} there"
    else:
        where = f"local time in each of its {len(callee.zones)} time zones"
        now = ""
    message = (
        f"Outside calling hours: {closed.phone} may be called from {start} to {end} {where}{now}."
    )
    if closed.opens is not None:
        message += f" The next window opens at {_opening(closed.opens, user_zone_name)}."
    return message


def _opening(opens: datetime, user_zone_name: str | None) -> str:
    """A date and time in full, in the user's zone and in UTC."""
    where = user_zone(user_zone_name)
    utc = f"{opens.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    if where.key == "UTC":
        return utc
    return f"{opens.astimezone(where):%Y-%m-%d %H:%M} your time ({where.key}; {utc})"


def sandbox_notice(closed: Closed, user_zone_name: str | None, now: datetime) -> str:
    """What a real carrier would have done with a call the sandbox places anyway."""
    then = (
        f"would wait until {your_time(closed.opens, user_zone_name, now)}"
        if closed.opens is not None
        else "would be refused (the window does not open within a week)"
    )
    return (
        f"Outside calling hours {_zones_and_now(closed)}; with a real carrier this call {then}. "
        "The sandbox's callees are simulated, so it rings now."
    )
