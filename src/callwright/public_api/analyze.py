"""`POST /v1/calls/{call_id}/analyze` (Bland's "Analyze call"): ad-hoc questions about one of
the key owner's ended calls, answered from its transcript (by the LLM when one is configured,
else offline; see analysis.answer_with_evidence). Answers Bland's SDK shape: `answers` holds
one list per call analysed (here always one), one answer per question, null when the call does
not say; `evidence`, of the same shape, says where each answer comes from: the transcript line
(`{line, speaker, text}`), or what is known of the call (`{fact, value}`), or null.
`public_api/batch_analysis.py` asks the same of every ended call of a batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.analysis import AnalysisLLM, Answer, answer_with_evidence, call_day
from callwright.calls import repository as calls
from callwright.developers.keys import ApiKeyCaller
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.models import Call, TranscriptEntry
from callwright.telephony.state import TERMINAL

router = APIRouter(prefix="/v1", tags=["v1"])

#: The most questions one request may ask.
MAX_QUESTIONS = 50
CALL_NOT_FOUND = "Call not found."
NOT_ENDED = "The call has not ended yet; analyze it once it has."
NO_QUESTIONS = "Ask at least one question."


class AnalyzeCallIn(BaseModel):
    #: What the call was for; it guides how the questions are read.
    goal: str = Field(default="", max_length=2000)
    #: `[question, answer type]` pairs; the type is "string" (the default), "boolean",
    #: "number", or a set of options such as "human or voicemail".
    #: (At least one: checked once the call is known to be the caller's.)
    questions: list[list[str]] = Field(default_factory=list, max_length=MAX_QUESTIONS)

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "goal": "Book a cleaning appointment",
                    "questions": [
                        ["Did the customer confirm the appointment?", "boolean"],
                        ["Who answered the call?", "human or voicemail"],
                        ["What time did they ask for?", "string"],
                    ],
                }
            ]
        }
    }

    @field_validator("questions")
    @classmethod
    def _pairs(cls, questions: list[list[str]]) -> list[list[str]]:
        for pair in questions:
            if not 1 <= len(pair) <= 2 or not pair[0].strip():
                raise ValueError("Each question must be [question, type] with a question.")
            if any(len(part) > 1000 for part in pair):
                raise ValueError("A question or its type may have at most 1000 characters.")
        return questions

    def pairs(self) -> list[tuple[str, str]]:
        return [
            (p[0].strip(), (p[1] if len(p) > 1 else "").strip() or "string") for p in self.questions
        ]


#: Where an answer comes from: `{line, speaker, text}` (a transcript line, from 1) or
#: `{fact, value}` (what is known of the call: `answered_by`, `end_reason`); null: nothing says.
Evidence = dict[str, Any] | None


class AnalyzeCallOut(BaseModel):
    status: Literal["success"] = "success"
    message: str = "Call analyzed successfully."
    #: One list per call analysed, each with one answer per question (null: not said).
    answers: list[list[Any]]
    #: Callwright's: the same shape as `answers`, where each answer comes from.
    evidence: list[list[Evidence]]
    credits_used: int = 0


@dataclass(frozen=True)
class Asking:
    """What the questions are asked of: an ended call's transcript, its day and its facts."""

    call_id: str
    lines: Sequence[TranscriptEntry]
    day: date
    facts: dict[str, str | None]

    def evidence(self, answer: Answer) -> Evidence:
        if answer.line is not None and 1 <= answer.line <= len(self.lines):
            entry = self.lines[answer.line - 1]
            return {"line": answer.line, "speaker": entry.speaker, "text": entry.text}
        if answer.fact is not None:
            return {"fact": answer.fact, "value": self.facts.get(answer.fact)}
        return None


async def asking(session: AsyncSession, call: Call) -> Asking:
    facts = {"answered_by": call.answered_by, "end_reason": call.end_reason}
    return Asking(call.id, await calls.transcript(session, call.id), call_day(call), facts)


async def answered(
    about: Asking, body: AnalyzeCallIn, llm: AnalysisLLM | None
) -> tuple[list[Any], list[Evidence]]:
    """The answers to `body`'s questions about one call, and where each comes from."""
    answers = await answer_with_evidence(
        about.lines, body.goal, body.pairs(), llm, today=about.day, facts=about.facts
    )
    return [a.value for a in answers], [about.evidence(a) for a in answers]


@router.post("/calls/{call_id}/analyze")
async def analyze_call(
    call_id: Annotated[str, Path(max_length=64)],
    body: AnalyzeCallIn,
    caller: ApiKeyCaller,
    session: SessionDep,
    settings: SettingsDep,
) -> AnalyzeCallOut:
    """Answer questions about an ended call from its transcript."""
    call = await calls.get(session, call_id)
    if call is None or call.user_id != caller.user.id:
        raise NotFound(CALL_NOT_FOUND)
    if not body.questions:
        raise ValidationFailed({"questions": [NO_QUESTIONS]})
    if call.status not in TERMINAL:
        raise AppError(NOT_ENDED, 409)
    values, evidence = await answered(
        await asking(session, call), body, AnalysisLLM.from_settings(settings)
    )
    return AnalyzeCallOut(answers=[values], evidence=[evidence])
