"""The fields a call's `analysis_schema` names, found offline: each is the most relevant callee
line (by the words it shares with the field's name and description, and with the agent's question
before it) that holds a value of the field's type."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from callwright.analysis.result import ExtractedField, Value
from callwright.models import Call, TranscriptEntry

FIELD_TYPES = ("string", "number", "boolean", "date")
_STOP = {
    "a", "an", "the", "of", "to", "for", "in", "on", "at", "is", "are", "was", "were", "be",
    "and", "or", "if", "it", "its", "this", "that", "their", "they", "them", "you", "your",
    "what", "which", "who", "whom", "how", "when", "does", "do", "did", "has", "have", "had",
    "with", "about", "from", "by", "as", "any", "there", "customer", "callee", "caller",
    "person", "user", "call", "agent", "whether", "would", "will", "can", "could", "should",
}  # fmt: skip


def plain_words(text: str) -> list[str]:
    """Lower-case words, with `_`, `-` and camelCase split."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z0-9']+", spaced.replace("_", " ").replace("-", " ").lower())


@dataclass(frozen=True)
class FieldSpec:
    """One field of a call's `analysis_schema`."""

    name: str
    type: str
    description: str = ""

    @property
    def keywords(self) -> set[str]:
        return keywords_of(f"{self.name} {self.description}")


def field_specs(schema: Sequence[Any] | None) -> list[FieldSpec]:
    """The well-formed fields of a stored schema (a field of unknown type is read as text)."""
    specs = []
    for item in schema or []:
        if isinstance(item, dict) and str(item.get("name") or "").strip():
            kind = str(item.get("type") or "string").lower()
            specs.append(
                FieldSpec(
                    str(item["name"]).strip(),
                    kind if kind in FIELD_TYPES else "string",
                    str(item.get("description") or ""),
                )
            )
    return specs


def stem_of(word: str) -> str:
    """A light stem, so that "confirmed", "confirms" and "confirm" meet."""
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def keywords_of(text: str) -> set[str]:
    return {stem_of(w) for w in plain_words(text) if w not in _STOP and len(w) > 1}


_SMALL_NUMBERS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
_NUMBER_WORDS = {w: n for n, w in enumerate(_SMALL_NUMBERS)} | {
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
}
_NUMBER = re.compile(
    r"(?<![\w:$])(\d+(?:,\d{3})*(?:\.\d+)?)(?!\s*(?:am|pm|a\.m|p\.m|o'clock)\b|:\d|\w)|\b("
    + "|".join(_NUMBER_WORDS)
    + r")\b(?!\s*(?:am|pm|o'clock)\b)",
    re.I,
)
_YES = re.compile(
    r"\b(yes|yeah|yep|yup|sure|correct|right|absolutely|definitely|of course|certainly|"
    r"that works|works for me|sounds good|i do|i am|i will|i have|please do)\b",
    re.I,
)
_NO = re.compile(
    r"^\W*(no|nope|nah)\b|\b(not|don't|do not|never|can't|cannot|won't|no thanks?)\b", re.I
)


def number_in(text: str) -> int | float | None:
    match = _NUMBER.search(text)
    if match is None:
        return None
    if match.group(1):
        number = float(match.group(1).replace(",", ""))
        return int(number) if number.is_integer() else number
    return _NUMBER_WORDS[match.group(2).lower()]


def yes_no_in(text: str) -> bool | None:
    if re.match(r"^\W*(no|nope|nah)\b", text, re.I):
        return False
    if _YES.search(text) and not re.search(r"\b(not|don't|do not)\b", text, re.I):
        return True
    if _NO.search(text):
        return False
    return None


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_TIME = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2}):(\d{2})\b|\bnoon\b", re.I
)
_MONTH_DAY = re.compile(
    r"\b("
    + "|".join(_MONTHS)
    + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b|\b(\d{1,2})(?:st|nd|rd|th)?\s+of\s+("
    + "|".join(_MONTHS)
    + r")\b",
    re.I,
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def date_in(text: str, today: date) -> str | None:
    """A date (and time) said in `text`, resolved from the call's day: ISO `YYYY-MM-DD`, with
    `THH:MM` when a time is said too; None when no day is said."""
    low = text.lower()
    day: date | None = None
    if m := _ISO_DATE.search(low):
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            day = None
    if day is None and (m := _MONTH_DAY.search(low)):
        month = _MONTHS.index((m.group(1) or m.group(4)).lower()) + 1
        number = int(m.group(2) or m.group(3))
        try:
            day = date(today.year, month, number)
            if day < today - timedelta(days=31):
                day = date(today.year + 1, month, number)
        except ValueError:
            day = None
    if day is None:
        if "day after tomorrow" in low:
            day = today + timedelta(days=2)
        elif "tomorrow" in low:
            day = today + timedelta(days=1)
        elif re.search(r"\b(today|tonight|this (morning|afternoon|evening))\b", low):
            day = today
        elif m := re.search(r"\b(next\s+)?(" + "|".join(_WEEKDAYS) + r")\b", low):
            ahead = (_WEEKDAYS.index(m.group(2)) - today.weekday()) % 7 or 7
            day = today + timedelta(days=ahead + (7 if m.group(1) and ahead < 7 else 0))
        elif re.search(r"\bnext week\b", low):
            day = today + timedelta(days=7)
    if day is None:
        return None
    time = time_in(low)
    return f"{day.isoformat()}T{time}" if time else day.isoformat()


def time_in(text: str) -> str | None:
    """A time of day said in `text` ("3 pm", "10:30", "noon"), as `HH:MM`; None when none is."""
    m = _TIME.search(text.lower())
    if m is None:
        return None
    if m.group(0) == "noon":
        hour, minute = 12, 0
    elif m.group(3):
        hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
        hour += 12 if m.group(3).startswith("p") else 0
    else:
        hour, minute = int(m.group(4)), int(m.group(5))
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


def value_in(kind: str, text: str, today: date) -> Value:
    if kind == "number":
        return number_in(text)
    if kind == "boolean":
        return yes_no_in(text)
    if kind == "date":
        return date_in(text, today)
    return text.strip() or None


def best_line_for(
    keywords: set[str], lines: Sequence[TranscriptEntry], holds: Any
) -> tuple[int, Any] | None:
    """The callee line (1-based number, value) most relevant to `keywords` among those for
    which `holds(text)` is not None: the words it shares with them, twice, plus those the
    agent's line before it shares (the question it answers); ties go to the later line."""
    best: tuple[int, int, Any] | None = None
    asked: set[str] = set()
    for n, entry in enumerate(lines, 1):
        words = keywords_of(entry.text)
        if entry.speaker != "user":
            asked = words
            continue
        value = holds(entry.text)
        if value is None:
            continue
        score = 2 * len(keywords & words) + len(keywords & asked)
        if score > 0 and (best is None or score >= best[0]):
            best = (score, n, value)
    return (best[1], best[2]) if best else None


def extract_offline(
    spec: FieldSpec, lines: Sequence[TranscriptEntry], today: date
) -> ExtractedField:
    found = best_line_for(spec.keywords, lines, lambda text: value_in(spec.type, text, today))
    return ExtractedField(found[1], found[0]) if found else ExtractedField(None)


def call_day(call: Call) -> date:
    """The day the call took place (what "tomorrow" is counted from)."""
    at = call.answered_at or call.queued_at or call.created_at
    return at.date() if at else date.today()


def typed(kind: str, value: Any) -> Value:
    """`value` as a field of type `kind`, or None when it is not one (an LLM's answer)."""
    if value is None:
        return None
    if kind == "number":
        if isinstance(value, bool):
            return None
        if isinstance(value, int | float):
            return value
        try:
            number = float(str(value).replace(",", "").strip())
        except ValueError:
            return None
        return int(number) if number.is_integer() else number
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        return True if text in ("yes", "true") else False if text in ("no", "false") else None
    if kind == "date":
        text = str(value).strip()
        try:
            (datetime if "T" in text or " " in text else date).fromisoformat(text)
        except ValueError:
            return None
        return text
    if isinstance(value, dict | list):
        return None
    text = str(value).strip()
    return text or None
