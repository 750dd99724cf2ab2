"""A campaign's contacts import: rows per second and the memory it holds.

Run: .venv/bin/python benchmarks/contacts_import.py [rows] [batch]

Writes a CSV file of `rows` contacts (default 100,000) to a temporary file: phone, name and
appointment columns, distinct valid US numbers written three ways (E.164, "(415) 200-0001",
"415.200.0001"), and one bad row in a thousand (a bad number, a duplicate, an emergency number,
an empty name). Reads it with `campaigns.contacts.read_contacts` (the name and appointment
required, `batch` numbers per do-not-call question, default 500) against a list that holds
nothing, folding every batch into an `ImportReport` as a caller would.

Runs the import twice: once for time (rows, seconds, rows/s, and how far the process's peak
RSS grew), once under tracemalloc for the peak of Python allocations (tracing slows it, so
that run is not timed). The file is never read whole, so both should stay flat in `rows`
except for the set of numbers seen (about 80 bytes a number).
"""

from __future__ import annotations

import asyncio
import csv
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import phonenumbers

from callwright.campaigns.contacts import ImportReport, read_contacts

AREAS = (415, 212, 213, 312, 617, 206, 305, 404, 512, 303)
#: Every this many rows, one is bad (in turn: bad number, duplicate, emergency, no name).
BAD_EVERY = 1000


def _phone(n: int) -> str:
    """The n-th distinct valid US number, written one of three ways."""
    area = AREAS[n % len(AREAS)]
    local = 2_000_000 + n // len(AREAS)
    exchange, line = divmod(local, 10_000)
    return (
        f"+1{area}{local:07d}",
        f"({area}) {exchange}-{line:04d}",
        f"{area}.{exchange}.{line:04d}",
    )[n % 3]


def _row(n: int) -> list[str]:
    name, appointment = f"Person {n}", f"{9 + n % 8}:00 on day {n % 28 + 1}"
    if n % BAD_EVERY != BAD_EVERY - 1:
        return [_phone(n), name, appointment]
    kind = (n // BAD_EVERY) % 4
    if kind == 0:
        return ["555-01", name, appointment]
    if kind == 1:
        return [_phone(n - 1), name, appointment]
    if kind == 2:
        return ["911", name, appointment]
    return [_phone(n), "", appointment]


def write_file(path: Path, rows: int) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Phone Number", "Name", "Appointment"])
        writer.writerows(_row(n) for n in range(rows))


async def _nobody(phones: list[str]) -> set[str]:
    """A do-not-call list that holds none of them."""
    return set()


async def import_file(path: Path, batch: int) -> ImportReport:
    report = ImportReport()
    with path.open("rb") as raw:
        async for results in read_contacts(
            raw,
            default_region="US",
            listed=_nobody,
            required={"name", "appointment"},
            batch=batch,
        ):
            report.add(results)
    return report


def _warm_up() -> None:
    """Load the metadata `phonenumbers` reads lazily, so it is not counted as the import's."""
    number = phonenumbers.parse("(415) 200-0001", "US")
    phonenumbers.is_valid_number(number)
    phonenumbers.number_type(number)
    phonenumbers.is_emergency_number("911", "US")


def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(rows: int, batch: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "contacts.csv"
        write_file(path, rows)
        print(f"file: {rows} rows, {path.stat().st_size / 2**20:.1f} MiB, batch {batch}")
        _warm_up()
        rss_before = _maxrss_mib()
        started = time.perf_counter()
        report = asyncio.run(import_file(path, batch))
        elapsed = time.perf_counter() - started
        rss_growth = _maxrss_mib() - rss_before

        tracemalloc.start()
        asyncio.run(import_file(path, batch))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

    assert report.rows == rows, f"{report.rows} of {rows} rows answered"
    print(f"rows: {report.rows} ({report.accepted} accepted, {report.refused_count} refused)")
    for reason, count in sorted(report.reasons.items()):
        print(f"  {count:>5}  {reason}")
    print(f"import: {elapsed:.2f} s = {rows / elapsed:,.0f} rows/s")
    print(f"memory: tracemalloc peak {peak / 2**20:.1f} MiB, maxrss grew {rss_growth:.1f} MiB")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 100_000,
        int(sys.argv[2]) if len(sys.argv) > 2 else 500,
    )
