"""Post-call analysis: summary, outcome, sentiment and key facts, each fact with the transcript
lines it comes from; and, with the call's own settings, a disposition chosen from its
`dispositions` and the fields its `analysis_schema` names, each with the line it comes from.
`answer_questions` answers the /v1 API's ad-hoc questions about a call the same two ways.

With an LLM endpoint configured (LLM_BASE_URL) the transcript goes to it with a JSON-only
instruction; otherwise, or when the endpoint fails or answers badly, a transparent offline method
runs: keyword rules for the outcome, a small word list for sentiment, and the callee's lines that
carry a time, a date, a number or an answer as key facts; the disposition is the outcome mapped
onto the given list by its words (and when the call has dispositions, the analysis's outcome is
always one of them: `disposition_for`), and each field is the most relevant callee line (by the words
it shares with the field's name and description, and with the agent's question before it) that
holds a value of the field's type. The result says which method made it."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import httpx

from callwright.config import Settings
from callwright.models import Call, TranscriptEntry

log = logging.getLogger(__name__)

OUTCOMES = (
    "interested",
    "not interested",
    "callback requested",
    "voicemail",
    "wrong number",
    "no answer",
    "no conversation",
    "undetermined",
)
SENTIMENTS = ("positive", "neutral", "negative")

# Checked in this order on the callee's words; the first rule that matches decides.
_OUTCOME_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "wrong number",
        re.compile(r"\bwrong number\b|\bno one (here )?by that name\b|\bnobody by that name\b"),
    ),
    (
        "callback requested",
        re.compile(
            r"\bcall (me )?back\b|\bcall (me )?(later|tomorrow|next week)\b|\banother time\b|\bnot a good time\b|\bbusy right now\b"
        ),
    ),
    (
        "not interested",
        re.compile(
            r"\bnot interested\b|\bno,? thanks?\b|\bno thank you\b|\bdon'?t call\b|\bremove me\b|\bstop calling\b|\bno need\b"
        ),
    ),
    (
        "interested",
        re.compile(
            r"\byes\b|\byeah\b|\bsure\b|\bsounds (good|great)\b|\binterested\b|\bworks for me\b|\bbook\b|\bof course\b|\bperfect\b|\bthat works\b|\bokay\b"
        ),
    ),
]
_POSITIVE = {
    "yes",
    "yeah",
    "sure",
    "great",
    "good",
    "perfect",
    "thanks",
    "thank",
    "love",
    "happy",
    "interested",
    "wonderful",
    "fine",
    "okay",
    "excellent",
    "glad",
}
_NEGATIVE = {
    "no",
    "not",
    "never",
    "bad",
    "angry",
    "annoyed",
    "stop",
    "don't",
    "wrong",
    "busy",
    "terrible",
    "unhappy",
    "problem",
    "cancel",
}
_FACT = re.compile(
    r"\b(\d[\d:.,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|"
    r"morning|afternoon|evening|week|month|am|pm|o'clock|"
    r"yes|no|email|address|phone|number|name)\b"
)


@dataclass
class KeyFact:
    fact: str
    lines: list[int]


#: A field's value: text, a number, yes/no, or a date (ISO 8601 text); None when not found.
Value = str | int | float | bool | None


@dataclass
class ExtractedField:
    value: Value
    #: The 1-based transcript line the value comes from (None: not found, or not said).
    line: int | None = None


@dataclass
class Analysis:
    summary: str
    outcome: str
    sentiment: str
    key_facts: list[KeyFact] = field(default_factory=list)
    method: str = "offline"
    #: One of the call's `dispositions` (None: the call gave none, or none fits).
    disposition_tag: str | None = None
    #: The call's `analysis_schema` fields by name.
    fields: dict[str, ExtractedField] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def values(self) -> dict[str, Value]:
        """The extracted fields as name -> value (Bland's `analysis`)."""
        return {name: f.value for name, f in self.fields.items()}

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        """Also reads analyses stored before dispositions and fields existed."""
        data = json.loads(text)
        facts = [KeyFact(str(f["fact"]), [int(n) for n in f["lines"]]) for f in data["key_facts"]]
        fields = {
            str(name): ExtractedField(f.get("value"), f.get("line"))
            for name, f in (data.get("fields") or {}).items()
            if isinstance(f, dict)
        }
        return cls(
            data["summary"],
            data["outcome"],
            data["sentiment"],
            facts,
            data["method"],
            data.get("disposition_tag"),
            fields,
        )


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def _mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _ended(call: Call) -> str:
    """How the call ended, for the summary: its outcome, else its status."""
    return f"ended: {call.end_reason}" if call.end_reason else f"status {call.status}"


def analyze_offline(call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    """Line numbers are 1-based positions in the transcript."""
    numbered = list(enumerate(lines, 1))
    callee = [(n, e) for n, e in numbered if e.speaker == "user"]
    callee_text = " ".join(e.text for _, e in callee).lower()
    if call.end_reason == "voicemail":
        outcome = "voicemail"
    elif call.answered_at is None:
        outcome = "no answer"
    elif not callee:
        outcome = "no conversation"
    else:
        outcome = next(
            (o for o, rule in _OUTCOME_RULES if rule.search(callee_text)), "undetermined"
        )
    words = _words(callee_text)
    score = sum(w in _POSITIVE for w in words) - sum(w in _NEGATIVE for w in words)
    if outcome in ("not interested", "wrong number"):
        score = min(score, -1)
    sentiment = "positive" if score > 0 else "negative" if score < 0 else "neutral"
    facts = [KeyFact(e.text.strip(), [n]) for n, e in callee if _FACT.search(e.text.lower())][:5]
    purpose = re.split(r"(?<=[.!?])\s", call.prompt.strip(), maxsplit=1)[0].rstrip(".")
    duration = call.duration_seconds or 0
    tag = disposition_for(outcome, call.end_reason, call.dispositions or [])
    summary = (
        f"Call to {call.to_number} ({_mmss(duration)}, {_ended(call)}). "
        f"Agent's brief: {purpose}. "
        f"{len(callee)} callee line(s), {len(lines) - len(callee)} agent line(s). "
        f"Outcome: {tag or outcome}; the callee's tone was {sentiment}."
    )
    return Analysis(
        summary,
        tag or outcome,
        sentiment,
        facts,
        "offline",
        tag,
        {
            spec.name: extract_offline(spec, lines, call_day(call))
            for spec in field_specs(call.analysis_schema)
        },
    )


# --- dispositions ------------------------------------------------------------------------

#: For each outcome (and end reason), the dispositions that say it, best first, as words.
_DISPOSITION_WORDS: dict[str, tuple[str, ...]] = {
    "interested": (
        "interested",
        "completed action",
        "appointment booked",
        "booked",
        "scheduled",
        "confirmed",
        "qualified",
        "success",
        "sale",
        "yes",
    ),
    "not interested": (
        "not interested",
        "do not contact",
        "declined",
        "rejected",
        "objection raised",
        "not qualified",
        "no",
    ),
    "callback requested": (
        "call back scheduled",
        "callback scheduled",
        "call back",
        "callback",
        "follow up required",
        "follow up",
        "reschedule",
    ),
    "voicemail": ("voicemail", "left voicemail", "left message", "no contact made", "no answer"),
    "wrong number": ("wrong number", "invalid number", "no contact made", "do not contact"),
    "no answer": ("no answer", "no contact made", "unreachable", "busy", "failed"),
    "no conversation": ("no contact made", "no conversation", "no answer", "agent ended call"),
    "undetermined": ("needs more info", "follow up required", "follow up", "unknown", "other"),
    # How a call that never connected ended (its end reason), before its outcome.
    "busy": ("busy", "no contact made", "no answer"),
    "failed": ("failed", "error", "no contact made"),
    "no-answer": ("no answer", "no contact made"),
    "stopped": ("canceled", "cancelled", "stopped", "agent ended call"),
}
_NEGATION = {"not", "no", "non", "never", "dont", "don't", "do not"}


def _plain_words(text: str) -> list[str]:
    """Lower-case words, with `_`, `-` and camelCase split."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z0-9']+", spaced.replace("_", " ").replace("-", " ").lower())


def _negated(words: Sequence[str]) -> bool:
    return any(w in _NEGATION for w in words) or "do not" in " ".join(words)


def choose_disposition(
    outcome: str, end_reason: str | None, dispositions: Sequence[str]
) -> str | None:
    """The disposition from `dispositions` closest to the outcome: one that says it (in the
    order of _DISPOSITION_WORDS), else one sharing the most words with it (a negated one only
    for a negative outcome); None when none is close."""
    if not dispositions:
        return None
    given = [(d, _plain_words(d)) for d in dispositions]
    keys = [k for k in (end_reason, outcome) if k and k in _DISPOSITION_WORDS]
    wanted = [phrase.split() for k in keys for phrase in _DISPOSITION_WORDS[k]]
    for phrase in wanted:  # said exactly
        for name, words in given:
            if words == phrase:
                return name
    for phrase in wanted:  # said within a longer name, with the same polarity
        for name, words in given:
            if _negated(words) == _negated(phrase) and _contains(words, phrase):
                return name
    target = set(outcome.split()) | {w for p in wanted for w in p}
    scored = [
        (len(target & set(words)), -i, name)
        for i, (name, words) in enumerate(given)
        if _negated(words) == _negated(outcome.split())
    ]
    best = max(scored, default=(0, 0, ""))
    return best[2] if best[0] > 0 else None


#: Dispositions that say "none of the others", for a call no disposition describes.
_CATCH_ALL = ("other", "unknown", "undetermined", "needs more info", "no contact made")
#: Outcomes that went nowhere: with no disposition that says them, a negative one fits best.
_NEGATIVE_OUTCOMES = {"not interested", "wrong number", "no answer", "no conversation", "voicemail"}


def disposition_for(
    outcome: str, end_reason: str | None, dispositions: Sequence[str]
) -> str | None:
    """The analysis's outcome in the agent's own terms: always one of its `dispositions` when
    it has any (None only without them). The closest one (`choose_disposition`); else one that
    says "other" or "unknown"; else, for a call that went nowhere, a negative one (NOT_...);
    else the first listed."""
    if not dispositions:
        return None
    chosen = choose_disposition(outcome, end_reason, dispositions)
    if chosen is not None:
        return chosen
    given = [(d, _plain_words(d)) for d in dispositions]
    for phrase in _CATCH_ALL:
        for name, words in given:
            if _contains(words, phrase.split()):
                return name
    if outcome in _NEGATIVE_OUTCOMES or end_reason in ("busy", "failed", "no-answer", "stopped"):
        negative = next((name for name, words in given if _negated(words)), None)
        if negative is not None:
            return negative
    return dispositions[0]


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(list(words[i : i + n]) == list(phrase) for i in range(len(words) - n + 1))


# --- fields -----------------------------------------------------------------------------

FIELD_TYPES = ("string", "number", "boolean", "date")
_STOP = {
    "a", "an", "the", "of", "to", "for", "in", "on", "at", "is", "are", "was", "were", "be",
    "and", "or", "if", "it", "its", "this", "that", "their", "they", "them", "you", "your",
    "what", "which", "who", "whom", "how", "when", "does", "do", "did", "has", "have", "had",
    "with", "about", "from", "by", "as", "any", "there", "customer", "callee", "caller",
    "person", "user", "call", "agent", "whether", "would", "will", "can", "could", "should",
}  # fmt: skip


@dataclass(frozen=True)
class FieldSpec:
    """One field of a call's `analysis_schema`."""

    name: str
    type: str
    description: str = ""

    @property
    def keywords(self) -> set[str]:
        return _keywords(f"{self.name} {self.description}")


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


def _stem(word: str) -> str:
    """A light stem, so that "confirmed", "confirms" and "confirm" meet."""
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _keywords(text: str) -> set[str]:
    return {_stem(w) for w in _plain_words(text) if w not in _STOP and len(w) > 1}


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
    if m := _TIME.search(low):
        if m.group(0) == "noon":
            hour, minute = 12, 0
        elif m.group(3):
            hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
            hour += 12 if m.group(3).startswith("p") else 0
        else:
            hour, minute = int(m.group(4)), int(m.group(5))
        if hour < 24 and minute < 60:
            return f"{day.isoformat()}T{hour:02d}:{minute:02d}"
    return day.isoformat()


def _value_in(kind: str, text: str, today: date) -> Value:
    if kind == "number":
        return number_in(text)
    if kind == "boolean":
        return yes_no_in(text)
    if kind == "date":
        return date_in(text, today)
    return text.strip() or None


def _best_line(
    keywords: set[str], lines: Sequence[TranscriptEntry], holds: Any
) -> tuple[int, Any] | None:
    """The callee line (1-based number, value) most relevant to `keywords` among those for
    which `holds(text)` is not None: the words it shares with them, twice, plus those the
    agent's line before it shares (the question it answers); ties go to the later line."""
    best: tuple[int, int, Any] | None = None
    asked: set[str] = set()
    for n, entry in enumerate(lines, 1):
        words = _keywords(entry.text)
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
    found = _best_line(spec.keywords, lines, lambda text: _value_in(spec.type, text, today))
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


# --- the LLM path -------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalysisLLM:
    """An OpenAI-compatible chat-completions endpoint (the agent's own, LLM_BASE_URL)."""

    base_url: str
    api_key: str
    model: str
    transport: httpx.AsyncBaseTransport | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> AnalysisLLM | None:
        if not settings.llm_base_url:
            return None
        return cls(settings.llm_base_url, settings.llm_api_key, settings.llm_model)

    async def complete(self, system: str, user: str) -> str:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with httpx.AsyncClient(timeout=30, transport=self.transport) as client:
            response = await client.post(
                f"{self.base_url.rstrip('/')}/chat/completions", json=body, headers=headers
            )
            response.raise_for_status()
        return str(response.json()["choices"][0]["message"]["content"])


_INSTRUCTION = (
    "You analyse a phone call between an AI agent and a callee. Answer with one JSON object and "
    'nothing else: {"summary": string (2 or 3 sentences), "outcome": one of '
    + ", ".join(f'"{o}"' for o in OUTCOMES)
    + ', "sentiment": one of "positive", "neutral", "negative" (the callee\'s), '
    '"key_facts": [{"fact": string, "lines": [line numbers the fact comes from]}]'
)
_TYPE_WORDS = {
    "string": "a string",
    "number": "a number",
    "boolean": "true or false",
    "date": 'an ISO 8601 date ("YYYY-MM-DD", or "YYYY-MM-DDTHH:MM" with a time)',
}


def _instruction(call: Call) -> str:
    """The JSON the LLM must answer, with the call's own analysis settings."""
    text = _INSTRUCTION
    if call.dispositions:
        text += ', "disposition_tag": the one of ' + json.dumps(call.dispositions)
        text += " that best describes how the call went"
    specs = field_specs(call.analysis_schema)
    if specs:
        text += (
            ', "fields": {"<field name>": {"value": the value or null when the call does not '
            'say it, "line": the line number it comes from}} for each of these fields: '
        )
        text += "; ".join(
            f'"{s.name}" ({_TYPE_WORDS[s.type]}){": " + s.description if s.description else ""}'
            for s in specs
        )
    text += "}."
    if call.summary_prompt:
        text += f"\nFor the summary, follow these instructions: {call.summary_prompt}"
    return text


def _numbered(lines: Sequence[TranscriptEntry]) -> str:
    return "\n".join(
        f"{n}. {'Agent' if e.speaker == 'assistant' else 'Callee'}: {e.text}"
        for n, e in enumerate(lines, 1)
    )


async def analyze_with_llm(
    call: Call,
    lines: Sequence[TranscriptEntry],
    *,
    base_url: str,
    api_key: str,
    model: str,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Analysis:
    return await _analyze_by(AnalysisLLM(base_url, api_key, model, transport), call, lines)


async def _analyze_by(llm: AnalysisLLM, call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    content = await llm.complete(
        _instruction(call),
        f"The agent's brief: {call.prompt}\nCall status: {_ended(call)}\n\n{_numbered(lines)}",
    )
    return _parse_llm(content, call, lines)


def _json_object(content: str) -> dict[str, Any]:
    match = re.search(r"\{.*\}", content, re.S)
    if match is None:
        raise ValueError("the LLM answered without a JSON object")
    data = json.loads(match.group(0))
    if not isinstance(data, dict):
        raise ValueError("the LLM answered without a JSON object")
    return data


def _parse_llm(content: str, call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    n_lines = len(lines)
    data = _json_object(content)
    outcome = str(data.get("outcome", "")).lower()
    sentiment = str(data.get("sentiment", "")).lower()
    if outcome not in OUTCOMES:
        outcome = "undetermined"
    if sentiment not in SENTIMENTS:
        sentiment = "neutral"
    facts = []
    for item in data.get("key_facts") or []:
        if isinstance(item, dict) and item.get("fact"):
            cited = [int(n) for n in item.get("lines") or [] if str(n).isdigit()]
            facts.append(KeyFact(str(item["fact"]), [n for n in cited if 1 <= n <= n_lines]))
    dispositions = call.dispositions or []
    said = str(data.get("disposition_tag") or "").strip().lower()
    disposition = next((d for d in dispositions if d.lower() == said), None)
    if disposition is None:  # not one of the list: the outcome mapped onto it
        disposition = disposition_for(outcome, call.end_reason, dispositions)
    answered = data.get("fields")
    given: dict[str, Any] = answered if isinstance(answered, dict) else {}
    fields = {}
    for spec in field_specs(call.analysis_schema):
        item = given.get(spec.name)
        raw, line = (
            (item.get("value"), item.get("line")) if isinstance(item, dict) else (item, None)
        )
        value = typed(spec.type, raw)
        number = int(line) if isinstance(line, int | str) and str(line).isdigit() else 0
        fields[spec.name] = ExtractedField(
            value, number if value is not None and 1 <= number <= n_lines else None
        )
    summary = str(data.get("summary", "")).strip()
    return Analysis(summary, disposition or outcome, sentiment, facts, "llm", disposition, fields)


async def analyze(
    call: Call, lines: Sequence[TranscriptEntry], llm: AnalysisLLM | None
) -> Analysis:
    """The call's analysis with its own settings: by the LLM when one is configured, else (or
    when it fails or answers badly) offline."""
    if llm is not None:
        try:
            return await _analyze_by(llm, call, lines)
        except Exception as exc:
            log.warning("LLM analysis of %s failed, using the offline method: %s", call.id, exc)
    return analyze_offline(call, lines)


# --- ad-hoc questions (POST /v1/calls/{id}/analyze) ---------------------------------------


def enum_options(kind: str) -> list[str]:
    """A custom answer type's options ("human or voicemail" -> human, voicemail); [] for the
    plain types."""
    if kind.strip().lower() in (*FIELD_TYPES, "bool", "int", "float", "text"):
        return []
    parts = re.split(r"\s+or\s+|\s*[,/|]\s*", kind.strip())
    return [p.strip().strip("\"'") for p in parts if p.strip().strip("\"'")]


def _plain_type(kind: str) -> str:
    low = kind.strip().lower()
    return {"bool": "boolean", "int": "number", "float": "number", "text": "string"}.get(low, low)


def _answer_offline(
    question: str,
    kind: str,
    lines: Sequence[TranscriptEntry],
    today: date,
    facts: Mapping[str, str | None],
) -> Any:
    options = enum_options(kind)
    keywords = _keywords(question)
    if options:
        known = {str(v).lower() for v in facts.values() if v}
        for option in options:
            if option.lower() in known:
                return option
        heard = " ".join(e.text for e in lines if e.speaker == "user")
        counts = [(len(_keywords(o) & _keywords(heard)), o) for o in options]
        best = max(counts, key=lambda c: c[0], default=(0, ""))
        return best[1] if best[0] > 0 else None
    plain = _plain_type(kind)
    found = _best_line(keywords, lines, lambda text: _value_in(plain, text, today))
    if found is None and plain == "boolean" and keywords & _PICKED_UP and "answered_by" in facts:
        # "Did they pick up / answer?": a person did, or not (voicemail, nobody).
        return facts["answered_by"] == "human"
    if found is None and plain == "boolean" and keywords & _AGREEMENT:
        # "Did they confirm / agree / book?" with no line on it: the call's outcome says.
        heard = " ".join(e.text for e in lines if e.speaker == "user").lower()
        outcome = next((o for o, rule in _OUTCOME_RULES if rule.search(heard)), None)
        return {"interested": True, "not interested": False}.get(outcome or "")
    return found[1] if found else None


#: Words of a yes/no question about the call's purpose ("Did they agree?"), stemmed.
_AGREEMENT = {
    _stem(w)
    for w in (
        "confirm", "agree", "accept", "interested", "book", "want", "schedule", "buy", "sign",
        "proceed", "purchase", "order", "renew", "register", "attend", "approve",
    )
}  # fmt: skip


#: Words of a yes/no question about whether a person answered, stemmed.
_PICKED_UP = {_stem(w) for w in ("pick", "picked", "answer", "reach", "connect")}


def _answer_typed(kind: str, value: Any) -> Any:
    options = enum_options(kind)
    if options:
        return next((o for o in options if str(value).strip().lower() == o.lower()), None)
    plain = _plain_type(kind)
    return typed(plain if plain in FIELD_TYPES else "string", value)


def _answer_words(kind: str) -> str:
    options = enum_options(kind)
    if options:
        return "one of " + json.dumps(options)
    return _TYPE_WORDS.get(_plain_type(kind), "a string")


async def answer_questions(
    lines: Sequence[TranscriptEntry],
    goal: str,
    questions: Sequence[tuple[str, str]],
    llm: AnalysisLLM | None,
    *,
    today: date | None = None,
    facts: Mapping[str, str | None] | None = None,
) -> list[Any]:
    """One answer per (question, type), None when the call does not say. Types: "string",
    "number", "boolean" (also "date"), or a custom set of options ("human or voicemail") whose
    answer is one of them. `facts` are what is known of the call besides its words (who
    answered, how it ended): an option equal to one of them is the offline answer."""
    day = today or date.today()
    known = facts or {}
    if llm is not None:
        try:
            asked = "\n".join(
                f"{i}. {q} (answer type: {_answer_words(t)})"
                for i, (q, t) in enumerate(questions, 1)
            )
            content = await llm.complete(
                "You answer questions about a phone call between an AI agent and a callee. "
                'Answer with one JSON object and nothing else: {"answers": [one answer per '
                "question, in order, of the type asked, or null when the call does not say]}.",
                f"The goal of the call: {goal}\n\nQuestions:\n{asked}\n\n"
                f"Transcript:\n{_numbered(lines)}",
            )
            answers = _json_object(content).get("answers")
            if not isinstance(answers, list) or len(answers) != len(questions):
                raise ValueError("the LLM did not answer every question")
            return [_answer_typed(t, a) for (_, t), a in zip(questions, answers, strict=True)]
        except Exception as exc:
            log.warning("LLM answers failed, answering offline: %s", exc)
    return [_answer_offline(q, t, lines, day, known) for q, t in questions]
