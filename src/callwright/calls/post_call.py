"""After every finished call that has an owner, and every lab call (nobody's, whose judge
reads its analysis fields: docs/lab.md): its analysis with its own settings (summary prompt,
dispositions, fields to extract), stored on the call, then, for an owned call, `call.analyzed`
to the owner's webhook endpoints, and the call's life goes on to "analyzed" (the call's own
webhook: calls.lifecycle). A job (`ANALYZE_JOB`), sent once the
finalisation has committed; the analysis runs outside any transaction (an LLM may take
seconds)."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.analysis import Analysis, AnalysisLLM, analyze
from callwright.calls import repository as calls
from callwright.calls.lifecycle import CallLife, owned
from callwright.calls.tasks import ANALYZE_JOB
from callwright.config import Settings
from callwright.developers.outbox import Outbox
from callwright.kit.db import Database, on_commit
from callwright.kit.jobs import JobQueue
from callwright.models import Call

log = logging.getLogger(__name__)

ANALYZED = "call.analyzed"


def analyzed_event(call: Call, analysis: Analysis) -> dict[str, Any]:
    """The `call.analyzed` webhook's data."""
    return {
        "call_id": call.id,
        "summary": analysis.summary,
        "disposition_tag": analysis.disposition_tag,
        "analysis": analysis.values(),
        "outcome": analysis.outcome,
        "sentiment": analysis.sentiment,
        "metadata": call.call_metadata,
        "variables": call.variables,
    }


def analysed(call: Call) -> bool:
    """Whether a finished call is analysed: a user's call, or a lab call (not the public test
    call, nor the CLI's)."""
    return owned(call) or call.kind == "lab"


class PostCallAnalysis:
    def __init__(self, settings: Settings, db: Database, outbox: Outbox, jobs: JobQueue) -> None:
        self.settings = settings
        self.db = db
        self.outbox = outbox
        self.jobs = jobs

    def subscribe(self, life: CallLife) -> None:
        """Analyse every owned call and every lab call once its end has committed
        (`ANALYZE_JOB`)."""
        self.jobs.register(ANALYZE_JOB, self.run)
        self.life = life
        life.subscribe("ended", self._after_end, only=analysed)

    async def _after_end(self, session: AsyncSession, call: Call) -> None:
        on_commit(session, partial(self.jobs.send, ANALYZE_JOB, call.id))

    async def run(self, call_id: str) -> None:
        """Analyse the finished call (reusing an analysis already stored, say by the
        dashboard's analyze button) and report it."""
        call: Call | None = None
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            lines = list(await calls.transcript(session, call_id))
        if call is None or not analysed(call) or call.finalized_at is None:
            return
        if call.analysis:
            result = Analysis.from_json(call.analysis)
        else:
            result = await analyze(call, lines, AnalysisLLM.from_settings(self.settings))
        async for session in self.db.session():
            fresh = await calls.get(session, call_id)
            if fresh is None or not analysed(fresh):
                return
            fresh.analysis = result.to_json()
            if fresh.user_id is not None:  # a lab call is told to nobody's endpoints
                await self.outbox.emit(
                    session,
                    user_id=fresh.user_id,
                    event=ANALYZED,
                    data=analyzed_event(fresh, result),
                    call_id=call_id,
                )
            await self.life.analyzed(session, fresh)
