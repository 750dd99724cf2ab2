"""The one way a call's order is built, whichever way the call came (Send Call, `/v1/calls`, a
campaign or `/v1` batch attempt, the public test call, the CLI): the saved agent's settings
(the user's own agent, else 404), the request's own on top, every `{{variable}}` filled, then
the checks that belong to the order: a prompt of ten characters or more, an offered
language, an offered voice that speaks it, a disclosure that says "AI".

A refusal is one `OrderRefused` (a 422 naming the order's field, in Send Call's words); a
caller whose API speaks another dialect (`/v1`: Bland's field names) maps it.

What the request gives is checked strictly. What was checked when it was saved (an agent's
settings; a campaign's, for each of its later attempts) gives way instead: a voice or a
language no longer offered, or an agent's voice that does not speak the call's language,
becomes the language's default voice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import repository as agents_repository
from callwright.agents import service as agents
from callwright.agents import tools
from callwright.agents.settings import (
    CALL_SETTINGS,
    TEMPLATED,
    checked_prompt,
    merged,
    voice_mismatch,
)
from callwright.agents.transfers import optional_number
from callwright.agents.variables import fill, missing, missing_message
from callwright.calls.service import CallKind, CallOrder
from callwright.compliance import disclosure
from callwright.flows import repository as flows
from callwright.kit.errors import ValidationFailed
from callwright.models import Agent
from callwright.speech import languages, tts
from callwright.voice_agent.flow_graph import ActionNode, FlowGraph, GlobalNode, TransferAction

#: The order's field a refusal is about.
OrderField = Literal["prompt", "language", "voice", "variables", "disclosure", "flow"]
#: What is wrong with it.
Problem = Literal[
    "missing",
    "too-short",
    "not-offered",
    "unavailable",
    "mismatch",
    "not-ai",
    "not-found",
    "not-published",
    "no-node",
    "bad-number",
]

PROMPT_REQUIRED = "The prompt field is required."
VOICE_UNAVAILABLE = "The selected voice is not available."
#: The kinds whose settings were checked when their campaign was saved (see the module).
SAVED_SETTINGS: tuple[CallKind, ...] = ("campaign", "batch")


class OrderRefused(ValidationFailed):
    """A call's order refused: `field` is at fault, `problem` says how, the message in Send
    Call's words (a 422 naming the field)."""

    def __init__(self, field: OrderField, problem: Problem, message: str) -> None:
        super().__init__({field: [message]})
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class FlowChoice:
    """The conversation flow a call is to follow (docs/flows.md): a flow of the user's, its
    published version (None: the latest), and the node to start at (None: the flow's start)."""

    flow_id: str
    version: int | None = None
    start_node_id: str | None = None


@dataclass(frozen=True)
class PinnedFlow:
    """A flow's published version, as a call pins it."""

    flow_id: str
    version: int
    graph: FlowGraph
    #: The flow's name (what the call's generated prompt names it by).
    name: str = ""


FLOW_NOT_FOUND = "The flow was not found."
#: A prompt for a call that follows a flow and was given none (the prompt's ten characters): the
#: flow by its name, as the call's page and its analysis show it.
FLOW_PROMPT = 'Follow the conversation flow "{}" (version {}).'


async def published_flow(
    session: AsyncSession, user_id: int, flow_id: str, version: int | None
) -> PinnedFlow:
    """The user's flow `flow_id` at its published `version` (None: the latest published);
    OrderRefused when there is none."""
    owned = await flows.owned(session, user_id, flow_id)
    if owned is None:
        raise OrderRefused("flow", "not-found", FLOW_NOT_FOUND)
    found = await flows.version(session, flow_id, version)
    if found is None:
        message = (
            "The flow has no published version."
            if version is None
            else f"The flow has no published version {version}."
        )
        raise OrderRefused("flow", "not-published", message)
    graph = FlowGraph.model_validate(found.graph)
    return PinnedFlow(flow_id, int(found.version), graph, owned.name)


def checked_flow(flow: PinnedFlow, start_node_id: str | None) -> None:
    """The start node is one of the graph's (not a global), and its transfer numbers are
    numbers a transfer may dial."""
    nodes = {n.id: n for n in flow.graph.nodes}
    if start_node_id is not None and (
        start_node_id not in nodes or isinstance(nodes[start_node_id], GlobalNode)
    ):
        raise OrderRefused(
            "flow", "no-node", f"The flow has no node '{start_node_id}' to start at."
        )
    for node in flow.graph.nodes:
        if isinstance(node, ActionNode) and isinstance(node.action, TransferAction):
            try:
                optional_number(node.action.number)
            except ValueError as exc:
                raise OrderRefused("flow", "bad-number", f"'{node.name}': {exc}") from None


@dataclass(frozen=True)
class CallRequest:
    """What a caller asks for, before the checks."""

    kind: CallKind
    to_number: str
    #: Who pays; None for the free test call and the CLI's. A lab call's is whose agent and
    #: flow it tries, found with it; the order has none (a lab call is nobody's bill).
    user_id: int | None = None
    #: The saved agent it starts from (the user's own).
    agent_id: str | None = None
    #: The request's own settings by CallOrder's names, over the agent's (None: not given;
    #: an empty text: none for this call).
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: The values of the `{{variables}}` of the prompt and the other templated texts.
    variables: Mapping[str, Any] | None = None
    # --- where it came from and where it goes: copied onto the order ----------------------
    #: The caller id (None: the carrier's configured number).
    from_number: str | None = None
    start_at: datetime | None = None
    call_metadata: dict[str, Any] | None = None
    api_key_id: int | None = None
    campaign_id: str | None = None
    campaign_contact_id: int | None = None
    viewer_token_hash: str | None = None
    #: Whether the call is recorded, and whether `/v1` shows who answered (Bland's `record`
    #: and `answered_by_enabled`).
    record: bool = True
    answered_by_enabled: bool = True
    # --- actions (docs/actions.md) ---------------------------------------------------------
    #: The call's own custom tools as calls keep them (header values sealed), over the
    #: agent's of the same name.
    tools: Sequence[Mapping[str, Any]] | None = None
    #: Requests made when the call is dialled whose answers fill `{{variables}}` (Bland's
    #: `dynamic_data`; their names need no value before).
    dynamic_data: Sequence[Mapping[str, Any]] | None = None
    #: The conversation flow to follow (None: the agent's, if it has one; else the prompt).
    flow: FlowChoice | None = None
    #: The agent's flow switched off for this call: the prompt leads it.
    no_flow: bool = False
    #: A lab call's simulated callee (lab.contract.Callee as JSON data, docs/lab.md).
    lab_callee: dict[str, Any] | None = None


#: CallRequest's fields copied onto the order as they are.
_COPIED = tuple(
    f.name
    for f in fields(CallRequest)
    if f.name
    not in ("settings", "variables", "agent_id", "tools", "dynamic_data", "flow", "no_flow")
)


async def build_order(
    session: AsyncSession,
    request: CallRequest,
    pinned: Agent | None = None,
    pinned_tools: Sequence[dict[str, Any]] = (),
) -> CallOrder:
    """The order `request` asks for: its agent found (NotFound when it is not the user's), or
    `pinned`, a version of it as it was saved with its tools then, `pinned_tools` (a lab run's;
    not a row), then `order_from`."""
    agent = pinned
    agent_tools: list[dict[str, Any]] = list(pinned_tools)
    if agent is None and request.agent_id:
        assert request.user_id is not None, "an agent is always a user's"
        agent = await agents.owned(session, request.user_id, request.agent_id)
    if agent is not None and pinned is None:
        agent_tools = [tools.stored(t) for t in await agents_repository.tools(session, agent.id)]
    choice = request.flow
    if choice is None and not request.no_flow and agent is not None and agent.flow_id:
        choice = FlowChoice(agent.flow_id)
    flow = None
    if choice is not None:
        assert request.user_id is not None, "a flow is always a user's"
        flow = await published_flow(session, request.user_id, choice.flow_id, choice.version)
        checked_flow(flow, choice.start_node_id)
    return order_from(request, agent, agent_tools, flow)


def order_from(
    request: CallRequest,
    agent: Agent | None = None,
    agent_tools: Sequence[dict[str, Any]] = (),
    flow: PinnedFlow | None = None,
) -> CallOrder:
    """The order from `agent` (already found, or None, with its tools), `request` and the
    `flow` it follows (pinned); OrderRefused when a check fails (see the module)."""
    given = {name: request.settings.get(name) for name in CALL_SETTINGS}
    settings = merged(agent, given)
    settings = {name: value for name, value in settings.items() if value not in ("", None)}
    if flow is not None and not settings.get("prompt"):
        settings["prompt"] = FLOW_PROMPT.format(flow.name or flow.flow_id, flow.version)
    trusted = request.kind in SAVED_SETTINGS
    language = _language(given["language"] or None, agent.language if agent else None, trusted)
    voice = _voice(given["voice"] or None, agent.voice if agent else None, language, trusted)
    variables = dict(request.variables or {})
    settings = _filled(settings, variables, dynamic_names(request.dynamic_data))
    settings.update(
        prompt=_prompt(settings.get("prompt"), request.kind),
        language=language,
        voice=voice.name,
        disclosure=_disclosure(settings.get("disclosure")),
    )
    copied = {name: getattr(request, name) for name in _COPIED}
    if request.kind == "lab":
        # Nobody's bill, in nobody's Call Logs, stats or webhooks: the agent and the flow were
        # found with the request's user; the call has none.
        copied["user_id"] = None
        settings.pop("webhook_url", None)
    return CallOrder(
        **copied,
        agent_id=agent.id if agent is not None else None,
        variables=variables or None,
        tools=tools_over(agent_tools, request.tools or ()) or None,
        dynamic_data=[dict(d) for d in request.dynamic_data or ()] or None,
        **_flow_fields(flow, request.flow),
        **settings,
    )


def _flow_fields(flow: PinnedFlow | None, choice: FlowChoice | None) -> dict[str, Any]:
    if flow is None:
        return {}
    return {
        "flow_id": flow.flow_id,
        "flow_version": flow.version,
        "start_node_id": choice.start_node_id if choice is not None else None,
        "flow_graph": flow.graph.model_dump(mode="json"),
    }


def tools_over(
    agents: Sequence[Mapping[str, Any]], own: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The agent's tools (or a batch's), a call's own of the same name in their place, then
    the call's others."""
    by_name = {t["name"]: dict(t) for t in agents}
    by_name.update({t["name"]: dict(t) for t in own})
    return list(by_name.values())


def dynamic_names(dynamic_data: Sequence[Mapping[str, Any]] | None) -> set[str]:
    """The variables `dynamic_data`'s answers fill."""
    return {
        str(item.get("name"))
        for request in dynamic_data or ()
        for item in request.get("response_data") or ()
        if item.get("name")
    }


def _language(given: str | None, saved: str | None, trusted: bool) -> str:
    """The call's language: the request's, checked (unless `trusted`: then, like the agent's,
    the default when it is no longer offered); else the agent's; else the default."""
    if given is not None:
        found = languages.find(given)
        if found is not None:
            return found.code
        if not trusted:
            raise OrderRefused("language", "not-offered", languages.not_offered_message(given))
        return languages.DEFAULT
    found = languages.find(saved) if saved else None
    return found.code if found is not None else languages.DEFAULT


def _voice(given: str | None, saved: str | None, language: str, trusted: bool) -> tts.Voice:
    """The voice the request names, offered and speaking `language` (unless `trusted`: then it
    gives way like the agent's); else the agent's when it speaks `language`; else the
    language's first."""
    if given is not None and not trusted:
        voice = tts.find(given)
        if voice is None:
            raise OrderRefused("voice", "unavailable", VOICE_UNAVAILABLE)
        if mismatch := voice_mismatch(voice, language):
            raise OrderRefused("voice", "mismatch", mismatch)
        return voice
    name = given if given is not None else saved
    voice = tts.find(name) if name else None
    if voice is None or voice_mismatch(voice, language):
        return tts.default_voice(language)
    return voice


def _filled(
    settings: dict[str, Any], variables: Mapping[str, Any], later: set[str]
) -> dict[str, Any]:
    """Each templated text filled from `variables`; refused naming every placeholder without
    a value (but those `later` fills: dynamic data's, when the call is dialled)."""
    absent = missing(variables, *(settings.get(name) for name in TEMPLATED))
    absent = [name for name in absent if name not in later]
    if absent:
        raise OrderRefused("variables", "missing", missing_message(absent))
    return {
        name: fill(value, variables) if name in TEMPLATED else value
        for name, value in settings.items()
    }


def _prompt(prompt: str | None, kind: CallKind) -> str:
    """Trimmed, at least `PROMPT_MIN` characters (the user's prompt's rule, spec section 4). The
    free test call's prompt is the admin's, whose rule is its own (required, at most 1000
    characters: content.schemas.TestCallTaskIn): a short one must not break the landing page."""
    if not (prompt or "").strip():
        raise OrderRefused("prompt", "missing", PROMPT_REQUIRED)
    if kind == "test":
        return (prompt or "").strip()
    try:
        return checked_prompt(prompt or "")
    except ValueError as exc:
        raise OrderRefused("prompt", "too-short", str(exc)) from None


def _disclosure(text: str | None) -> str | None:
    """The disclosure as filled: it must still say that the caller is an AI."""
    try:
        return disclosure.checked(text)
    except ValueError as exc:
        raise OrderRefused("disclosure", "not-ai", str(exc)) from None
