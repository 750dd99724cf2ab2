"""Ad-hoc questions about a call (`POST /v1/calls/{id}/analyze`), answered by the LLM or offline
(analysis/asked.py), each answer with the transcript line it comes from."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from callwright.analysis.asked import answer_offline, enum_options, plain_type
from callwright.analysis.fields import FIELD_TYPES, typed
from callwright.analysis.llm import TYPE_WORDS, AnalysisLLM, json_object_in, numbered_lines
from callwright.analysis.result import Answer
from callwright.models import TranscriptEntry

log = logging.getLogger(__name__)

__all__ = ["answer_questions", "answer_with_evidence", "enum_options"]

_INSTRUCTION = (
    "You answer questions about a phone call between an AI agent and a callee. Answer with one "
    'JSON object and nothing else: {"answers": [one answer per question, in order, of the type '
    'asked, or null when the call does not say], "lines": [for each answer, the number of the '
    "transcript line it comes from, or null]}."
)


def _answer_typed(kind: str, value: Any) -> Any:
    options = enum_options(kind)
    if options:
        return next((o for o in options if str(value).strip().lower() == o.lower()), None)
    plain = plain_type(kind)
    return typed(plain if plain in FIELD_TYPES else "string", value)


def _answer_words(kind: str) -> str:
    options = enum_options(kind)
    if options:
        return "one of " + json.dumps(options)
    return TYPE_WORDS.get(plain_type(kind), "a string")


def _line(value: Any, count: int) -> int | None:
    """A line number the LLM gave, if it is one of the transcript's."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 1 <= value <= count else None


async def _with_llm(
    llm: AnalysisLLM,
    lines: Sequence[TranscriptEntry],
    goal: str,
    questions: Sequence[tuple[str, str]],
) -> list[Answer]:
    asked = "\n".join(
        f"{i}. {q} (answer type: {_answer_words(t)})" for i, (q, t) in enumerate(questions, 1)
    )
    content = await llm.complete(
        _INSTRUCTION,
        f"The goal of the call: {goal}\n\nQuestions:\n{asked}\n\n"
        f"Transcript:\n{numbered_lines(lines)}",
    )
    answer = json_object_in(content)
    answers = answer.get("answers")
    if not isinstance(answers, list) or len(answers) != len(questions):
        raise ValueError("the LLM did not answer every question")
    said = answer.get("lines")
    said = said if isinstance(said, list) and len(said) == len(answers) else [None] * len(answers)
    out = []
    for (_, kind), value, line in zip(questions, answers, said, strict=True):
        typed_value = _answer_typed(kind, value)
        out.append(
            Answer(typed_value, _line(line, len(lines)) if typed_value is not None else None)
        )
    return out


async def answer_with_evidence(
    lines: Sequence[TranscriptEntry],
    goal: str,
    questions: Sequence[tuple[str, str]],
    llm: AnalysisLLM | None,
    *,
    today: date | None = None,
    facts: Mapping[str, str | None] | None = None,
) -> list[Answer]:
    """One answer per (question, type), its value None when the call does not say, with the
    line (or the call's fact) it comes from. Types: "string", "number", "boolean" (also
    "date"), or a custom set of options ("human or voicemail") whose answer is one of them.
    `facts` are what is known of the call besides its words (who answered, how it ended)."""
    if llm is not None:
        try:
            return await _with_llm(llm, lines, goal, questions)
        except Exception as exc:
            log.warning("LLM answers failed, answering offline: %s", exc)
    day = today or date.today()
    return [answer_offline(q, t, lines, day, facts or {}) for q, t in questions]


async def answer_questions(
    lines: Sequence[TranscriptEntry],
    goal: str,
    questions: Sequence[tuple[str, str]],
    llm: AnalysisLLM | None,
    *,
    today: date | None = None,
    facts: Mapping[str, str | None] | None = None,
) -> list[Any]:
    """The answers alone (`answer_with_evidence`'s values)."""
    answers = await answer_with_evidence(lines, goal, questions, llm, today=today, facts=facts)
    return [a.value for a in answers]
