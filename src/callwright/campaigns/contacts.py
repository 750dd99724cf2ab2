"""A campaign's contacts, read from a CSV upload. The file is read as a stream, a row at a time,
and answered a batch at a time in row order, so a caller can insert 100,000 contacts without
ever holding them (or the file) whole: the set of numbers already seen, kept to refuse
duplicates, is the only thing that grows with the file.

Each row is a contact to call (its number in E.164, its `{{variables}}`, its time zone when the
file names one) or a refused row with the reason a person can act on. Numbers are read with
`phonenumbers` in the caller's default region, so "(415) 555-0100" is a number in a US file.
Emergency and premium-rate numbers are never called. The do-not-call lists are asked once per
batch (one query for 500 numbers, not 500 queries), through a callback, so this module stays
free of the database: the campaign service wires it to the lists.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
from collections import Counter
from collections.abc import (
    AsyncGenerator,
    Awaitable,
    Callable,
    Collection,
    Generator,
    Iterable,
    Iterator,
)
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from typing import BinaryIO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import phonenumbers
from phonenumbers import PhoneNumberFormat
from phonenumbers import timezone as number_zones

from callwright.compliance.calling_hours import UNKNOWN_ZONE, number_zones_of
from callwright.kit import phone

# Why a row is refused (one reason per row: the first rule it breaks, in this order): the
# number policy's reasons (kit.phone, the words of every dial), then this module's own.
from callwright.kit.phone import BAD_NUMBER as BAD_NUMBER
from callwright.kit.phone import EMERGENCY as EMERGENCY
from callwright.kit.phone import PREMIUM as PREMIUM
from callwright.kit.phone import SHARED_COST as SHARED_COST

BAD_TIMEZONE = "Not a known time zone (use a name like America/New_York)."
MISSING_VARIABLE = 'The "{name}" column is empty and the agent needs it.'
DUPLICATE = "Duplicate of an earlier row."
LISTED = "On the do-not-call list."

#: Why a whole file is refused.
EMPTY_FILE = "The file is empty."
NOT_UTF8 = "The file must be UTF-8 text (CSV)."
NO_PHONE_COLUMN = 'The file needs a phone number column (a header named "phone" or "phone_number").'
BAD_CSV = "Row {row} of the file is not readable CSV ({error})."
#: A NUL is refused in a file as in a JSON body (kit.nul_guard): no text we keep may hold one.
NUL_IN_FILE = "Row {row} of the file contains a NUL character: the file must be plain text."

#: Headers that name the phone column and the time-zone column, compared lower-cased with
#: spaces, underscores and dashes removed ("Phone Number", "phone_number", "TZ").
PHONE_HEADERS = frozenset({"phone", "phonenumber", "number", "tel", "telephone", "mobile", "cell"})
TIMEZONE_HEADERS = frozenset({"timezone", "tz"})
#: Numbers checked against the do-not-call lists at once (and the most contacts per batch).
BATCH = 500
#: A batch also closes at this many times `batch` rows, so that a file of mostly refused rows
#: is still answered in bounded pieces.
MAX_ROWS_FACTOR = 2
#: Refused rows an `ImportReport` keeps one by one (all are counted).
REFUSED_SHOWN = 100
#: A refused row's value is cut to this many characters (it is shown, not stored).
VALUE_SHOWN = 40

#: Answers which of a batch of E.164 numbers a do-not-call list holds.
DoNotCallCheck = Callable[[list[str]], Awaitable[AbstractSet[str]]]

_SEPARATORS = re.compile(r"[\s_-]+")
_NOT_NAME = re.compile(r"[^a-z0-9_]+")


class ContactsFileError(ValueError):
    """A file that cannot be read as contacts at all (no row of it is imported)."""


@dataclass(frozen=True, slots=True)
class Contact:
    """A row to call: `row` is its row in the file (the header is row 1), `phone_e164` its
    number in E.164, `variables` every other column by its `{{variable}}` name (stripped;
    empty cells as ""), `timezone` the IANA zone the file names, if any."""

    row: int
    phone_e164: str
    variables: dict[str, str]
    timezone: str | None = None
    #: Where the file's `timezone` is not one the number rings in: the number's own zones,
    #: which the legal calling hours use (the campaign's window uses the file's).
    number_zones: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Refused:
    """A row not imported: the cell at fault (the phone cell, or the time-zone cell for a bad
    zone, or the number in E.164 for a listed one) and why, in words for the file's owner."""

    row: int
    value: str
    reason: str


Result = Contact | Refused


@dataclass(frozen=True, slots=True)
class ZoneMismatch:
    """A row whose file names a time zone its number does not ring in."""

    row: int
    phone_e164: str
    file_zone: str
    number_zones: tuple[str, ...]


@dataclass
class ImportReport:
    """What an import did, folded batch by batch: every row counted, per reason too, but only
    the first `REFUSED_SHOWN` refused rows kept (a 100,000-row file of bad numbers is answered
    with a page, not 100,000 lines)."""

    accepted: int = 0
    refused_count: int = 0
    refused: list[Refused] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    #: Rows whose file's zone and number disagree: all counted, the first `REFUSED_SHOWN` kept.
    mismatch_count: int = 0
    mismatches: list[ZoneMismatch] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return self.accepted + self.refused_count

    def add(self, results: Iterable[Result]) -> None:
        """Count a batch of `read_contacts` in."""
        for result in results:
            if isinstance(result, Contact):
                self.accepted += 1
                if result.number_zones and result.timezone:
                    self.mismatch_count += 1
                    if len(self.mismatches) < REFUSED_SHOWN:
                        self.mismatches.append(
                            ZoneMismatch(
                                result.row, result.phone_e164, result.timezone, result.number_zones
                            )
                        )
                continue
            self.refused_count += 1
            self.reasons[result.reason] += 1
            if len(self.refused) < REFUSED_SHOWN:
                self.refused.append(result)


def variable_name(header: str) -> str:
    """The `{{variable}}` a column's header names: "First Name" is `first_name`, "Appt. time"
    is `appt_time`; "" when nothing of it is left."""
    return _NOT_NAME.sub("_", header.strip().lower()).strip("_")


def zones_for(phone_e164: str) -> tuple[str, ...]:
    """The IANA zones `phonenumbers` places the number in (several where an area code spans
    them); () when it cannot tell, so the caller falls back to its default zone."""
    try:
        number = phonenumbers.parse(phone_e164, None)
    except phonenumbers.NumberParseException:
        return ()
    return tuple(z for z in number_zones.time_zones_for_number(number) if z != UNKNOWN_ZONE)


async def read_contacts(
    raw: BinaryIO,
    *,
    default_region: str,
    listed: DoNotCallCheck,
    required: Collection[str] = (),
    batch: int = BATCH,
    test_numbers: phone.TestNumbers | None = None,
) -> AsyncGenerator[list[Result]]:
    """The rows of the CSV file `raw` (UTF-8, a BOM allowed, a header row first), as lists of
    results in row order: each list holds at most `batch` contacts checked against the lists
    by one `listed` call, and at most `MAX_ROWS_FACTOR * batch` rows. Blank rows are skipped.

    `default_region` (ISO country, "US") reads numbers written without "+country"; `required`
    names the variables the agent's texts need, so a row leaving one empty is refused here
    rather than at dial time. `test_numbers`: the carrier's own test numbers, which the number
    policy lets through (None: the request's carrier's). ContactsFileError for a file with no header, no phone column, or
    that is not UTF-8 or CSV; raised where found, which can be after some lists were yielded
    (the caller's transaction decides what those become). `raw` is left open."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    records = _records(raw)
    try:
        rows = _Rows(_header(records), _region(default_region), required, test_numbers)
        pending = _Batch(batch)
        for row, cells in records:
            if pending.add(rows.read(row, cells)):
                yield await pending.resolve(listed)
        if pending.results:
            yield await pending.resolve(listed)
    finally:
        records.close()


def _region(code: str) -> str:
    """The default region, upper-cased; ValueError (a caller's mistake, not the file's) for
    a code `phonenumbers` does not know."""
    region = code.strip().upper()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise ValueError(f"{code!r} is not a region phonenumbers knows (e.g. US, GB).")
    return region


def _records(raw: BinaryIO) -> Generator[tuple[int, list[str]]]:
    """(row number, cells) for every record that is not blank. Rows are counted as a
    spreadsheet shows them (blank ones and the header included, a quoted cell spanning lines
    is one row). The decoder reads the file a chunk at a time and is detached at the end, so
    closing it never closes the caller's file."""
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
    number = 0
    try:
        for number, cells in enumerate(csv.reader(text), start=1):
            if any("\x00" in cell for cell in cells):
                raise ContactsFileError(NUL_IN_FILE.format(row=number))
            if any(cell.strip() for cell in cells):
                yield number, cells
    except UnicodeDecodeError:
        raise ContactsFileError(NOT_UTF8) from None
    except csv.Error as exc:
        raise ContactsFileError(BAD_CSV.format(row=number + 1, error=exc)) from None
    finally:
        with contextlib.suppress(ValueError):  # the caller closed `raw` already
            text.detach()


@dataclass(frozen=True)
class _Columns:
    """Where a file keeps what: the phone column, the time-zone column (None: the file names
    no zones) and every variable's column. Of two columns with the same name the first
    counts."""

    phone: int
    timezone: int | None
    variables: tuple[tuple[str, int], ...]


def _header(records: Iterator[tuple[int, list[str]]]) -> _Columns:
    first = next(records, None)
    if first is None:
        raise ContactsFileError(EMPTY_FILE)
    keys = [_SEPARATORS.sub("", name.strip().lower()) for name in first[1]]
    phone = next((i for i, key in enumerate(keys) if key in PHONE_HEADERS), None)
    if phone is None:
        raise ContactsFileError(NO_PHONE_COLUMN)
    zone = next((i for i, key in enumerate(keys) if key in TIMEZONE_HEADERS), None)
    variables: dict[str, int] = {}
    for index, header in enumerate(first[1]):
        name = variable_name(header)
        if name and index not in (phone, zone):
            variables.setdefault(name, index)
    return _Columns(phone, zone, tuple(variables.items()))


class _Refusal(Exception):
    """A row broke a rule: `reason`, about the cell `value`."""

    def __init__(self, reason: str, value: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.value = value


class _Rows:
    """The rules each row is held to, and the numbers already taken by an earlier row."""

    def __init__(
        self,
        columns: _Columns,
        region: str,
        required: Collection[str],
        test_numbers: phone.TestNumbers | None,
    ) -> None:
        self.columns = columns
        self.region = region
        self.test_numbers = test_numbers
        order = {name: i for i, (name, _) in enumerate(columns.variables)}
        # The first missing one is the leftmost empty column; names with no column come last.
        needed = {(n, variable_name(n)) for n in required if variable_name(n)}
        self.required = sorted(needed, key=lambda nk: (order.get(nk[1], len(order)), nk[0]))
        self.seen: set[str] = set()

    def read(self, row: int, cells: list[str]) -> Result:
        """The row as a contact (not yet checked against the lists) or refused."""
        value = _cell(cells, self.columns.phone)
        try:
            number = _e164(value, self.region, self.test_numbers)
            zone = self._zone(cells)
            variables = {name: _cell(cells, index) for name, index in self.columns.variables}
            for name, key in self.required:
                if not variables.get(key):
                    raise _Refusal(MISSING_VARIABLE.format(name=name), value)
            if number in self.seen:
                raise _Refusal(DUPLICATE, value)
        except _Refusal as refusal:
            return Refused(row, refusal.value[:VALUE_SHOWN], refusal.reason)
        self.seen.add(number)
        return Contact(row, number, variables, zone, _disagreeing(number, zone))

    def _zone(self, cells: list[str]) -> str | None:
        if self.columns.timezone is None:
            return None
        value = _cell(cells, self.columns.timezone)
        if not value:
            return None
        zone = _zone_name(value)
        if zone is None:
            raise _Refusal(BAD_TIMEZONE, value)
        return zone


def _disagreeing(phone_e164: str, file_zone: str | None) -> tuple[str, ...]:
    """The zones the number rings in, when the file names another one; () when they agree or
    the number does not say (calling_hours.number_zones_of: what the legal rule reads)."""
    if file_zone is None:
        return ()
    own = tuple(z.key for z in number_zones_of(phone_e164))
    return own if own and file_zone not in own else ()


def _cell(cells: list[str], index: int) -> str:
    """A cell, stripped; "" where a short row leaves it out."""
    return cells[index].strip() if index < len(cells) else ""


def _e164(value: str, region: str, test_numbers: phone.TestNumbers | None) -> str:
    """`value` as a number we may call, in E.164: the number policy of every dial
    (kit.phone.refusal). Emergency numbers are caught on the text as written, before parsing:
    "911" is no national number, so it would read as merely bad."""
    if phone.emergency(value, region):
        raise _Refusal(EMERGENCY, value)
    try:
        number = phonenumbers.parse(value, None if value.startswith("+") else region)
    except phonenumbers.NumberParseException:
        raise _Refusal(BAD_NUMBER, value) from None
    reason = phone.refusal(number, test_numbers=test_numbers)
    if reason is not None:
        raise _Refusal(reason, value)
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)


@cache
def _zone_names() -> dict[str, str]:
    """Every IANA zone name by its lower-case spelling, so "america/new_york" is read as the
    zone it plainly means (a zone name's case matters to `zoneinfo` on Linux)."""
    return {name.lower(): name for name in available_timezones()}


def _zone_name(value: str) -> str | None:
    """The IANA name `value` spells, or None. A name the index lacks (a system whose zone
    data cannot be listed) is still taken when `zoneinfo` can load it."""
    known = _zone_names().get(value.lower())
    if known is not None:
        return known
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return value


class _Batch:
    """Rows read but not yet answered, in row order: contacts wait here for one `listed`
    call that covers them all."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.results: list[Result] = []
        self.numbers = 0

    def add(self, result: Result) -> bool:
        """Hold `result`; True when the batch is full and must be resolved."""
        self.results.append(result)
        if isinstance(result, Contact):
            self.numbers += 1
        return self.numbers >= self.size or len(self.results) >= MAX_ROWS_FACTOR * self.size

    async def resolve(self, listed: DoNotCallCheck) -> list[Result]:
        """The held rows, each listed contact refused; the batch starts over empty."""
        results, self.results, self.numbers = self.results, [], 0
        phones = [r.phone_e164 for r in results if isinstance(r, Contact)]
        on_list = await listed(phones) if phones else frozenset[str]()
        if not on_list:
            return results
        return [
            Refused(r.row, r.phone_e164, LISTED)
            if isinstance(r, Contact) and r.phone_e164 in on_list
            else r
            for r in results
        ]
