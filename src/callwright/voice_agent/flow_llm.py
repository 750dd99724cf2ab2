"""The LLM's way through a flow (docs/flows.md, "How the agent follows a flow"): the model
chooses an ask's answer edge by calling one function, `choose_edge`, whose `edge` argument is
one of the node's edge labels (or "none"), and fills the ask's captures; it phrases a say or ask
node's line when the node has an instruction. It frames each question with the node's
instruction and question, the flow's variables and what the callee said. It cannot leave the
graph: a label that is not the node's counts as no answer (the retry line, then the fallback),
and a model that fails or answers nothing usable leaves the choice to the offline chooser."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import httpx

from callwright.voice_agent.flow_graph import AskNode, Edge, FlowGraph, SayNode
from callwright.voice_agent.flow_runner import (
    Choice,
    OfflineChooser,
    captured_value,
    edge_name,
    fill,
)

log = logging.getLogger(__name__)
CHOOSE = "choose_edge"
#: What `edge` is when no answer fits.
NONE = "none"
#: Seconds a model may take to choose.
TIMEOUT_SECONDS = 10.0
_TYPES = {
    "text": "the callee's words",
    "yes_no": '"yes" or "no"',
    "number": "a number",
    "date": 'an ISO 8601 date, "YYYY-MM-DD", or "YYYY-MM-DDTHH:MM" with a time',
    "time": 'a time of day, "HH:MM" (24 h)',
    "name": "a person's name",
}


@dataclass(frozen=True)
class ChatModel:
    """An OpenAI-compatible chat-completions endpoint (the agent's LLM_BASE_URL)."""

    base_url: str
    api_key: str
    model: str
    temperature: float = 0.0
    transport: httpx.AsyncBaseTransport | None = None

    async def chat(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The first choice's message (`content`, `tool_calls`)."""
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": self.temperature,
            "messages": messages,
        }
        if tools:
            body["tools"] = tools
            body["tool_choice"] = {"type": "function", "function": {"name": CHOOSE}}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS, transport=self.transport) as client:
            response = await client.post(
                f"{self.base_url.rstrip('/')}/chat/completions", json=body, headers=headers
            )
            response.raise_for_status()
        message: dict[str, Any] = response.json()["choices"][0]["message"]
        return message


def _labels(edges: list[Edge]) -> dict[str, Edge]:
    """The answer edges by the name the model picks them by (a repeated label gets its id)."""
    named: dict[str, Edge] = {}
    for edge in (e for e in edges if e.kind == "answer"):
        name = edge_name(edge)
        named[name if name not in named else f"{name} ({edge.id})"] = edge
    return named


def choose_tool(ask: AskNode, labels: list[str]) -> dict[str, Any]:
    """The `choose_edge` function the model is offered for `ask`."""
    captures = {c.variable: {"type": "string", "description": _TYPES[c.type]} for c in ask.capture}
    properties: dict[str, Any] = {
        "edge": {
            "type": "string",
            "enum": [*labels, NONE],
            "description": f'The answer that fits what the callee said; "{NONE}" if none does.',
        }
    }
    if captures:
        properties["captures"] = {
            "type": "object",
            "properties": captures,
            "description": "The values the callee gave (leave out what they did not say).",
        }
    return {
        "type": "function",
        "function": {
            "name": CHOOSE,
            "description": "Choose how the conversation goes on from the callee's answer.",
            "parameters": {"type": "object", "properties": properties, "required": ["edge"]},
        },
    }


def frame(graph: FlowGraph, node: SayNode | AskNode, variables: Mapping[str, str]) -> str:
    """The system message: the call's script at this node, and the flow's variables."""
    known = {v.name: variables.get(v.name, "") for v in graph.variables} | dict(variables)
    parts = [
        "You are an AI agent on a phone call that follows a fixed conversation flow.",
        f"The current step is '{node.name}'.",
    ]
    if node.instruction:
        parts.append(f"Its instruction: {fill(node.instruction, variables)}")
    if node.text:
        parts.append(f'Its line: "{fill(node.text, variables)}"')
    if known:
        parts.append("What is known so far: " + json.dumps(known, sort_keys=True))
    return " ".join(parts)


@dataclass
class LLMChooser:
    """Chooses an ask's edge with the model (see the module); phrases instructed lines."""

    model: ChatModel
    graph: FlowGraph
    today: date = field(default_factory=date.today)

    async def choose(
        self, ask: AskNode, edges: list[Edge], said: str, variables: Mapping[str, str]
    ) -> Choice:
        offline = OfflineChooser(self.today)
        labels = _labels(edges)
        messages = [
            {"role": "system", "content": frame(self.graph, ask, variables)},
            {"role": "user", "content": said},
        ]
        try:
            reply = await self.model.chat(messages, [choose_tool(ask, list(labels))])
            arguments = _arguments(reply)
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("the model did not choose an edge (%s): the offline choice", exc)
            return await offline.choose(ask, edges, said, variables)
        picked = str(arguments.get("edge") or NONE)
        captured = self._captured(ask, arguments.get("captures"))
        extracted = (await offline.choose(ask, edges, said, variables)).captured
        captured = {**extracted, **captured}
        edge = labels.get(picked)
        if edge is None:
            return Choice(None, f"the model chose '{picked}'", captured)
        return Choice(edge, f"answer '{picked}' chosen by the model", captured)

    def _captured(self, ask: AskNode, given: Any) -> dict[str, str]:
        """The model's captures that are values of their types."""
        if not isinstance(given, dict):
            return {}
        kept: dict[str, str] = {}
        for capture in ask.capture:
            value = given.get(capture.variable)
            if value is None or value == "":
                continue
            text = str(value).strip()
            if capture.type in ("text", "name") or (capture.type == "date" and _iso(text)):
                kept[capture.variable] = text
            else:
                checked = captured_value(capture.type, text, self.today)
                if checked is not None:
                    kept[capture.variable] = checked
        return kept

    async def phrase(self, node: SayNode | AskNode, variables: Mapping[str, str]) -> str | None:
        messages = [
            {"role": "system", "content": frame(self.graph, node, variables)},
            {
                "role": "user",
                "content": "Say this step's line to the callee now, in one or two short "
                "spoken sentences, following its instruction. Answer with the line alone.",
            },
        ]
        try:
            reply = await self.model.chat(messages)
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("the model did not phrase '%s' (%s): its own text", node.id, exc)
            return None
        text = reply.get("content")
        return " ".join(text.split()) if isinstance(text, str) and text.strip() else None


def _arguments(reply: Mapping[str, Any]) -> dict[str, Any]:
    for call in reply.get("tool_calls") or ():
        function = call.get("function") or {}
        if function.get("name") == CHOOSE:
            parsed = json.loads(function.get("arguments") or "{}")
            if isinstance(parsed, dict):
                return parsed
    raise ValueError("no choose_edge call")


def _iso(text: str) -> bool:
    try:
        (datetime if "T" in text else date).fromisoformat(text)
    except ValueError:
        return False
    return True
