"""A conversation flow as data: the graph a business draws and both brains follow
(docs/flows.md). Plain pydantic, no Pipecat: the flows domain (storage, API, editor) and the
flow runner inside the voice agent share this one definition.

A graph has nodes and directed, labelled edges:

- `say`: a line (with `{{variables}}`) or, with an LLM, an instruction; one `next` edge on.
- `ask`: a question; `answer` edges (a label, example phrases, or a built-in intent) and one
  `fallback` edge taken when no answer fits after `max_tries`; it may capture variables.
- `decide`: no speech; `condition` edges on variables and one `fallback` edge.
- `action`: transfer, press keys, call a tool, end the call, leave a voicemail.
- `global`: fires from anywhere when the callee shows its intent (asks for a person, opts out,
  asks whether this is a robot, is busy now); says its line, then returns to where it was, ends
  the call, or follows its one `next` edge.

`problems(graph)` lists what keeps a structurally valid draft from being published (an
unreachable node, an ask without a fallback, an unknown variable...): the editor shows them, and
publishing refuses while there are any.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from callwright.voice_agent.contract import KEYS_PATTERN

#: The format name a flow file exported as JSON carries.
EXPORT_FORMAT = "callwright-flow/1"
MAX_NODES = 200
MAX_EDGES = 400
#: `{{name}}` in a line (spaces inside the braces allowed, as in prompts).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")

Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
VariableName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
Line = Annotated[str, StringConstraints(strip_whitespace=True, max_length=1000)]
Phrase = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
#: Where the editor draws a node: bounded so a drawing is always a sane number.
Coordinate = Annotated[float, Field(ge=-1_000_000, le=1_000_000)]
#: A number a tool's argument holds (bounded, as every number a request carries is).
ArgumentInt = Annotated[int, Field(ge=-(2**53), le=2**53)]
ArgumentFloat = Annotated[float, Field(ge=-1e15, le=1e15)]
ArgumentText = Annotated[str, StringConstraints(max_length=1000)]

#: What a captured variable holds; extracted from the callee's answer by the same extractors
#: the post-call analysis uses (analysis.fields.value_in), or by the LLM.
VariableType = Literal["text", "yes_no", "number", "date", "time", "name"]
#: The built-in intents an answer edge may name instead of (or beside) its phrases.
AnswerIntent = Literal["yes", "no", "later", "not_interested", "wrong_person", "question"]
GlobalIntent = Literal["person", "opt_out", "robot", "busy"]
ConditionOp = Literal[
    "is_set", "is_not_set", "equals", "not_equals", "contains", "greater_than", "less_than"
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Position(_Strict):
    """Where the editor draws the node (no meaning to the runner)."""

    x: Coordinate = 0
    y: Coordinate = 0


class Variable(_Strict):
    """A variable the flow uses: given by the call (`request_data`, a contact's columns) or
    captured by an ask node."""

    name: VariableName
    type: VariableType = "text"
    description: Annotated[str, StringConstraints(max_length=200)] = ""


class Capture(_Strict):
    variable: VariableName
    type: VariableType = "text"


class TransferAction(_Strict):
    type: Literal["transfer"]
    #: E.164; none: the agent's (or call's) transfer number, or `department` of its list.
    number: str | None = None
    department: str | None = None
    mode: Literal["cold", "warm"] = "cold"
    text: Line = "Let me put you through now."


class PressDigitsAction(_Strict):
    type: Literal["press_digits"]
    digits: Annotated[str, StringConstraints(pattern=KEYS_PATTERN.pattern)]


class ToolAction(_Strict):
    type: Literal["tool"]
    #: A tool of the call's agent, by name.
    tool: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    #: Argument values; strings may hold `{{variables}}`.
    arguments: dict[str, ArgumentText | ArgumentInt | ArgumentFloat | bool] = Field(
        default_factory=dict, max_length=30
    )
    #: The variable that keeps the tool's answer (text), if any.
    result_variable: VariableName | None = None


class EndCallAction(_Strict):
    type: Literal["end_call"]
    text: Line = "Thank you for your time. Goodbye."


class VoicemailAction(_Strict):
    type: Literal["voicemail"]
    text: Line


Action = Annotated[
    TransferAction | PressDigitsAction | ToolAction | EndCallAction | VoicemailAction,
    Field(discriminator="type"),
]


class _Node(_Strict):
    id: Id
    name: Name
    position: Position = Field(default_factory=Position)


class SayNode(_Node):
    kind: Literal["say"]
    text: Line = ""
    #: With an LLM: what to say, phrased by the model (the text, if any, is its example).
    instruction: Line = ""

    @model_validator(mode="after")
    def _says_something(self) -> SayNode:
        if not (self.text or self.instruction):
            raise ValueError("a say node needs a line or an instruction")
        return self


class AskNode(_Node):
    kind: Literal["ask"]
    text: Line = Field(min_length=1)
    instruction: Line = ""
    capture: list[Capture] = Field(default_factory=list, max_length=10)
    retry_text: Line = "Sorry, I didn't catch that."
    max_tries: int = Field(default=2, ge=1, le=5)


class DecideNode(_Node):
    kind: Literal["decide"]


class ActionNode(_Node):
    kind: Literal["action"]
    action: Action


class GlobalNode(_Node):
    kind: Literal["global"]
    intent: GlobalIntent
    text: Line = ""
    #: After its line: back to the node it interrupted, end the call, or its one `next` edge.
    then: Literal["return", "end", "goto"] = "return"


Node = Annotated[
    SayNode | AskNode | DecideNode | ActionNode | GlobalNode, Field(discriminator="kind")
]


class Condition(_Strict):
    variable: VariableName
    op: ConditionOp
    value: str | None = None


class Edge(_Strict):
    id: Id
    source: Id
    target: Id
    label: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] = ""
    #: next: unconditional (say, action, global); answer: an ask's expected answer; condition:
    #: a decide's test; fallback: an ask's or a decide's way on when nothing else fits.
    kind: Literal["next", "answer", "condition", "fallback"] = "next"
    phrases: list[Phrase] = Field(default_factory=list, max_length=30)
    intent: AnswerIntent | None = None
    condition: Condition | None = None


class FlowGraph(_Strict):
    start_node_id: Id
    variables: list[Variable] = Field(default_factory=list, max_length=50)
    nodes: list[Node] = Field(min_length=1, max_length=MAX_NODES)
    edges: list[Edge] = Field(default_factory=list, max_length=MAX_EDGES)

    def node(self, node_id: str) -> SayNode | AskNode | DecideNode | ActionNode | GlobalNode:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    def edges_from(self, node_id: str) -> list[Edge]:
        return [e for e in self.edges if e.source == node_id]


class Problem(BaseModel):
    """One reason a draft cannot be published, tied to the node or edge it is about."""

    message: str
    node_id: str | None = None
    edge_id: str | None = None


def _texts(node: SayNode | AskNode | DecideNode | ActionNode | GlobalNode) -> Iterator[str]:
    for name in ("text", "instruction", "retry_text"):
        value = getattr(node, name, "")
        if value:
            yield value
    if isinstance(node, ActionNode):
        action = node.action
        if isinstance(action, TransferAction | EndCallAction | VoicemailAction):
            yield action.text
        elif isinstance(action, ToolAction):
            yield from (v for v in action.arguments.values() if isinstance(v, str))


def _reachable(graph: FlowGraph) -> set[str]:
    seen: set[str] = set()
    stack = [graph.start_node_id] + [n.id for n in graph.nodes if isinstance(n, GlobalNode)]
    while stack:
        node_id = stack.pop()
        if node_id not in seen:
            seen.add(node_id)
            stack.extend(e.target for e in graph.edges_from(node_id))
    return seen


def _structure(graph: FlowGraph) -> list[Problem]:
    ids = [n.id for n in graph.nodes]
    found = [Problem(message=f"Two nodes have the id '{i}'", node_id=i) for i in _twice(ids)]
    found += [
        Problem(message=f"Two edges have the id '{i}'", edge_id=i)
        for i in _twice([e.id for e in graph.edges])
    ]
    if graph.start_node_id not in ids:
        found.append(Problem(message=f"The start node '{graph.start_node_id}' does not exist"))
    for edge in graph.edges:
        for end in (edge.source, edge.target):
            if end not in ids:
                found.append(
                    Problem(
                        message=f"The edge goes to or from a missing node '{end}'", edge_id=edge.id
                    )
                )
    return found


def _twice(values: list[str]) -> list[str]:
    return sorted({v for v in values if values.count(v) > 1})


def _edges_fit(
    node: SayNode | AskNode | DecideNode | ActionNode | GlobalNode, out: list[Edge]
) -> list[Problem]:
    kinds = [e.kind for e in out]
    allowed = {"ask": {"answer", "fallback"}, "decide": {"condition", "fallback"}}.get(
        node.kind, {"next"}
    )
    found = [
        Problem(
            message=f"A {node.kind} node cannot have a {e.kind} edge", node_id=node.id, edge_id=e.id
        )
        for e in out
        if e.kind not in allowed
    ]
    label = f"'{node.name}'"
    if node.kind in ("ask", "decide"):
        if kinds.count("fallback") != 1:
            found.append(
                Problem(
                    message=f"{node.kind.capitalize()} {label} needs exactly one fallback edge",
                    node_id=node.id,
                )
            )
        wanted = "answer" if node.kind == "ask" else "condition"
        if wanted not in kinds:
            found.append(
                Problem(
                    message=f"{node.kind.capitalize()} {label} has no {wanted} edge",
                    node_id=node.id,
                )
            )
    elif kinds.count("next") > 1:
        found.append(Problem(message=f"{label} has more than one way on", node_id=node.id))
    found += [
        Problem(
            message=f"The answer '{e.label or e.id}' has no phrases and no intent",
            node_id=node.id,
            edge_id=e.id,
        )
        for e in out
        if e.kind == "answer" and not (e.phrases or e.intent)
    ] + [
        Problem(
            message=f"The condition edge '{e.label or e.id}' has no condition",
            node_id=node.id,
            edge_id=e.id,
        )
        for e in out
        if e.kind == "condition" and e.condition is None
    ]
    return found


def _ends(
    node: SayNode | AskNode | DecideNode | ActionNode | GlobalNode, out: list[Edge]
) -> list[Problem]:
    ends = isinstance(node, ActionNode) and isinstance(node.action, EndCallAction | VoicemailAction)
    if ends and out:
        return [Problem(message=f"'{node.name}' ends the call: it cannot lead on", node_id=node.id)]
    if isinstance(node, GlobalNode) and (node.then == "goto") != bool(out):
        why = "needs its one next edge" if node.then == "goto" else "only leads on with 'goto'"
        return [Problem(message=f"Global '{node.name}' {why}", node_id=node.id)]
    return []


def problems(graph: FlowGraph) -> list[Problem]:
    """Everything that keeps `graph` from being published, in a stable order (empty: it can)."""
    found = _structure(graph)
    if found:
        return found
    known = (
        {v.name for v in graph.variables}
        | {c.variable for n in graph.nodes if isinstance(n, AskNode) for c in n.capture}
        | {
            n.action.result_variable
            for n in graph.nodes
            if isinstance(n, ActionNode)
            and isinstance(n.action, ToolAction)
            and n.action.result_variable
        }
    )
    reachable = _reachable(graph)
    for node in graph.nodes:
        out = graph.edges_from(node.id)
        if node.id not in reachable:
            found.append(
                Problem(message=f"'{node.name}' cannot be reached from the start", node_id=node.id)
            )
        found += _edges_fit(node, out) + _ends(node, out)
        for text in _texts(node):
            for name in PLACEHOLDER.findall(text):
                if name not in known:
                    found.append(
                        Problem(
                            message=f"'{node.name}' uses an unknown variable {{{{{name}}}}}",
                            node_id=node.id,
                        )
                    )
        for edge in out:
            if edge.condition and edge.condition.variable not in known:
                found.append(
                    Problem(
                        message=f"The condition '{edge.label or edge.id}' tests an unknown variable "
                        f"'{edge.condition.variable}'",
                        node_id=node.id,
                        edge_id=edge.id,
                    )
                )
    return found


class FlowState(BaseModel):
    """Where a run of a flow stands between two things the callee says: the node waiting for
    an answer, how many tries it has had, the variables so far, and the node a global fired
    from. A call keeps it in its session; the editor's "test in text" keeps it in the page."""

    node_id: str | None = None
    tries: int = Field(default=0, ge=0, le=100)
    variables: dict[str, str] = Field(default_factory=dict)
    return_to: str | None = None
    ended: bool = False


class Step(BaseModel):
    """One move through the graph, as a call's `pathway_logs` keeps it: the node, the edge
    taken out of it and why ("answer 'Yes' by the phrase 'that works'", "fallback after 2
    tries", "condition new_time is set", "global 'person'"), what the callee said, what was
    captured."""

    node_id: str
    node_name: str
    edge_id: str | None = None
    reason: str = ""
    heard: str | None = None
    captured: dict[str, str] = Field(default_factory=dict)
    #: Seconds into the call (none in a text test).
    at: float | None = None


class TextTurnIn(_Strict):
    """A turn of the editor's "test in text": no state yet starts the flow (the agent's
    opening); then each message carries the state the last answer gave and what the callee
    typed."""

    state: FlowState | None = None
    said: Annotated[str, StringConstraints(strip_whitespace=True, max_length=1000)] | None = None
    #: The call's variables for the first turn (`{{name}}` and the like).
    variables: dict[str, str] = Field(default_factory=dict)


class TextTurnOut(BaseModel):
    state: FlowState
    #: What the agent says this turn, in order.
    lines: list[str]
    steps: list[Step]
    #: Actions the flow took this turn, described (a text test places no call: a transfer,
    #: keys or a tool are described, not performed), e.g. "transfer (cold) to +15005550010".
    actions: list[str] = Field(default_factory=list)
    ended: bool = False
    #: Why the flow ended: "end_call", "voicemail", "transfer", "opt_out", "no_way_on".
    end_reason: str | None = None
