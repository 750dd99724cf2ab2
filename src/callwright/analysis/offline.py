"""The offline analysis: keyword rules for the outcome, a small word list for sentiment, the
callee's lines that carry a time, a date, a number or an answer as key facts; the disposition is
the outcome mapped onto the call's list by its words (`disposition_for`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from callwright.analysis.fields import call_day, extract_offline, field_specs, plain_words
from callwright.analysis.result import Analysis, KeyFact
from callwright.models import Call, TranscriptEntry

# Checked in this order on the callee's words; the first rule that matches decides.
OUTCOME_RULES: list[tuple[str, re.Pattern[str]]] = [
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


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def _mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def ended_how(call: Call) -> str:
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
        outcome = next((o for o, rule in OUTCOME_RULES if rule.search(callee_text)), "undetermined")
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
        f"Call to {call.to_number} ({_mmss(duration)}, {ended_how(call)}). "
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
    given = [(d, plain_words(d)) for d in dispositions]
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
    given = [(d, plain_words(d)) for d in dispositions]
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
