"""The one CSV writer of every export (campaign results, do-not-call lists, billing history).

A spreadsheet opening a CSV file runs a cell that starts with `=`, `+`, `-` or `@` as a
formula, and a tab or carriage return at the start lets one through in some of them (CSV
injection). Exports carry text that others wrote (contacts' variables, notes, the callee's own
words in extracted facts), so every cell that starts with one of those characters is written
with a single quote before it, OWASP's rule: the spreadsheet shows the text instead of running
it. A plain number (`-12.50`, `+15551230000`) is no formula and stays as it is."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

#: The first characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain decimal number, signed or not: harmless however it starts.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def neutralise(value: object) -> str:
    """The cell's text, prefixed with `'` when a spreadsheet would take it for a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and _PLAIN_NUMBER.fullmatch(text) is None:
        return "'" + text
    return text


class CsvExport:
    """Rows written to a buffer that `take` empties, so an export streams in chunks."""

    def __init__(self) -> None:
        self._out = io.StringIO()
        self._writer = csv.writer(self._out)

    def row(self, cells: Iterable[object]) -> None:
        self._writer.writerow([neutralise(cell) for cell in cells])

    def size(self) -> int:
        """Characters written since the last `take`."""
        return self._out.tell()

    def take(self) -> str:
        """What was written since the last `take`."""
        text = self._out.getvalue()
        self._out.seek(0)
        self._out.truncate()
        return text
