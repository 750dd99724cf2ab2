"""A campaign's contacts from a CSV upload: each row becomes a contact (its number in E.164, its
variables, its zone) or is refused with the reason its owner can act on; the file is read as a
stream and answered a batch at a time, in row order, with one do-not-call question per batch;
a file that cannot be contacts at all is refused whole."""

from __future__ import annotations

import io
import math
from collections.abc import Collection

import pytest

from callwright.campaigns.contacts import (
    BAD_NUMBER,
    BAD_TIMEZONE,
    DUPLICATE,
    EMERGENCY,
    EMPTY_FILE,
    LISTED,
    MISSING_VARIABLE,
    NO_PHONE_COLUMN,
    NOT_UTF8,
    PREMIUM,
    REFUSED_SHOWN,
    Contact,
    ContactsFileError,
    ImportReport,
    Refused,
    Result,
    read_contacts,
    variable_name,
    zones_for,
)

SAN_FRANCISCO = "+14155552671"
NEW_YORK = "+12125550123"
LOS_ANGELES = "+12135550100"
LONDON = "+442079460958"
US_PREMIUM = "+19004441234"


class Lists:
    """A do-not-call list that remembers every question it was asked."""

    def __init__(self, *listed: str) -> None:
        self.listed = set(listed)
        self.asked: list[list[str]] = []

    async def __call__(self, phones: list[str]) -> set[str]:
        self.asked.append(list(phones))
        return self.listed & set(phones)


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def numbers(count: int) -> list[str]:
    """`count` distinct valid San Francisco numbers."""
    return [f"+1415{2000000 + i:07d}" for i in range(count)]


async def batches(
    data: bytes | io.BytesIO,
    lists: Lists | None = None,
    *,
    region: str = "US",
    required: Collection[str] = (),
    batch: int = 500,
) -> list[list[Result]]:
    raw = data if isinstance(data, io.BytesIO) else io.BytesIO(data)
    return [
        b
        async for b in read_contacts(
            raw,
            default_region=region,
            listed=lists or Lists(),
            required=required,
            batch=batch,
        )
    ]


async def results(
    data: bytes,
    lists: Lists | None = None,
    *,
    region: str = "US",
    required: Collection[str] = (),
) -> list[Result]:
    got = await batches(data, lists, region=region, required=required)
    return [r for b in got for r in b]


async def test_every_row_is_a_contact_or_refused_with_its_reason() -> None:
    data = csv_bytes(
        "Name,Phone,Timezone,Appointment Time",
        f"Ann,{SAN_FRANCISCO},,3 pm",
        "Bob,911,,3 pm",
        "Cy,not a number,,3 pm",
        "Di,+15551230000,,3 pm",  # no number any US area code has
        f"Ed,{US_PREMIUM},,3 pm",
        f"Fay,{NEW_YORK},Mars/Olympus,3 pm",
        f"Gus,{LOS_ANGELES},,",
        f"Hal,{SAN_FRANCISCO},,4 pm",
        f"Ivy,{LONDON},,5 pm",
        f"Jo,{NEW_YORK},America/Chicago,6 pm",
    )
    lists = Lists(LONDON)
    got = await results(data, lists, required={"name", "appointment_time"})
    assert got == [
        Contact(2, SAN_FRANCISCO, {"name": "Ann", "appointment_time": "3 pm"}, None),
        Refused(3, "911", EMERGENCY),
        Refused(4, "not a number", BAD_NUMBER),
        Refused(5, "+15551230000", BAD_NUMBER),
        Refused(6, US_PREMIUM, PREMIUM),
        Refused(7, "Mars/Olympus", BAD_TIMEZONE),
        Refused(8, LOS_ANGELES, MISSING_VARIABLE.format(name="appointment_time")),
        Refused(9, SAN_FRANCISCO, DUPLICATE),
        Refused(10, LONDON, LISTED),
        Contact(
            11,
            NEW_YORK,
            {"name": "Jo", "appointment_time": "6 pm"},
            "America/Chicago",
            ("America/New_York",),  # the zone the legal calling hours use
        ),
    ]
    # One question for the batch, each number asked once (duplicates never reach the lists).
    assert lists.asked == [[SAN_FRANCISCO, LONDON, NEW_YORK]]


def test_the_reasons_are_the_words_the_owner_reads() -> None:
    assert BAD_NUMBER == "Not a valid phone number."
    assert DUPLICATE == "Duplicate of an earlier row."
    assert LISTED == "On the do-not-call list."
    assert EMERGENCY == "An emergency number."
    assert PREMIUM == "A premium-rate number."
    assert MISSING_VARIABLE.format(name="time") == (
        'The "time" column is empty and the agent needs it.'
    )
    assert BAD_TIMEZONE == "Not a known time zone (use a name like America/New_York)."


@pytest.mark.parametrize(
    ("region", "written", "e164"),
    [
        ("US", "(415) 555-2671", SAN_FRANCISCO),
        ("US", "415.555.2671", SAN_FRANCISCO),
        ("US", "1 415 555 2671", SAN_FRANCISCO),
        ("US", "+44 20 7946 0958", LONDON),
        ("US", "011 44 20 7946 0958", LONDON),
        ("GB", "020 7946 0958", LONDON),
        ("GB", "0044 20 7946 0958", LONDON),
        ("GB", "07911 123456", "+447911123456"),
        ("GB", "+1 (415) 555-2671", SAN_FRANCISCO),
        ("gb", "020 7946 0958", LONDON),
    ],
)
async def test_numbers_are_read_in_the_default_region_and_kept_in_e164(
    region: str, written: str, e164: str
) -> None:
    got = await results(csv_bytes("phone", f'"{written}"'), region=region)
    assert got == [Contact(2, e164, {}, None)]


@pytest.mark.parametrize(
    ("region", "written", "reason"),
    [
        ("US", "911", EMERGENCY),
        ("US", "9-1-1", EMERGENCY),
        ("US", "112", EMERGENCY),
        ("GB", "999", EMERGENCY),
        ("GB", "112", EMERGENCY),
        ("GB", "(415) 555-2671", BAD_NUMBER),  # a US number written as a US local one
        ("US", "020 7946 0958", BAD_NUMBER),
        ("GB", "0906 123 4567", PREMIUM),
        ("US", "1-900-444-1234", PREMIUM),
    ],
)
async def test_what_a_number_means_depends_on_the_region(
    region: str, written: str, reason: str
) -> None:
    got = await results(csv_bytes("phone", written), region=region)
    assert got == [Refused(2, written, reason)]


async def test_an_unknown_default_region_is_the_callers_mistake() -> None:
    with pytest.raises(ValueError, match="not a region") as caught:
        await results(csv_bytes("phone", SAN_FRANCISCO), region="XX")
    assert not isinstance(caught.value, ContactsFileError)


async def test_a_bom_is_not_part_of_the_first_header() -> None:
    data = "\ufeffphone,name\n(415) 555-2671,Ann\n".encode()
    assert await results(data) == [Contact(2, SAN_FRANCISCO, {"name": "Ann"}, None)]
    named_first = "\ufeffFirst Name,Mobile\nAnn,(415) 555-2671\n".encode()
    assert await results(named_first) == [Contact(2, SAN_FRANCISCO, {"first_name": "Ann"}, None)]


async def test_columns_are_found_by_name_and_the_rest_become_variables() -> None:
    data = csv_bytes(
        "Order #,  Cell ,Phone,TZ,First Name,,Appt. Time (local),first_name,!!!",
        f"A-1,{SAN_FRANCISCO},{NEW_YORK},europe/london,Ann,ignored,9:30,shadowed,gone",
    )
    got = await results(data)
    assert got == [
        Contact(
            2,
            SAN_FRANCISCO,  # "Cell" comes first; "Phone" is then one more variable
            {
                "order": "A-1",
                "phone": NEW_YORK,
                "first_name": "Ann",
                "appt_time_local": "9:30",
            },
            "Europe/London",
            ("America/Los_Angeles",),
        )
    ]


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("First Name", "first_name"),
        ("  appointment-time ", "appointment_time"),
        ("__Doctor__", "doctor"),
        ("Prénom", "pr_nom"),
        ("a__b", "a__b"),
        ("###", ""),
        ("", ""),
    ],
)
def test_a_header_names_its_variable(header: str, name: str) -> None:
    assert variable_name(header) == name


@pytest.mark.parametrize(
    "header",
    ["phone", "Phone Number", "phone_number", "PHONE-NUMBER", "number", "tel", "Telephone"],
)
async def test_the_phone_column_has_several_names(header: str) -> None:
    assert await results(csv_bytes(f"name,{header}", f"Ann,{LONDON}")) == [
        Contact(2, LONDON, {"name": "Ann"}, None)
    ]


async def test_a_file_without_a_phone_column_is_refused() -> None:
    headerless = csv_bytes(f"{SAN_FRANCISCO},Ann", f"{NEW_YORK},Bob")
    with pytest.raises(ContactsFileError) as caught:
        await results(headerless)
    assert str(caught.value) == NO_PHONE_COLUMN
    assert NO_PHONE_COLUMN == (
        'The file needs a phone number column (a header named "phone" or "phone_number").'
    )
    with pytest.raises(ContactsFileError, match="phone number column"):
        await results(csv_bytes("name,email", "Ann,ann@example.com"))


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\n\n  \n", b",,\n, ,\n"])
async def test_an_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(ContactsFileError) as caught:
        await results(data)
    assert str(caught.value) == EMPTY_FILE == "The file is empty."


async def test_a_file_that_is_not_utf8_is_refused() -> None:
    latin1 = "phone,name\n+14155552671,José\n".encode("latin-1")
    with pytest.raises(ContactsFileError) as caught:
        await results(latin1)
    assert str(caught.value) == NOT_UTF8 == "The file must be UTF-8 text (CSV)."
    with pytest.raises(ContactsFileError, match="UTF-8"):
        await results("phone\n".encode("utf-16"))


async def test_bad_bytes_midway_stop_the_import_where_they_are() -> None:
    phones = numbers(12_000)
    lines = ["phone", *phones[:6000], "Jos\xe9", *phones[6000:]]
    data = "\n".join(lines).encode("latin-1")
    seen: list[list[Result]] = []

    async def read() -> None:
        async for batch in read_contacts(
            io.BytesIO(data), default_region="US", listed=Lists(), batch=500
        ):
            seen.append(batch)

    with pytest.raises(ContactsFileError, match="UTF-8"):
        await read()
    # The rows before were answered (the file is decoded a chunk at a time), none after.
    assert 8 <= len(seen) <= 12
    assert all(len(b) == 500 for b in seen)


async def test_blank_rows_are_skipped_and_rows_keep_their_numbers() -> None:
    data = csv_bytes(
        "phone,note",
        "",
        f"{SAN_FRANCISCO},first",
        " , ",
        '"",""',
        f'{NEW_YORK},"two',
        'lines"',
        f"{LONDON},last",
    )
    assert await results(data) == [
        Contact(3, SAN_FRANCISCO, {"note": "first"}, None),
        Contact(6, NEW_YORK, {"note": "two\nlines"}, None),
        Contact(7, LONDON, {"note": "last"}, None),
    ]


async def test_short_rows_leave_cells_empty() -> None:
    data = csv_bytes("phone,name,time", f"{SAN_FRANCISCO},Ann", f"{NEW_YORK},Bob,9,extra")
    assert await results(data) == [
        Contact(2, SAN_FRANCISCO, {"name": "Ann", "time": ""}, None),
        Contact(3, NEW_YORK, {"name": "Bob", "time": "9"}, None),
    ]


async def test_the_first_missing_variable_is_the_leftmost_empty_column() -> None:
    data = csv_bytes(
        "phone,time,name",
        f"{SAN_FRANCISCO},,",
        f"{NEW_YORK},9,",
        f"{LONDON},9,Ann",
    )
    got = await results(data, required=["name", "time", "doctor"])
    assert got == [
        Refused(2, SAN_FRANCISCO, MISSING_VARIABLE.format(name="time")),
        Refused(3, NEW_YORK, MISSING_VARIABLE.format(name="name")),
        # A variable the file has no column for is missing from every row.
        Refused(4, LONDON, MISSING_VARIABLE.format(name="doctor")),
    ]


async def test_a_number_refused_for_its_row_is_taken_by_a_later_good_row() -> None:
    data = csv_bytes(
        "phone,name,timezone",
        f"{SAN_FRANCISCO},,",
        '"(415) 555-2671",Ann,Nowhere/Land',
        "415-555-2671,Ann,America/Los_Angeles",
        "+1 415 555 2671,Ann,",
    )
    assert await results(data, required={"name"}) == [
        Refused(2, SAN_FRANCISCO, MISSING_VARIABLE.format(name="name")),
        Refused(3, "Nowhere/Land", BAD_TIMEZONE),
        Contact(4, SAN_FRANCISCO, {"name": "Ann"}, "America/Los_Angeles"),
        Refused(5, "+1 415 555 2671", DUPLICATE),
    ]


async def test_a_long_cell_is_cut_in_the_refusal() -> None:
    got = await results(csv_bytes("phone", "x" * 500))
    assert got == [Refused(2, "x" * 40, BAD_NUMBER)]


@pytest.mark.parametrize(("count", "size"), [(1234, 100), (500, 500), (501, 500), (7, 3)])
async def test_the_lists_are_asked_once_per_batch(count: int, size: int) -> None:
    phones = numbers(count)
    lists = Lists(phones[0], phones[-1])
    got = await batches(csv_bytes("phone", *phones), lists, batch=size)
    assert len(lists.asked) == math.ceil(count / size)
    assert all(len(asked) <= size for asked in lists.asked)
    assert [p for asked in lists.asked for p in asked] == phones
    assert [len(b) for b in got] == [len(asked) for asked in lists.asked]
    flat = [r for b in got for r in b]
    assert [r.row for r in flat] == list(range(2, count + 2))
    assert flat[0] == Refused(2, phones[0], LISTED)
    assert flat[-1] == Refused(count + 1, phones[-1], LISTED)
    assert all(isinstance(r, Contact) for r in flat[1:-1])


async def test_refused_rows_are_answered_in_bounded_pieces_in_row_order() -> None:
    phones = numbers(300)
    lines = [line for phone in phones for line in (phone, "bad")]  # 600 rows, half refused
    lines += ["bad"] * 1000
    lists = Lists()
    got = await batches(csv_bytes("phone", *lines), lists, batch=100)
    assert all(len(b) <= 200 for b in got)
    assert all(len(asked) <= 100 for asked in lists.asked)
    assert [p for asked in lists.asked for p in asked] == phones
    flat = [r for b in got for r in b]
    assert [r.row for r in flat] == list(range(2, 1602))
    assert sum(isinstance(r, Contact) for r in flat) == 300


async def test_a_file_of_refused_rows_never_asks_the_lists() -> None:
    lists = Lists()
    got = await results(csv_bytes("phone", *["911"] * 50), lists)
    assert len(got) == 50
    assert lists.asked == []


class Tracked(io.BytesIO):
    """A file that remembers how far it has been read."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.furthest = 0

    def read1(self, size: int | None = -1, /) -> bytes:
        chunk = super().read1(size)
        self.furthest = max(self.furthest, self.tell())
        return chunk

    def read(self, size: int | None = -1, /) -> bytes:
        chunk = super().read(size)
        self.furthest = max(self.furthest, self.tell())
        return chunk


async def test_twenty_thousand_rows_stream_a_batch_at_a_time() -> None:
    phones = numbers(20_000)
    rows = [f"{phone},Person {i},{9 + i % 8}:00" for i, phone in enumerate(phones)]
    rows[100] = "555,Nobody,9:00"  # a bad number
    rows[200] = f"{phones[0]},Again,9:00"  # a duplicate
    raw = Tracked(csv_bytes("phone,name,appointment", *rows))
    size = len(raw.getvalue())
    lists = Lists(phones[300])
    report = ImportReport()
    read_at_first_batch: int | None = None
    count = 0
    async for batch in read_contacts(raw, default_region="US", listed=lists, batch=500):
        if read_at_first_batch is None:
            read_at_first_batch = raw.furthest
        count += 1
        assert sum(isinstance(r, Contact) for r in batch) <= 500
        report.add(batch)
    assert read_at_first_batch is not None
    assert 0 < read_at_first_batch < size / 10  # the first batch came while most was unread
    assert len(lists.asked) == count == math.ceil(19_998 / 500)
    assert (report.rows, report.accepted, report.refused_count) == (20_000, 19_997, 3)
    assert report.reasons == {BAD_NUMBER: 1, DUPLICATE: 1, LISTED: 1}
    assert [r.row for r in report.refused] == [102, 202, 302]
    assert not raw.closed  # the caller's file is the caller's to close


async def test_stopping_early_leaves_the_file_open() -> None:
    raw = io.BytesIO(csv_bytes("phone", *numbers(1000)))
    contacts = read_contacts(raw, default_region="US", listed=Lists(), batch=100)
    first = await anext(contacts)
    await contacts.aclose()
    assert len(first) == 100
    assert not raw.closed


async def test_the_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="batch"):
        await batches(csv_bytes("phone", SAN_FRANCISCO), batch=0)


def test_the_report_keeps_the_first_refused_rows_and_counts_them_all() -> None:
    report = ImportReport()
    report.add([Contact(2, SAN_FRANCISCO, {}, None)])
    report.add(Refused(row, "911", EMERGENCY) for row in range(3, 153))
    mixed: list[Result] = [Refused(153, "x", BAD_NUMBER), Contact(154, NEW_YORK, {}, None)]
    mixed += [Refused(row, "y", MISSING_VARIABLE.format(name="name")) for row in range(155, 160)]
    report.add(mixed)
    assert report.accepted == 2
    assert report.refused_count == 156
    assert report.rows == 158
    assert len(report.refused) == REFUSED_SHOWN == 100
    assert [r.row for r in report.refused] == list(range(3, 103))
    assert report.reasons == {
        EMERGENCY: 150,
        BAD_NUMBER: 1,
        MISSING_VARIABLE.format(name="name"): 5,
    }


def test_a_numbers_zones_come_from_its_area_code() -> None:
    assert zones_for(SAN_FRANCISCO) == ("America/Los_Angeles",)
    assert zones_for(NEW_YORK) == ("America/New_York",)
    assert zones_for(LONDON) == ("Europe/London",)
    assert "America/Chicago" in zones_for("+15005550001")  # non-geographic: all of NANP
    assert zones_for("+15551230000") == ()  # unassigned: Etc/Unknown
    assert zones_for("not a number") == ()


async def test_a_nul_in_any_cell_refuses_the_file() -> None:
    """Like a NUL in a JSON body (kit.nul_guard): no text we keep may hold one (issue 27)."""
    data = csv_bytes("phone,note", f"{SAN_FRANCISCO},fine", f"{NEW_YORK},bad\x00note")
    with pytest.raises(ContactsFileError, match=r"^Row 3 of the file contains a NUL character"):
        await results(data)
