"""Calling hours in the callee's zone: from the number, or the zone the caller gives, or the
operator's default when the number cannot tell; every zone of a number spanning several must
be open; the next opening is found across days and clock changes."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from callwright.compliance.calling_hours import (
    Window,
    callee_today,
    callee_zones,
    is_open,
    next_open,
    number_zones_of,
    your_time,
)

DAY = Window()  # 08:00-21:00
SAN_FRANCISCO = "+14155550100"
LONDON = "+442079460000"
SANDBOX = "+15005550001"  # NANP's test range: the whole NANP's zones, Guam to Adak
UNASSIGNED = "+15551230000"


def test_a_window_reads_and_writes_hh_mm() -> None:
    assert Window.parse("08:00-21:00") == DAY
    assert str(Window.parse(" 09:30-17:00 ")) == "09:30-17:00"
    whole = Window.parse("00:00-24:00")
    assert whole.whole_day
    assert str(whole) == "00:00-24:00"
    for bad in ("8-21", "21:00-08:00", "08:00", "aa:00-21:00", "08:00-08:00"):
        with pytest.raises(ValueError, match=r"calling window|time of day"):
            Window.parse(bad)


def test_the_zone_comes_from_the_number_the_caller_or_the_default() -> None:
    assert [z.key for z in number_zones_of(SAN_FRANCISCO)] == ["America/Los_Angeles"]
    sf = callee_zones(SAN_FRANCISCO, DAY, "America/New_York")
    assert (sf.source, sf.describe()) == ("number", "America/Los_Angeles")
    given = callee_zones(SAN_FRANCISCO, DAY, "America/New_York", given="Europe/Paris")
    assert (given.source, given.describe()) == ("given", "Europe/Paris")
    # Unassigned: no zone; a non-geographic range: only the whole country's zones.
    assert number_zones_of(SANDBOX) == ()
    assert number_zones_of("+79161234567") == ()  # a Russian mobile: all of Russia's zones
    # An area that spans two zones keeps both (Western and South Australia).
    assert callee_zones("+61891234567", DAY, "UTC").describe() == "2 time zones"
    for phone in (UNASSIGNED, SANDBOX):
        fallback = callee_zones(phone, DAY, "America/New_York")
        assert (fallback.source, fallback.describe()) == ("default", "America/New_York")
    with pytest.raises(ValueError, match="not a known time zone"):
        callee_zones(SAN_FRANCISCO, DAY, "UTC", given="Mars/Olympus_Mons")


def test_open_in_the_callees_zone_not_the_callers() -> None:
    sf = callee_zones(SAN_FRANCISCO, DAY, "UTC").zones
    london = callee_zones(LONDON, DAY, "UTC").zones
    # 17:00 UTC in January: 09:00 in San Francisco, 17:00 in London.
    at = datetime(2027, 1, 12, 17, 0, tzinfo=UTC)
    assert is_open(sf, DAY, at)
    assert is_open(london, DAY, at)
    # 15:59 UTC: 07:59 in San Francisco (closed), still afternoon in London.
    early = datetime(2027, 1, 12, 15, 59, tzinfo=UTC)
    assert not is_open(sf, DAY, early)
    assert is_open(london, DAY, early)
    # 21:00 local is closed (the window's end is not in it).
    assert not is_open(london, DAY, datetime(2027, 1, 12, 21, 0, tzinfo=UTC))


def test_a_number_spanning_zones_needs_every_one_open() -> None:
    both = (
        *callee_zones("+12125550100", DAY, "UTC").zones,
        *callee_zones(SAN_FRANCISCO, DAY, "UTC").zones,
    )
    # 13:30 UTC: 08:30 in New York, 05:30 in San Francisco.
    at = datetime(2027, 1, 12, 13, 30, tzinfo=UTC)
    assert not is_open(both, DAY, at)
    assert next_open(both, DAY, at) == datetime(2027, 1, 12, 16, 0, tzinfo=UTC)


def test_the_next_opening_is_found_across_days_and_clock_changes() -> None:
    london = callee_zones(LONDON, DAY, "UTC").zones
    # 22:00 in London on Saturday 27 March 2027: the clocks go forward that night.
    late = datetime(2027, 3, 27, 22, 0, tzinfo=UTC)
    assert next_open(london, DAY, late) == datetime(2027, 3, 28, 7, 0, tzinfo=UTC)  # 08:00 BST
    open_now = datetime(2027, 3, 29, 9, 0, tzinfo=UTC)
    assert next_open(london, DAY, open_now) == open_now
    # Windows that never meet: none within the horizon.
    apart = (
        *callee_zones("+16715550100", DAY, "UTC").zones,
        *callee_zones("+18085550100", DAY, "UTC").zones,
    )
    assert next_open(apart, Window(time(8), time(9)), late) is None


def test_the_whole_day_is_always_open() -> None:
    sf = callee_zones(SAN_FRANCISCO, DAY, "UTC").zones
    whole = Window.parse("00:00-24:00")
    at = datetime(2027, 1, 12, 11, 0, tzinfo=UTC)  # 03:00 in San Francisco
    assert is_open(sf, whole, at)
    assert not is_open(sf, DAY, at)


def test_the_opening_is_told_with_its_day_when_it_is_not_today() -> None:
    now = datetime(2027, 1, 15, 22, 0, tzinfo=UTC)  # a Friday night
    monday = now + timedelta(days=2, hours=16)
    assert your_time(monday, "Europe/Berlin", now) == "Mon 18 Jan 15:00 your time (Europe/Berlin)"
    assert your_time(now + timedelta(hours=1), None, now) == "23:00 UTC"


@pytest.mark.parametrize(
    ("utc", "san_francisco", "tokyo", "sandbox"),
    [
        # 03:30 UTC: still the evening before in San Francisco, already noon in Tokyo.
        ("2026-11-27T03:30:00", "2026-11-26", "2026-11-27", "2026-11-27"),
        ("2026-11-27T12:00:00", "2026-11-27", "2026-11-27", "2026-11-27"),
        # 23:30 UTC: afternoon in San Francisco, the next morning in Tokyo.
        ("2026-11-27T23:30:00", "2026-11-27", "2026-11-28", "2026-11-27"),
    ],
)
def test_the_callees_own_date_is_what_tomorrow_counts_from(
    utc: str, san_francisco: str, tokyo: str, sandbox: str
) -> None:
    """A flow's "tomorrow" is the callee's (calls.media_hooks puts it in the call's plan): read
    at three hours of the UTC day; a number that does not say where it rings is on UTC."""
    now = datetime.fromisoformat(utc).replace(tzinfo=UTC)
    assert callee_today(SAN_FRANCISCO, now).isoformat() == san_francisco
    assert callee_today("+81312345678", now).isoformat() == tokyo
    assert callee_today(SANDBOX, now).isoformat() == sandbox
