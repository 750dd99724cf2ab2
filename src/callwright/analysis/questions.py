"""Ad-hoc questions about a call (`POST /v1/calls/{id}/analyze`), answered by the LLM or offline."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from callwright.analysis.fields import (
    FIELD_TYPES,
    best_line_for,
    keywords_of,
    stem_of,
    typed,
    value_in,
)
from callwright.analysis.llm import TYPE_WORDS, AnalysisLLM, json_object_in, numbered_lines
from callwright.analysis.offline import OUTCOME_RULES
from callwright.models import TranscriptEntry

log = logging.getLogger(__name__)


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
    keywords = keywords_of(question)
    if options:
        known = {str(v).lower() for v in facts.values() if v}
        for option in options:
            if option.lower() in known:
                return option
        heard = " ".join(e.text for e in lines if e.speaker == "user")
        counts = [(len(keywords_of(o) & keywords_of(heard)), o) for o in options]
        best = max(counts, key=lambda c: c[0], default=(0, ""))
        return best[1] if best[0] > 0 else None
    plain = _plain_type(kind)
    found = best_line_for(keywords, lines, lambda text: value_in(plain, text, today))
    if found is None and plain == "boolean" and keywords & _PICKED_UP and "answered_by" in facts:
        # "Did they pick up / answer?": a person did, or not (voicemail, nobody).
        return facts["answered_by"] == "human"
    if found is None and plain == "boolean" and keywords & _AGREEMENT:
        # "Did they confirm / agree / book?" with no line on it: the call's outcome says.
        heard = " ".join(e.text for e in lines if e.speaker == "user").lower()
        outcome = next((o for o, rule in OUTCOME_RULES if rule.search(heard)), None)
        return {"interested": True, "not interested": False}.get(outcome or "")
    return found[1] if found else None


#: Words of a yes/no question about the call's purpose ("Did they agree?"), stemmed.
_AGREEMENT = {
    stem_of(w)
    for w in (
        "confirm", "agree", "accept", "interested", "book", "want", "schedule", "buy", "sign",
        "proceed", "purchase", "order", "renew", "register", "attend", "approve",
    )
}  # fmt: skip


#: Words of a yes/no question about whether a person answered, stemmed.
_PICKED_UP = {stem_of(w) for w in ("pick", "picked", "answer", "reach", "connect")}


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
    return TYPE_WORDS.get(_plain_type(kind), "a string")


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
                f"Transcript:\n{numbered_lines(lines)}",
            )
            answers = json_object_in(content).get("answers")
            if not isinstance(answers, list) or len(answers) != len(questions):
                raise ValueError("the LLM did not answer every question")
            return [_answer_typed(t, a) for (_, t), a in zip(questions, answers, strict=True)]
        except Exception as exc:
            log.warning("LLM answers failed, answering offline: %s", exc)
    return [_answer_offline(q, t, lines, day, known) for q, t in questions]
