"""`{{variable}}` placeholders in a prompt (and first sentence, voicemail message), filled per
call. A placeholder with no value is an error before the call is placed, never spoken."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: `{{ name }}`: a letter or underscore, then letters, digits, underscores, dots or dashes.
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]{0,63})\s*\}\}")


def placeholders(*texts: str | None) -> list[str]:
    """The distinct names used in `texts`, in first-use order."""
    seen: dict[str, None] = {}
    for text in texts:
        for match in PLACEHOLDER.finditer(text or ""):
            seen.setdefault(match.group(1), None)
    return list(seen)


def missing(variables: Mapping[str, Any], *texts: str | None) -> list[str]:
    """The placeholders in `texts` that `variables` gives no (non-empty) value."""
    return [
        name
        for name in placeholders(*texts)
        if name not in variables or _text(variables[name]) == ""
    ]


def fill(text: str | None, variables: Mapping[str, Any]) -> str | None:
    """`text` with each placeholder replaced by its value (call `missing` first: an unknown
    placeholder is left as written)."""
    if text is None:
        return None

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return _text(variables[name]) if name in variables else match.group(0)

    return PLACEHOLDER.sub(value, text)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).strip()


def missing_message(names: list[str]) -> str:
    listed = ", ".join(f"{{{{{name}}}}}" for name in names)
    return f"No value was given for {listed}: add it to the call's variables."
