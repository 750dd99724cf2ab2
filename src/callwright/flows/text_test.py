"""The editor's "test in text" (docs/flows.md): one turn of a user's flow, typed as the callee,
answered by the flow runner the calls use (voice_agent.flow_runner.text_turn), with the LLM's
edge chooser when one is set up and the offline brain's otherwise. No call is placed: transfers,
keys and tools are described, not performed."""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.compliance.calling_hours import zone
from callwright.config import Settings
from callwright.flows import service
from callwright.kit.errors import ValidationFailed
from callwright.kit.time import utcnow
from callwright.models import User
from callwright.voice_agent.flow_graph import FlowGraph, TextTurnIn, TextTurnOut
from callwright.voice_agent.flow_llm import ChatModel, LLMChooser
from callwright.voice_agent.flow_runner import FlowTurnRefused, text_turn


def _today(user: User) -> date:
    """The user's own date (their browser's zone; UTC when unknown): "tomorrow" is theirs."""
    try:
        where = zone(user.timezone or "UTC")
    except ValueError:
        where = zone("UTC")
    return utcnow().astimezone(where).date()


async def take_turn(
    session: AsyncSession,
    settings: Settings,
    user: User,
    flow_id: str,
    version: int | None,
    turn_in: TextTurnIn,
) -> TextTurnOut:
    """One turn on the flow's draft (or its published `version`); 422 naming `state` or `said`
    when the turn cannot be taken (a state from a node since removed, nothing typed)."""
    flow = await service.owned(session, user.id, flow_id)
    stored = (
        flow.draft if version is None else (await service.version(session, flow, version)).graph
    )
    graph = FlowGraph.model_validate(stored)
    today = _today(user)
    chooser = None
    if settings.llm_base_url:
        model = ChatModel(settings.llm_base_url, settings.llm_api_key, settings.llm_model)
        chooser = LLMChooser(model, graph, today)
    try:
        return await text_turn(graph, turn_in, llm=chooser, today=today)
    except FlowTurnRefused as exc:
        field = (
            "said" if turn_in.state is not None and not (turn_in.said or "").strip() else "state"
        )
        raise ValidationFailed({field: [str(exc)]}) from None
