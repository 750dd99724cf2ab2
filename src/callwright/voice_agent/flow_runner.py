"""Following a conversation flow (flow_graph.py): the runner both brains and the editor's "test
in text" share. Plain Python, no Pipecat (docs/flows.md, "How the agent follows a flow").

A run starts at the graph's start node (or a call's `start_node_id`) and speaks through say
nodes until it reaches an ask (it then waits for the callee), an action the caller performs
(a transfer or a tool: it waits for the result), or the end. Each thing the callee says goes:

1. to the globals first: an opt-out (always: it ends the call, whether or not the graph has
   an opt-out global), a question whether this is a robot (answered truthfully even without a
   global), a request for a person, "busy right now" (those two only when the graph has the
   global); a global says its line and returns to the question it interrupted, ends the call,
   or follows its one `next` edge;
2. then to the waiting ask's answer edges, chosen by an `EdgeChooser`: offline by phrases (the
   whole phrase said, or all its words by stem, as `analysis.fields.keywords_of` reads them)
   and built-in intents; with an LLM by the model's pick among the edges' labels (flow_llm.py).
   The ask's captures are taken by the post-call analysis's extractors (or the model). No edge:
   the retry line and the question again, and after `max_tries` the fallback edge.

Decide nodes take the first condition edge that holds, else their fallback. Each move is a
`Step` (a call's `pathway_logs`) with its reason. Actions come back as `ActionRequest`s in the
turn's `parts`, in order with the lines: the caller performs them (a call: the transfer, keypad
and tool machinery; a text test describes them) and, for a tool or a transfer, tells the runner
how it went (`resume`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from callwright.analysis.fields import (
    date_in,
    keywords_of,
    number_in,
    time_in,
    yes_no_in,
)
from callwright.voice_agent.flow_graph import (
    PLACEHOLDER,
    Action,
    ActionNode,
    AskNode,
    Capture,
    Condition,
    DecideNode,
    Edge,
    EndCallAction,
    FlowGraph,
    FlowState,
    GlobalNode,
    PressDigitsAction,
    SayNode,
    Step,
    TextTurnIn,
    TextTurnOut,
    ToolAction,
    TransferAction,
    VoicemailAction,
)
from callwright.voice_agent.policy import OPT_OUT_REPLY, ROBOT, ROBOT_REPLY, Intent, classify

AnyNode = SayNode | AskNode | DecideNode | ActionNode | GlobalNode
#: Moves one turn may make without reaching an ask or an end (a loop of say/decide nodes).
MAX_MOVES = 100
#: "I'm busy right now", "not a good time", "call me back": narrower than the policy's "later"
#: (which "tomorrow" alone says), so that an answer giving a day is not taken for it.
BUSY = re.compile(
    r"\b(busy|in a meeting|driving|at work)( right)? now\b|\b(not a good|a bad) time\b"
    r"|\bcall (me )?(back|later)\b|\bcan'?t talk\b"
)
#: The names of the globals that hold without a node in the graph.
BUILT_IN = {"opt_out": "Opt-out (built in)", "robot": "Robot question (built in)"}
#: After a transfer that did not reach the person, when the transfer node has no way on.
NOT_CONNECTED = "I'm sorry, I couldn't connect you just now. Thank you for your time. Goodbye."
#: Said when the flow has nowhere to go (a node with no way on).
NO_WAY_ON = "Thank you for your time. Goodbye."
#: What the callee says that each answer intent stands for (policy.classify's intents).
_INTENTS: dict[str, tuple[Intent, ...]] = {
    "yes": (Intent.YES,),
    "no": (Intent.NO, Intent.NOT_INTERESTED),
    "later": (Intent.LATER,),
    "not_interested": (Intent.NOT_INTERESTED,),
    "wrong_person": (Intent.WRONG_PERSON,),
    "question": (Intent.QUESTION, Intent.WHO, Intent.PRICE, Intent.LOOKUP),
}
_NAME = re.compile(
    r"\b(?:[Mm]y name is|[Tt]his is|I am|I'm|[Ii]t's|[Cc]all me|[Ss]peaking is)\s+"
    r"([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
)


def global_intent(said: str) -> str | None:
    """The global intent `said` shows, if any: opt_out, robot, person or busy."""
    intent = classify(said)
    if intent is Intent.OPT_OUT:
        return "opt_out"
    if ROBOT.search(" ".join(said.lower().split())):
        return "robot"
    if intent is Intent.TRANSFER:
        return "person"
    if BUSY.search(" ".join(said.lower().split())):
        return "busy"
    return None


def fill(text: str, variables: Mapping[str, str]) -> str:
    """`text` with each `{{name}}` replaced by its value ("" when it has none)."""
    filled = PLACEHOLDER.sub(lambda m: str(variables.get(m.group(1), "")), text)
    return " ".join(filled.split())


def name_in(text: str) -> str | None:
    match = _NAME.search(text)
    return match.group(1) if match else None


def captured_value(kind: str, said: str, today: date) -> str | None:
    """The value of type `kind` said in `said`, as text (None: none is)."""
    if kind == "yes_no":
        yes = yes_no_in(said)
        return None if yes is None else ("yes" if yes else "no")
    if kind == "number":
        number = number_in(said)
        return None if number is None else str(number)
    if kind == "date":
        return date_in(said, today)
    if kind == "time":
        return time_in(said)
    if kind == "name":
        return name_in(said)
    return said.strip() or None


def capture(captures: list[Capture], said: str, today: date) -> dict[str, str]:
    found = {c.variable: captured_value(c.type, said, today) for c in captures}
    return {name: value for name, value in found.items() if value is not None}


def holds(condition: Condition, variables: Mapping[str, str]) -> bool:
    """Whether `condition` holds on `variables` (text compared without case; greater/less
    than numerically, false when either side is not a number)."""
    value = variables.get(condition.variable)
    if condition.op == "is_set":
        return bool(value)
    if condition.op == "is_not_set":
        return not value
    have, want = (value or "").strip().casefold(), (condition.value or "").strip().casefold()
    if condition.op == "equals":
        return have == want
    if condition.op == "not_equals":
        return have != want
    if condition.op == "contains":
        return bool(want) and want in have
    try:
        left, right = float(have), float(want)
    except ValueError:
        return False
    return left > right if condition.op == "greater_than" else left < right


def edge_name(edge: Edge) -> str:
    """How an edge is named to a model and in a reason: its label, else its id."""
    return edge.label or edge.id


@dataclass(frozen=True)
class Choice:
    """The answer edge chosen for what the callee said (None: none fits), why, and the values
    captured from it."""

    edge: Edge | None
    reason: str = ""
    captured: dict[str, str] = field(default_factory=dict)


def _plain(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _phrase_score(phrase: str, said: str, words: set[str]) -> tuple[int, int, str] | None:
    plain = _plain(phrase)
    if plain and re.search(rf"(?<![\w']){re.escape(plain)}(?![\w'])", said):
        return 3, len(plain), f"the phrase '{phrase}'"
    wanted = keywords_of(phrase)
    if wanted and wanted <= words:
        return 2, len(wanted), f"the words of '{phrase}'"
    return None


def _intent_fits(wanted: str, intent: Intent) -> bool:
    return intent in _INTENTS.get(wanted, ())


def offline_choice(said: str, edges: list[Edge]) -> Choice:
    """The answer edge `said` fits best: the whole of a phrase said beats all of a phrase's
    words said, which beats a built-in intent; a longer phrase wins; then the first edge."""
    text, words, intent = _plain(said), keywords_of(said), classify(said)
    best: tuple[tuple[int, int, int], Edge, str] | None = None
    for order, edge in enumerate(e for e in edges if e.kind == "answer"):
        found = [s for s in (_phrase_score(p, text, words) for p in edge.phrases) if s]
        if edge.intent and _intent_fits(edge.intent, intent):
            found.append((1, 0, f"the intent '{edge.intent}'"))
        if not found:
            continue
        rank, length, why = max(found)
        score = (rank, length, -order)
        if best is None or score > best[0]:
            best = (score, edge, why)
    if best is None:
        return Choice(None)
    return Choice(best[1], f"answer '{edge_name(best[1])}' by {best[2]}")


class EdgeChooser(Protocol):
    """Picks an ask's answer edge, and may phrase lines (an LLM; offline: never)."""

    async def choose(
        self, ask: AskNode, edges: list[Edge], said: str, variables: Mapping[str, str]
    ) -> Choice: ...

    async def phrase(self, node: SayNode | AskNode, variables: Mapping[str, str]) -> str | None:
        """The node's line in the model's words (None: the node's own text)."""
        ...


@dataclass
class OfflineChooser:
    """The deterministic chooser: `offline_choice`, and captures by the analysis extractors."""

    today: date = field(default_factory=date.today)

    async def choose(
        self, ask: AskNode, edges: list[Edge], said: str, variables: Mapping[str, str]
    ) -> Choice:
        choice = offline_choice(said, edges)
        return Choice(choice.edge, choice.reason, capture(ask.capture, said, self.today))

    async def phrase(self, node: SayNode | AskNode, variables: Mapping[str, str]) -> str | None:
        return None


@dataclass(frozen=True)
class ActionRequest:
    """An action node reached: what the caller is to do. `arguments` are a tool's, filled."""

    node_id: str
    action: Action
    arguments: dict[str, Any] = field(default_factory=dict)

    @property
    def waits(self) -> bool:
        """Whether the run waits for the caller to say how it went (`FlowRunner.resume`)."""
        return isinstance(self.action, TransferAction | ToolAction)

    def describe(self) -> str:
        """The action in words, as a text test shows it (it performs none)."""
        action = self.action
        if isinstance(action, TransferAction):
            to = action.number or (
                f"the '{action.department}' department"
                if action.department
                else "the call's transfer number"
            )
            return f"transfer ({action.mode}) to {to}"
        if isinstance(action, PressDigitsAction):
            return f"press keys {action.digits}"
        if isinstance(action, ToolAction):
            return f"call the tool {action.tool} with {self.arguments}"
        if isinstance(action, VoicemailAction):
            return "leave a voicemail"
        return "end the call"


@dataclass
class Turn:
    """What one move of the runner gives: lines and actions in order, the steps taken, and
    whether (and why) the flow ended."""

    parts: list[str | ActionRequest] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    ended: bool = False
    end_reason: str | None = None

    @property
    def lines(self) -> list[str]:
        return [p for p in self.parts if isinstance(p, str)]

    @property
    def actions(self) -> list[ActionRequest]:
        return [p for p in self.parts if isinstance(p, ActionRequest)]

    def say(self, line: str) -> None:
        if line:
            self.parts.append(line)

    def extend(self, other: Turn) -> None:
        self.parts += other.parts
        self.steps += other.steps
        self.ended, self.end_reason = other.ended, other.end_reason


class FlowRunner:
    """One run of a flow (a call's, or a text test's), from `state` (None: not started)."""

    def __init__(
        self,
        graph: FlowGraph,
        variables: Mapping[str, Any] | None = None,
        *,
        state: FlowState | None = None,
        chooser: EdgeChooser | None = None,
        start_node_id: str | None = None,
        clock: Callable[[], float | None] = lambda: None,
    ) -> None:
        self.graph = graph
        given = {k: "" if v is None else str(v) for k, v in (variables or {}).items()}
        self.state = state if state is not None else FlowState(variables=given)
        self.chooser: EdgeChooser = chooser or OfflineChooser()
        self.start_node_id = start_node_id or graph.start_node_id
        self._clock = clock
        if self.state.node_id is not None:
            self.graph.node(self.state.node_id)  # KeyError: the state is not this graph's

    @property
    def started(self) -> bool:
        return self.state.node_id is not None or self.state.ended

    @property
    def waiting_on(self) -> ActionNode | None:
        """The transfer or tool node the run waits on (None: it waits for the callee)."""
        if self.state.node_id is None:
            return None
        node = self.graph.node(self.state.node_id)
        return node if isinstance(node, ActionNode) else None

    # Moves -------------------------------------------------------------------------------

    async def start(self) -> Turn:
        """The agent's opening: from the start node to the first ask, action or end."""
        turn = Turn()
        await self._run_from(self.start_node_id, turn)
        return turn

    async def hear(self, said: str) -> Turn:
        """What the callee said: globals first, then the waiting ask's answers."""
        turn = Turn()
        if self.state.ended:
            return turn
        said = said.strip()
        if await self._global(said, turn):
            return turn
        if not self.started:
            await self._run_from(self.start_node_id, turn)
            return turn
        node = self.graph.node(self.state.node_id or "")
        if isinstance(node, AskNode) and said:
            await self._answer(node, said, turn)
        return turn

    async def resume(self, ok: bool, result: str | None = None, *, line: str = "") -> Turn:
        """The transfer or tool the run waited on is over: `ok` and, for a tool, its answer
        (kept in its `result_variable`); `line` is said first when a transfer failed."""
        turn = Turn()
        node = self.waiting_on
        if node is None or self.state.ended:
            return turn
        action = node.action
        edge = self._next(node)
        if isinstance(action, TransferAction):
            if ok:
                self._end(turn, "transfer")
                return turn
            turn.say(line)
            why = "transfer did not reach the person"
        else:
            assert isinstance(action, ToolAction)
            if ok and action.result_variable and result is not None:
                self.state.variables[action.result_variable] = result
            why = f"tool '{action.tool}' " + ("answered" if ok else "failed")
        self._step(turn, node, edge, why, captured=self._result_of(action, ok, result))
        if edge is None:
            turn.say(NOT_CONNECTED if isinstance(action, TransferAction) else NO_WAY_ON)
            self._end(turn, "no_way_on")
            return turn
        await self._run_from(edge.target, turn)
        return turn

    def voicemail(self) -> Turn:
        """The call reached voicemail before the flow had an answer: the graph's first
        voicemail node's message (None of them: the turn ends the flow with no line, and the
        caller leaves the call's own message or hangs up)."""
        turn = Turn()
        node = next(
            (
                n
                for n in self.graph.nodes
                if isinstance(n, ActionNode) and isinstance(n.action, VoicemailAction)
            ),
            None,
        )
        if node is None:
            self._end(turn, "voicemail")
            return turn
        self._step(turn, node, None, "voicemail greeting heard")
        assert isinstance(node.action, VoicemailAction)
        turn.say(fill(node.action.text, self.state.variables))
        self._end(turn, "voicemail")
        return turn

    # Inside ------------------------------------------------------------------------------

    def _result_of(
        self, action: ToolAction | TransferAction, ok: bool, result: str | None
    ) -> dict[str, str]:
        if isinstance(action, ToolAction) and ok and action.result_variable and result is not None:
            return {action.result_variable: result}
        return {}

    async def _run_from(self, node_id: str, turn: Turn) -> None:
        """Move from `node_id` until an ask waits, an action waits, or the flow ends."""
        for _ in range(MAX_MOVES):
            node = self.graph.node(node_id)
            self.state.node_id, self.state.tries = node.id, 0
            if isinstance(node, AskNode):
                turn.say(await self._line(node))
                return
            following = await self._pass(node, turn)
            if following is None:
                return
            node_id = following
        turn.say(NO_WAY_ON)
        self._end(turn, "no_way_on")

    async def _pass(self, node: AnyNode, turn: Turn) -> str | None:
        """Go through a say, decide, action or global node: the next node's id (None: the
        run stops here: it waits on an action, or it ended)."""
        if isinstance(node, ActionNode):
            return self._act(node, turn)
        if isinstance(node, DecideNode):
            edge, why = self._decide(node)
        else:
            if isinstance(node, SayNode):
                turn.say(await self._line(node))
            else:
                turn.say(fill(node.text, self.state.variables))
            edge, why = self._next(node), "next"
        self._step(turn, node, edge, why if edge else "no way on")
        if edge is None:
            turn.say(NO_WAY_ON)
            self._end(turn, "no_way_on")
            return None
        return edge.target

    def _act(self, node: ActionNode, turn: Turn) -> str | None:
        action, variables = node.action, self.state.variables
        if isinstance(action, EndCallAction | VoicemailAction):
            turn.say(fill(action.text, variables))
            self._step(turn, node, None, action.type.replace("_", " "))
            self._end(turn, action.type)
            return None
        arguments: dict[str, Any] = {}
        if isinstance(action, TransferAction):
            turn.say(fill(action.text, variables))
        elif isinstance(action, ToolAction):
            arguments = {
                k: fill(v, variables) if isinstance(v, str) else v
                for k, v in action.arguments.items()
            }
        request = ActionRequest(node.id, action, arguments)
        turn.parts.append(request)
        if request.waits:
            self._step(turn, node, None, request.describe())
            return None
        edge = self._next(node)
        self._step(turn, node, edge, request.describe())
        if edge is None:
            self._end(turn, "no_way_on")
            return None
        return edge.target

    def _decide(self, node: DecideNode) -> tuple[Edge | None, str]:
        out = self.graph.edges_from(node.id)
        for edge in out:
            if (
                edge.kind == "condition"
                and edge.condition
                and holds(edge.condition, self.state.variables)
            ):
                c = edge.condition
                value = (
                    f" {c.value}"
                    if c.value is not None and c.op not in ("is_set", "is_not_set")
                    else ""
                )
                return edge, f"condition {c.variable} {c.op.replace('_', ' ')}{value}"
        fallback = next((e for e in out if e.kind == "fallback"), None)
        return fallback, "fallback: no condition held"

    async def _answer(self, node: AskNode, said: str, turn: Turn) -> None:
        choice = await self.chooser.choose(
            node, self.graph.edges_from(node.id), said, self.state.variables
        )
        self.state.variables.update(choice.captured)
        if choice.edge is not None:
            self._step(turn, node, choice.edge, choice.reason, heard=said, captured=choice.captured)
            await self._run_from(choice.edge.target, turn)
            return
        if classify(said) is Intent.GREETING:
            # "Hello?": they did not hear the question (no answer, no try spent).
            self._step(turn, node, None, "a greeting: the question again", heard=said)
            turn.say(await self._line(node))
            return
        self.state.tries += 1
        if self.state.tries < node.max_tries:
            why = f"no answer fit: try {self.state.tries} of {node.max_tries}"
            self._step(turn, node, None, why, heard=said, captured=choice.captured)
            turn.say(fill(node.retry_text, self.state.variables))
            turn.say(await self._line(node))
            return
        fallback = next((e for e in self.graph.edges_from(node.id) if e.kind == "fallback"), None)
        why = f"fallback after {node.max_tries} tries"
        self._step(turn, node, fallback, why, heard=said, captured=choice.captured)
        if fallback is None:
            turn.say(NO_WAY_ON)
            self._end(turn, "no_way_on")
            return
        await self._run_from(fallback.target, turn)

    async def _global(self, said: str, turn: Turn) -> bool:
        """Fire the global `said` asks for (True), or not (False). While a transfer or a
        tool runs, only an opt-out fires."""
        intent = global_intent(said) if said else None
        if intent is None or (self.waiting_on is not None and intent != "opt_out"):
            return False
        node = next(
            (n for n in self.graph.nodes if isinstance(n, GlobalNode) and n.intent == intent),
            None,
        )
        reason = f"global '{intent}'"
        if node is not None and intent != "opt_out":
            return await self._fire(node, reason, said, turn)
        if node is None and intent not in ("opt_out", "robot"):
            return False
        if node is None:
            turn.steps.append(
                Step(
                    node_id=f"global:{intent}",
                    node_name=BUILT_IN[intent],
                    reason=f"{reason} (built in)",
                    heard=said,
                    at=self._clock(),
                )
            )
        else:
            self._step(turn, node, None, reason, heard=said)
        if intent == "robot":
            turn.say(ROBOT_REPLY)
            await self._back(turn)
            return True
        # An opt-out always ends the call (docs/compliance.md), whatever the global's `then`.
        text = fill(node.text, self.state.variables) if node is not None else ""
        turn.say(text or OPT_OUT_REPLY)
        self._end(turn, "opt_out")
        return True

    async def _fire(self, node: GlobalNode, reason: str, said: str, turn: Turn) -> bool:
        edge = self._next(node) if node.then == "goto" else None
        self._step(turn, node, edge, reason, heard=said)
        turn.say(fill(node.text, self.state.variables))
        if node.then == "end":
            self._end(turn, "end_call")
        elif edge is not None:
            self.state.return_to = self.state.node_id
            await self._run_from(edge.target, turn)
        else:
            await self._back(turn)
        return True

    async def _back(self, turn: Turn) -> None:
        """Back to the question a global interrupted (or the opening, before it started)."""
        if not self.started:
            await self._run_from(self.start_node_id, turn)
            return
        node = self.graph.node(self.state.node_id or "")
        if isinstance(node, AskNode):
            turn.say(await self._line(node))

    async def _line(self, node: SayNode | AskNode) -> str:
        if node.instruction:
            phrased = await self.chooser.phrase(node, self.state.variables)
            if phrased:
                return phrased
        return fill(node.text, self.state.variables)

    def _next(self, node: AnyNode) -> Edge | None:
        return next((e for e in self.graph.edges_from(node.id) if e.kind == "next"), None)

    def _step(
        self,
        turn: Turn,
        node: AnyNode,
        edge: Edge | None,
        reason: str,
        *,
        heard: str | None = None,
        captured: Mapping[str, str] | None = None,
    ) -> None:
        turn.steps.append(
            Step(
                node_id=node.id,
                node_name=node.name,
                edge_id=edge.id if edge else None,
                reason=reason,
                heard=heard,
                captured=dict(captured or {}),
                at=self._clock(),
            )
        )

    def _end(self, turn: Turn, reason: str) -> None:
        self.state.ended = True
        turn.ended, turn.end_reason = True, reason


class FlowTurnRefused(ValueError):
    """A text-test turn that cannot be taken: the message says why (the endpoint's 422)."""


async def text_turn(
    graph: FlowGraph,
    turn_in: TextTurnIn,
    *,
    llm: EdgeChooser | None = None,
    today: date | None = None,
) -> TextTurnOut:
    """One turn of the editor's "test in text". No state: the flow starts (the agent's
    opening; with `said`, that is then answered too). Else `said` is answered from the state.
    Nothing is performed: a transfer, keys or a tool are described in `actions` (a transfer is
    taken as reaching the person, a tool as answering nothing), so the path goes on as in a
    call. `llm`: the LLM's chooser (flow_llm.LLMChooser); None: the offline brain's."""
    chooser = llm or OfflineChooser(today or date.today())
    state = turn_in.state.model_copy(deep=True) if turn_in.state is not None else None
    try:
        runner = FlowRunner(graph, turn_in.variables, state=state, chooser=chooser)
    except KeyError as exc:
        raise FlowTurnRefused(f"The node {exc} is no longer in the flow: start again") from None
    said = (turn_in.said or "").strip()
    if state is not None and not said:
        raise FlowTurnRefused("Type what the callee says")
    turn = Turn()
    if state is None:
        turn.extend(await runner.start())
    if said and not runner.state.ended:
        turn.extend(await runner.hear(said))
    while not runner.state.ended and runner.waiting_on is not None:
        turn.extend(await runner.resume(True))
    return TextTurnOut(
        state=runner.state,
        lines=turn.lines,
        steps=turn.steps,
        actions=[a.describe() for a in turn.actions],
        ended=runner.state.ended,
        end_reason=turn.end_reason,
    )
