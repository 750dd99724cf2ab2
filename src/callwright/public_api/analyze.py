"""`POST /v1/calls/{call_id}/analyze` (Bland's "Analyze call"): ad-hoc questions about one of
the key owner's ended calls, answered from its transcript (by the LLM when one is configured,
else offline; see analysis.answer_questions). Answers Bland's SDK shape: `answers` holds
one list per call analysed (here always one), one answer per question, null when the call does
not say."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field, field_validator

from callwright.analysis import AnalysisLLM, answer_questions, call_day
from callwright.calls import repository as calls
from callwright.developers.keys import ApiKeyCaller
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.kit.errors import AppError, NotFound, ValidationFailed
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


class AnalyzeCallOut(BaseModel):
    status: Literal["success"] = "success"
    message: str = "Call analyzed successfully."
    #: One list per call analysed, each with one answer per question (null: not said).
    answers: list[list[Any]]
    credits_used: int = 0


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
    lines = await calls.transcript(session, call.id)
    answers = await answer_questions(
        lines,
        body.goal,
        body.pairs(),
        AnalysisLLM.from_settings(settings),
        today=call_day(call),
        facts={"answered_by": call.answered_by, "end_reason": call.end_reason},
    )
    return AnalyzeCallOut(answers=[answers])
