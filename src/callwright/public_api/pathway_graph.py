"""Bland's pathway documents (`nodes` with a `type` and `data`, `edges` with a `label`) read
into Callwright's flow graph (`voice_agent.flow_graph.FlowGraph`) and written back out
(docs/api.md, "Pathways"; docs/flows.md).

Bland's node types that map:

- `Default`: a node that speaks (`data.text`, or `data.prompt` as the LLM's instruction). With
  labelled edges out, or `extractVars`, it waits for the callee and is an *ask* node (each edge
  an answer; its label is also its example phrase); otherwise a *say* node.
- `End Call`: an end-call action; `Transfer Call` (or `Transfer Node`): a transfer to
  `data.transferNumber`.
- a node with `data.isGlobal`: a *global* node; its `globalLabel` must name a person, opting
  out, a robot or being busy (the intents Callwright's globals fire on).

Any other type (Webhook, Knowledge Base, SMS, Custom Code...) is refused with a 400 naming the
node. Every node and edge written out carries `data.callwright`, the node or edge as Callwright
keeps it, and a node or edge sent with one is taken from it as it is: a pathway read, changed and
written back loses nothing (decide nodes, tools, fallbacks, phrases)."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from callwright.kit.errors import ValidationFailed
from callwright.voice_agent.flow_graph import (
    PLACEHOLDER,
    ActionNode,
    AskNode,
    FlowGraph,
    GlobalNode,
    Node,
    SayNode,
)

SUPPORTED = ("Default", "End Call", "Transfer Call")
#: Callwright's own node types written out where Bland has none.
NATIVE_TYPES = {"decide": "Decide", "press_digits": "Press Button", "tool": "Tool"}
_VAR_TYPES = {
    "string": "text",
    "text": "text",
    "integer": "number",
    "number": "number",
    "float": "number",
    "boolean": "yes_no",
    "bool": "yes_no",
    "date": "date",
    "time": "time",
    "name": "name",
}
_GLOBAL_INTENTS = (
    ("opt_out", re.compile(r"opt.?out|stop call|do not call|don't call|unsubscribe|remove")),
    ("person", re.compile(r"person|human|agent|representative|operator|someone real")),
    ("robot", re.compile(r"robot|\bai\b|\bbot\b|machine|automated")),
    ("busy", re.compile(r"busy|bad time|call (me )?back|later")),
)


def unsupported(node_type: str, node_id: str) -> str:
    return (
        f"The node '{node_id}' has the type '{node_type}', which Callwright does not support. "
        f"Supported types: {', '.join(SUPPORTED)} (see docs/flows.md)."
    )


def _refuse(field: str, message: str) -> ValidationFailed:
    return ValidationFailed({field: [message]})


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value.strip() if isinstance(value, str) else ""


def _captures(data: dict[str, Any], at: str) -> list[dict[str, str]]:
    out = []
    for item in data.get("extractVars") or []:
        if not isinstance(item, list | tuple) or not item or not isinstance(item[0], str):
            raise _refuse(f"{at}.data.extractVars", "Each variable is [name, type, description].")
        kind = str(item[1]).lower() if len(item) > 1 else "string"
        out.append({"variable": item[0], "type": _VAR_TYPES.get(kind, "text")})
    return out


def _global(node: dict[str, Any], data: dict[str, Any], at: str, leads_on: bool) -> dict[str, Any]:
    label = (_text(data, "globalLabel") or _text(data, "name")).lower()
    intent = next((name for name, pattern in _GLOBAL_INTENTS if pattern.search(label)), None)
    if intent is None:
        raise _refuse(
            f"{at}.data.globalLabel",
            f"The global node '{node['id']}' must be about the callee asking for a person, "
            "opting out, asking whether this is a robot, or being busy.",
        )
    then = "goto" if leads_on else ("end" if intent == "opt_out" else "return")
    return {"kind": "global", "intent": intent, "text": _text(data, "text"), "then": then}


def _spoken(node_type: str, data: dict[str, Any], asks: bool) -> dict[str, Any]:
    text, prompt = _text(data, "text"), _text(data, "prompt")
    if node_type == "End Call":
        said = text or prompt or "Thank you for your time. Goodbye."
        return {"kind": "action", "action": {"type": "end_call", "text": said}}
    if node_type in ("Transfer Call", "Transfer Node"):
        number = _text(data, "transferNumber") or None
        action = {"type": "transfer", "number": number}
        return {"kind": "action", "action": action | ({"text": text} if text else {})}
    if asks:
        return {"kind": "ask", "text": text or prompt, "instruction": prompt}
    return {"kind": "say", "text": text, "instruction": prompt}


def _node(node: dict[str, Any], at: str, out_labels: list[str]) -> dict[str, Any]:
    data = node.get("data") if isinstance(node.get("data"), dict) else {}
    assert isinstance(data, dict)
    if isinstance(data.get("callwright"), dict):
        return dict(data["callwright"]) | {"id": node.get("id")}
    node_type = str(node.get("type") or "Default")
    base = {"id": node.get("id"), "name": _text(data, "name") or str(node.get("id"))}
    if isinstance(node.get("position"), dict):
        base["position"] = node["position"]
    if data.get("isGlobal"):
        return base | _global(node, data, at, bool(out_labels))
    if node_type not in (*SUPPORTED, "Transfer Node"):
        raise _refuse(f"{at}.type", unsupported(node_type, str(node.get("id"))))
    captures = _captures(data, at)
    asks = bool(captures) or any(out_labels)
    made = base | _spoken(node_type, data, asks)
    return made | ({"capture": captures} if made["kind"] == "ask" else {})


def _edge(edge: dict[str, Any], index: int, kinds: dict[str, str]) -> dict[str, Any]:
    data = edge.get("data") if isinstance(edge.get("data"), dict) else {}
    assert isinstance(data, dict)
    if isinstance(data.get("callwright"), dict):
        return dict(data["callwright"])
    label = str(edge.get("label") or data.get("label") or "").strip()[:80]
    made: dict[str, Any] = {
        "id": edge.get("id") or f"e{index + 1}",
        "source": edge.get("source"),
        "target": edge.get("target"),
        "label": label,
    }
    if kinds.get(str(edge.get("source"))) == "ask":
        return made | {"kind": "answer", "phrases": [label] if label else []}
    return made | {"kind": "next"}


def _start(nodes: list[dict[str, Any]]) -> str:
    starts = [n for n in nodes if isinstance(n.get("data"), dict) and n["data"].get("isStart")]
    if len(starts) > 1:
        raise _refuse("nodes", "Only one node may be the start (data.isStart).")
    return str((starts or nodes)[0].get("id"))


def _validated(graph: dict[str, Any]) -> FlowGraph:
    try:
        return FlowGraph.model_validate(graph)
    except ValidationError as exc:
        errors: dict[str, list[str]] = {}
        for error in exc.errors():
            field = ".".join(str(p) for p in error["loc"]) or "nodes"
            errors.setdefault(field, []).append(str(error["msg"]).removeprefix("Value error, "))
        raise ValidationFailed(errors) from exc


def _used(made: list[dict[str, Any]], declared: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The declared variables, then each `{{name}}` the nodes use that nothing declares or
    captures (Bland's pathways read any of the call's `request_data`)."""
    known = {str(v.get("name")) for v in declared} | {
        str(c.get("variable")) for n in made for c in n.get("capture") or []
    }
    found: list[dict[str, Any]] = list(declared)
    for node in made:
        for name in PLACEHOLDER.findall(json.dumps(node)):
            if name not in known:
                known.add(name)
                found.append({"name": name, "type": "text", "description": "From request_data"})
    return found


def read(
    nodes: list[dict[str, Any]],
    edges: list[dict[str, Any]],
    variables: list[dict[str, Any]] | None = None,
) -> FlowGraph:
    """Bland's `nodes` and `edges` as a flow graph (400 naming what does not map); `variables`
    are kept, and each other `{{name}}` the nodes use is declared (a text)."""
    if not nodes:
        raise _refuse("nodes", "A pathway needs at least one node.")
    labels: dict[str, list[str]] = {}
    for edge in edges:
        data = edge.get("data") if isinstance(edge.get("data"), dict) else {}
        label = edge.get("label") or (data or {}).get("label") or ""
        labels.setdefault(str(edge.get("source")), []).append(str(label))
    made = [_node(n, f"nodes.{i}", labels.get(str(n.get("id")), [])) for i, n in enumerate(nodes)]
    kinds = {str(n["id"]): str(n.get("kind")) for n in made}
    graph = {
        "start_node_id": _start(nodes),
        "variables": _used(made, variables or []),
        "nodes": made,
        "edges": [_edge(e, i, kinds) for i, e in enumerate(edges)],
    }
    return _validated(graph)


def _bland_type(node: Node) -> str:
    if isinstance(node, ActionNode):
        kind = node.action.type
        if kind == "end_call" or kind == "voicemail":
            return "End Call"
        return "Transfer Call" if kind == "transfer" else NATIVE_TYPES[kind]
    return NATIVE_TYPES.get(node.kind, "Default")


def _bland_data(node: Node, start: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": node.name}
    if node.id == start:
        data["isStart"] = True
    if isinstance(node, SayNode | AskNode):
        data |= {"text": node.text} if node.text else {}
        data |= {"prompt": node.instruction} if node.instruction else {}
    if isinstance(node, AskNode) and node.capture:
        data["extractVars"] = [[c.variable, c.type, ""] for c in node.capture]
    if isinstance(node, GlobalNode):
        data |= {"isGlobal": True, "globalLabel": node.intent, "text": node.text}
    if isinstance(node, ActionNode) and node.action.type in ("transfer", "end_call", "voicemail"):
        data["text"] = getattr(node.action, "text", "")
        if node.action.type == "transfer" and getattr(node.action, "number", None):
            data["transferNumber"] = node.action.number
    return data | {"callwright": node.model_dump(mode="json")}


def write(graph: FlowGraph) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A flow graph as Bland's `nodes` and `edges` (each with `data.callwright`)."""
    nodes = [
        {
            "id": n.id,
            "type": _bland_type(n),
            "position": n.position.model_dump(),
            "data": _bland_data(n, graph.start_node_id),
        }
        for n in graph.nodes
    ]
    edges = [
        {
            "id": e.id,
            "source": e.source,
            "target": e.target,
            "label": e.label,
            "data": {"label": e.label, "callwright": e.model_dump(mode="json")},
        }
        for e in graph.edges
    ]
    return nodes, edges
