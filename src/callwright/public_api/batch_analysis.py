"""A batch's analysis in Bland's dialect: `POST /v1/batches/{id}/analyze` asks questions of
every ended call of the batch (its first 1,000), each answered from the call's transcript the
way `POST /v1/calls/{id}/analyze` answers one call (by the LLM when one is configured, else
offline), with the line each answer comes from; the analysis is kept, replacing the batch's
earlier one, and `GET /v1/batches/{id}/analysis` reads it back in the SDK's shape (its
`answers` as text: the SDK reads `List[str]`)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel

from callwright.analysis import AnalysisLLM
from callwright.campaigns import service as campaigns
from callwright.developers.keys import ApiKeyCaller
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.kit.errors import NotFound, ValidationFailed
from callwright.models import BatchAnalysis, Campaign
from callwright.public_api import repository
from callwright.public_api.analyze import (
    NO_QUESTIONS,
    AnalyzeCallIn,
    Asking,
    Evidence,
    answered,
    asking,
)

TAG = "Call API (v1)"
NOT_FOUND = "Batch not found."
#: The ended calls one analysis answers for, oldest first.
CALLS_MAX = 1000
#: Calls whose questions go to the LLM at once.
LLM_AT_ONCE = 8
ANALYZED = "Batch analyzed successfully."
NONE_ENDED = "No call of this batch has ended yet: nothing was analyzed."
RETRIEVED = "Batch analysis retrieved successfully."
NOT_ANALYZED = "This batch has not been analyzed yet: POST /v1/batches/{batch_id}/analyze."

router = APIRouter(prefix="/v1", tags=[TAG])


class AnalyzeBatchOut(BaseModel):
    status: Literal["success"] = "success"
    message: str = ANALYZED
    #: One list per ended call (in `call_ids`' order), one answer per question (null: not said).
    answers: list[list[Any]]
    #: Callwright's: the same shape as `answers`, where each answer comes from.
    evidence: list[list[Evidence]]
    #: Callwright's: the call each list of `answers` is about.
    call_ids: list[str]
    credits_used: int = 0


class BatchCallAnalysis(BaseModel):
    """Bland's `BatchAnalysisObject`: one call's answers, as text ("true", "2", "null")."""

    call_id: str
    batch_id: str
    goal: str
    questions: list[str]
    answers: list[str]
    #: Callwright's: where each answer comes from, as in `POST /v1/calls/{id}/analyze`.
    evidence: list[Evidence]


class BatchAnalysisOut(BaseModel):
    status: Literal["success"] = "success"
    message: str = RETRIEVED
    analysis: list[BatchCallAnalysis]


async def _owned(session: SessionDep, caller: ApiKeyCaller, batch_id: str) -> Campaign:
    try:
        return await campaigns.owned(session, caller.user.id, batch_id[:36])
    except NotFound:
        raise NotFound(NOT_FOUND) from None


@router.post("/batches/{batch_id}/analyze", summary="Analyze a batch")
async def analyze_batch(
    batch_id: Annotated[str, Path(max_length=64)],
    body: AnalyzeCallIn,
    caller: ApiKeyCaller,
    session: SessionDep,
    settings: SettingsDep,
) -> AnalyzeBatchOut:
    """Answer questions about every ended call of the batch (its first 1,000) from their
    transcripts; the analysis is kept for `GET /v1/batches/{batch_id}/analysis`."""
    campaign = await _owned(session, caller, batch_id)
    if not body.questions:
        raise ValidationFailed({"questions": [NO_QUESTIONS]})
    ended = await repository.ended_batch_calls(session, campaign.id, CALLS_MAX)
    asked = [await asking(session, call) for call in ended]
    llm = AnalysisLLM.from_settings(settings)
    gate = asyncio.Semaphore(LLM_AT_ONCE)

    async def one(about: Asking) -> tuple[list[Any], list[Evidence]]:
        async with gate:
            return await answered(about, body, llm)

    results = await asyncio.gather(*(one(about) for about in asked))
    questions = [question for question, _ in body.pairs()]
    rows = [
        BatchAnalysis(
            campaign_id=campaign.id,
            call_id=about.call_id,
            goal=body.goal,
            questions=questions,
            answers=values,
            evidence=evidence,
        )
        for about, (values, evidence) in zip(asked, results, strict=True)
    ]
    await repository.replace_batch_analysis(session, campaign.id, rows)
    await session.commit()
    return AnalyzeBatchOut(
        message=ANALYZED if asked else NONE_ENDED,
        answers=[values for values, _ in results],
        evidence=[evidence for _, evidence in results],
        call_ids=[about.call_id for about in asked],
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


@router.get("/batches/{batch_id}/analysis", summary="Batch analysis")
async def batch_analysis(
    batch_id: Annotated[str, Path(max_length=64)], caller: ApiKeyCaller, session: SessionDep
) -> BatchAnalysisOut:
    """The batch's latest analysis: each analysed call's questions and answers (as text)."""
    campaign = await _owned(session, caller, batch_id)
    rows = await repository.batch_analysis(session, campaign.id)
    return BatchAnalysisOut(
        message=RETRIEVED if rows else NOT_ANALYZED.format(batch_id=campaign.id),
        analysis=[
            BatchCallAnalysis(
                call_id=row.call_id,
                batch_id=row.campaign_id,
                goal=row.goal,
                questions=list(row.questions),
                answers=[_text(a) for a in row.answers],
                evidence=list(row.evidence),
            )
            for row in rows
        ],
    )
