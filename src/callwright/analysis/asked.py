"""Ad-hoc questions about a call answered offline (`questions.answer_with_evidence` without an
LLM), each answer with where it comes from: the transcript line that says it, or what is known
of the call (who answered). Rules, tried in order, the first that answers wins:

- a set of options ("human or voicemail"): the option the call's facts say, else the one the
  callee's words name;
- who called ("Who was calling?"): the agent's introduction ("this is Sam from Acme Dental");
- who answered, as text ("Who answered the call?"): the call's `answered_by`;
- when ("What time did they ask for?"): the date and time said, resolved from the call's day;
- feedback ("Positive feedback about the product"): the callee's line of that tone;
- any other: the most relevant callee line holding a value of the type (fields.best_line_for);
- yes/no about picking up: a person answered, or not; yes/no about the call's purpose
  ("Did they confirm?"): the line that decides the call's outcome."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from callwright.analysis.fields import (
    FIELD_TYPES,
    best_line_for,
    date_in,
    keywords_of,
    plain_words,
    stem_of,
    value_in,
    yes_no_in,
)
from callwright.analysis.offline import OUTCOME_RULES
from callwright.analysis.result import Answer
from callwright.models import TranscriptEntry


def enum_options(kind: str) -> list[str]:
    """A custom answer type's options ("human or voicemail" -> human, voicemail); [] for the
    plain types."""
    if kind.strip().lower() in (*FIELD_TYPES, "bool", "int", "float", "text"):
        return []
    parts = re.split(r"\s+or\s+|\s*[,/|]\s*", kind.strip())
    return [p.strip().strip("\"'") for p in parts if p.strip().strip("\"'")]


def plain_type(kind: str) -> str:
    low = kind.strip().lower()
    return {"bool": "boolean", "int": "number", "float": "number", "text": "string"}.get(low, low)


@dataclass(frozen=True)
class Asked:
    """One question, with the call it is asked of."""

    question: str
    #: string, number, boolean or date (an unknown type reads as string).
    kind: str
    lines: Sequence[TranscriptEntry]
    today: date
    facts: Mapping[str, str | None]

    @property
    def keywords(self) -> set[str]:
        return keywords_of(self.question)

    @property
    def words(self) -> set[str]:
        return set(plain_words(self.question))


def answer_offline(
    question: str,
    kind: str,
    lines: Sequence[TranscriptEntry],
    today: date,
    facts: Mapping[str, str | None],
) -> Answer:
    options = enum_options(kind)
    if options:
        return _option(options, lines, facts)
    plain = plain_type(kind)
    asked = Asked(question, plain if plain in FIELD_TYPES else "string", lines, today, facts)
    for rule in _RULES:
        found = rule(asked)
        if found is not None:
            return found
    return Answer(None)


def _option(
    options: Sequence[str], lines: Sequence[TranscriptEntry], facts: Mapping[str, str | None]
) -> Answer:
    for name, value in facts.items():
        for option in options:
            if value and option.lower() == str(value).lower():
                return Answer(option, fact=name)
    best: tuple[int, int, str] = (0, 0, "")
    for n, entry in enumerate(lines, 1):
        if entry.speaker == "user":
            heard = keywords_of(entry.text)
            for option in options:
                best = max(best, (len(keywords_of(option) & heard), -n, option))
    return Answer(best[2], -best[1]) if best[0] > 0 else Answer(None)


# --- who called, who answered ---------------------------------------------------------------

_WHO_CALLED = re.compile(
    r"\bwho (was |is )?(call|calling|called|rang)\b|\bcaller\b|\bagent'?s? name\b"
    r"|\b(what|which) (company|business|organi[sz]ation)\b.*\bcall",
    re.I,
)
_NAME = r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)?"
#: Capitalised words (and "of", "and", "the" between them); a dot only inside a word.
_ORG_WORD = r"[A-Z0-9&][\w&'-]*(?:\.\w+)*"
_ORG = rf"{_ORG_WORD}(?: (?:{_ORG_WORD}|of|and|the))*"
_INTRO = re.compile(
    rf"(?i:\b(?:this is|my name is|i'm|i am|it's))\s+(?P<name>{_NAME})"
    rf"(?:,?\s+(?i:from|with|at|calling from)\s+(?P<org>{_ORG}))?"
    rf"|(?i:\bcalling (?:from|on behalf of))\s+(?P<only>{_ORG})"
)


def _who_called(asked: Asked) -> Answer | None:
    """The agent's introduction: "Sam from Acme Dental"."""
    if asked.kind != "string" or not _WHO_CALLED.search(asked.question):
        return None
    for n, entry in enumerate(asked.lines, 1):
        if entry.speaker != "user" and (m := _INTRO.search(entry.text)):
            if m.group("only"):
                return Answer(m.group("only").strip(" .'"), n)
            org = f" from {m.group('org').strip(' .')}" if m.group("org") else ""
            return Answer(f"{m.group('name')}{org}", n)
    return None


_WHO_ANSWERED = re.compile(
    r"\bwho (answered|picked up|was reached|did (we|you|the agent) reach)\b"
    r"|\b(human|voicemail|answering machine)\b",
    re.I,
)


def _who_answered(asked: Asked) -> Answer | None:
    """As text: the call's `answered_by` (human, voicemail)."""
    who = asked.facts.get("answered_by")
    if asked.kind != "string" or not who or not _WHO_ANSWERED.search(asked.question):
        return None
    return Answer(who, fact="answered_by")


# --- when -----------------------------------------------------------------------------------

_WHEN = re.compile(r"^\s*when\b|\bwhat (time|day|date)\b|\b(which|preferred) (time|day|date)\b")


def _when(asked: Asked) -> Answer | None:
    """A date (and time) said: the most relevant callee line with one, else the latest callee
    line with one, else a date the agent proposed and the callee then agreed to."""
    if asked.kind not in ("string", "date") or not _WHEN.search(asked.question.lower()):
        return None
    found = best_line_for(asked.keywords, asked.lines, lambda t: date_in(t, asked.today))
    if found is not None:
        return Answer(found[1], found[0])
    lines = list(enumerate(asked.lines, 1))
    for n, entry in reversed(lines):
        if entry.speaker == "user" and (said := date_in(entry.text, asked.today)):
            return Answer(said, n)
    for (n, entry), (_, reply) in zip(reversed(lines[:-1]), reversed(lines[1:]), strict=True):
        proposed = date_in(entry.text, asked.today) if entry.speaker != "user" else None
        if proposed and reply.speaker == "user" and yes_no_in(reply.text) is True:
            return Answer(proposed, n)
    return None


# --- feedback -------------------------------------------------------------------------------

_PRAISE = {
    "love", "loved", "great", "good", "happy", "excellent", "wonderful", "easy", "helpful",
    "liked", "nice", "amazing", "fantastic", "pleased", "satisfied", "best", "fast",
    "friendly", "recommend", "perfect", "awesome", "reliable", "enjoy", "enjoyed",
}  # fmt: skip
_COMPLAINT = {
    "bad", "terrible", "slow", "expensive", "hate", "hated", "problem", "problems", "broken",
    "difficult", "unhappy", "annoyed", "disappointed", "disappointing", "issue", "issues",
    "complicated", "confusing", "worst", "poor", "frustrating", "frustrated", "rude", "late",
    "bug", "bugs", "crash", "crashes", "awful", "dislike", "pricey", "hard",
}  # fmt: skip
_NOT = {"not", "don't", "didn't", "isn't", "wasn't", "never", "no"}
_ASKS_PRAISE = {"positive", "good", "liked", "love", "praise", "compliment", "enjoy", "enjoyed"}
_ASKS_COMPLAINT = {
    "negative", "bad", "dislike", "complain", "complaint", "complaints", "concern", "concerns",
    "issue", "issues", "problem", "problems", "criticism", "improve", "wrong",
}  # fmt: skip
_ASKS_FEEDBACK = {"feedback", "opinion", "opinions", "think", "thought", "thoughts"}


def _tone(text: str) -> int:
    """Praise minus complaint words; a praise word right after a negation counts against."""
    words = re.findall(r"[a-z']+", text.lower())
    score = 0
    for i, word in enumerate(words):
        negated = any(w in _NOT for w in words[max(0, i - 2) : i])
        if word in _PRAISE:
            score += -1 if negated else 1
        elif word in _COMPLAINT:
            score -= 0 if negated else 1
    return score


def _feedback(asked: Asked) -> Answer | None:
    """The callee's line of the tone asked for (the strongest; the first of equals); none
    when the callee said nothing of that tone."""
    words = asked.words
    if asked.kind != "string" or not words & (_ASKS_PRAISE | _ASKS_COMPLAINT | _ASKS_FEEDBACK):
        return None
    sign = 1 if words & _ASKS_PRAISE else -1 if words & _ASKS_COMPLAINT else 0
    best: tuple[int, int, str] = (0, 0, "")
    for n, entry in enumerate(asked.lines, 1):
        if entry.speaker == "user":
            tone = _tone(entry.text)
            best = max(best, (tone * sign if sign else abs(tone), -n, entry.text.strip()))
    if best[0] > 0:
        return Answer(best[2], -best[1])
    # Praise or complaint asked for and none said: no other line answers it.
    return Answer(None) if sign else None


# --- said in a line; yes/no from the call ---------------------------------------------------


def _said(asked: Asked) -> Answer | None:
    found = best_line_for(
        asked.keywords, asked.lines, lambda text: value_in(asked.kind, text, asked.today)
    )
    return Answer(found[1], found[0]) if found else None


#: Words of a yes/no question about whether a person answered, stemmed.
_PICKED_UP = {stem_of(w) for w in ("pick", "picked", "answer", "reach", "connect")}


def _picked_up(asked: Asked) -> Answer | None:
    """ "Did they pick up / answer?": a person did, or not (voicemail, nobody)."""
    if asked.kind != "boolean" or not asked.keywords & _PICKED_UP:
        return None
    if "answered_by" not in asked.facts:
        return None
    return Answer(asked.facts["answered_by"] == "human", fact="answered_by")


#: Words of a yes/no question about the call's purpose ("Did they agree?"), stemmed.
_AGREEMENT = {
    stem_of(w)
    for w in (
        "confirm", "agree", "accept", "interested", "book", "want", "schedule", "buy", "sign",
        "proceed", "purchase", "order", "renew", "register", "attend", "approve", "satisfied",
    )
}  # fmt: skip


def _agreement(asked: Asked) -> Answer | None:
    """ "Did they confirm / agree / book?" with no line on it: the call's outcome says, from
    the first callee line that decides it."""
    if asked.kind != "boolean" or not asked.keywords & _AGREEMENT:
        return None
    callee = [(n, e.text.lower()) for n, e in enumerate(asked.lines, 1) if e.speaker == "user"]
    heard = " ".join(text for _, text in callee)
    for outcome, rule in OUTCOME_RULES:
        if rule.search(heard):
            value = {"interested": True, "not interested": False}.get(outcome)
            line = next((n for n, text in callee if rule.search(text)), None)
            return Answer(value, line) if value is not None else None
    return None


_RULES: tuple[Callable[[Asked], Answer | None], ...] = (
    _who_called,
    _who_answered,
    _when,
    _feedback,
    _said,
    _picked_up,
    _agreement,
)
