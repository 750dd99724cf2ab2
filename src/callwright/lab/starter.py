"""Starter suites (docs/lab.md, "The starter suite"): scenarios written for the user from an
agent or a flow, each with expectations the user can edit.

From an agent: the happy path, a decline, a wrong person, a voicemail, an opt-out, a request
for a person (only when the agent has somewhere to transfer to), an interrupter and a silent
callee, each expecting the AI disclosure within 10 s of the answer (every agent discloses:
compliance/disclosure.py) and the outcome that callee should lead to.

From a flow graph: one scenario per branch, so that every edge the callee's words or the
call's variables can steer is on some scenario's expected `path`. A route is found on the
graph (the shortest way to the edge, or through another edge into it; then the shortest way on
to an end, where a decide past the edge may take its own way), then said: an answer
edge by one of its example phrases (or a line of its built-in intent), a fallback by a line
that fits no edge (said as often as the question allows tries), a global by its intent's
phrase, and a decide edge by the values captured on the way (or the call's variables) that
make its condition the first to hold. Every line is checked with the runner's own pieces
(`offline_choice`, `global_intent`, `capture`, `holds`), so the flow runner fed the lines
takes the path (tests/lab/test_starter.py replays each in text). A transfer's way on when it
fails, which no callee line steers, is not covered."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from callwright.compliance import disclosure
from callwright.lab.contract import (
    MENU_DEPTH_MAX,
    MENU_KEYS,
    Callee,
    DeskSpec,
    Expectations,
    MenuSpec,
    SaysWithin,
    Scenario,
)
from callwright.models import Agent
from callwright.voice_agent.flow_graph import (
    PLACEHOLDER,
    ActionNode,
    AskNode,
    DecideNode,
    Edge,
    EndCallAction,
    FlowGraph,
    GlobalNode,
    TransferAction,
    VoicemailAction,
)
from callwright.voice_agent.flow_runner import capture, global_intent, holds, offline_choice
from callwright.voice_agent.policy import OPT_OUT_REPLY, Intent, classify

#: Seconds after the answer by which the AI disclosure must have been said.
DISCLOSURE_SECONDS = 10.0
#: The suites the starter scenarios are in: the agent's callees, and a flow's branches.
AGENT_SUITE = "starter"
BRANCH_SUITE = "branches"
PHRASE_MAX = 300
VOICEMAIL_GREETING = (
    "Hi, you have reached Alex. I can't take your call right now. "
    "Please leave a message after the tone."
)
#: What a callee says for each built-in answer intent (the first that picks the edge is used).
INTENT_LINES: dict[str, tuple[str, ...]] = {
    "yes": ("Yes, that's right.", "Yes.", "Sure, go ahead."),
    "no": ("No.", "No, I don't think so.", "Nope."),
    "later": ("Maybe later.", "Another time, perhaps."),
    "not_interested": ("No thanks, I'm not interested.", "I'm not interested."),
    "wrong_person": ("Sorry, you have the wrong number.", "There's no one here by that name."),
    "question": ("What is this about?", "How does that work?"),
}
#: What a callee says for each global intent.
GLOBAL_LINES: dict[str, tuple[str, ...]] = {
    "person": ("Can I speak to a real person, please?", "I want to talk to a human."),
    "opt_out": ("Please stop calling me and take me off your list.",),
    "robot": ("Am I talking to a robot?", "Are you a robot?"),
    "busy": ("Sorry, I'm busy right now.", "I can't talk right now."),
}
#: Lines that fit no answer (a fallback's tries).
ASIDES = (
    "Hmm, the weather is lovely here today.",
    "My cat just walked across the keyboard.",
    "Purple has always been my favourite colour.",
)
#: Values a captured variable is tried with to steer a decide node, beside its conditions'.
SAMPLES = ("yes", "no", "3", "12", "Friday at 2 pm", "My name is Alex Smith")
#: A variable's value when the call gives none (by its type), so the lines read naturally.
TYPE_SAMPLES = {"name": "Sam", "number": "3", "date": "tomorrow", "time": "3 pm", "yes_no": "yes"}
#: Candidate lines tried per ask, at most (the search over captured values stays small).
CANDIDATES_MAX = 60


# From an agent -------------------------------------------------------------------------


def disclosure_phrase(agent: Agent) -> str | None:
    """What the agent's disclosure check looks for: the spoken disclosure (the agent's
    wording, or the default, with the recording notice); where it holds `{{variables}}`, its
    longest part without one. None: nothing fixed to look for."""
    spoken = disclosure.spoken(agent.disclosure)
    if not PLACEHOLDER.search(spoken) and len(spoken) <= PHRASE_MAX:
        return spoken
    pieces = PLACEHOLDER.split(spoken)[::2]
    parts = [_whole_words(p, i > 0, i < len(pieces) - 1) for i, p in enumerate(pieces)]
    best = max(parts, key=len, default="")
    return best[:PHRASE_MAX].rsplit(" ", 1)[0] if len(best) > PHRASE_MAX else best or None


def _whole_words(piece: str, after: bool, before: bool) -> str:
    """A piece of text between placeholders, less the word part it shares with one ("'s" of
    "{{company}}'s")."""
    words = piece.split()
    if after and words and not piece[:1].isspace():
        words = words[1:]
    if before and words and not piece[-1:].isspace():
        words = words[:-1]
    return " ".join(words).strip(" ,;:")


def opt_out_reply(graph: FlowGraph | None) -> str:
    """What the agent says to an opt-out: the flow's opt-out global's line, else the
    standard acknowledgement (voice_agent/policy.py OPT_OUT_REPLY)."""
    for node in graph.nodes if graph else []:
        if isinstance(node, GlobalNode) and node.intent == "opt_out" and node.text:
            return node.text if not PLACEHOLDER.search(node.text) else OPT_OUT_REPLY
    return OPT_OUT_REPLY


#: The callees every agent meets, by scenario name (the sandbox's personas, as data).
CALLEES: dict[str, Callee] = {
    "Happy path": Callee(
        label="agrees to everything",
        lines=[
            "Yes, speaking.",
            "Yes, that sounds good.",
            "Yes, that works for me.",
            "Yes, please.",
            "Thank you, goodbye.",
        ],
    ),
    "Decline": Callee(label="not interested", lines=["No thanks, I'm not interested.", "Goodbye."]),
    "Wrong person": Callee(
        label="the wrong person", lines=["Sorry, you have the wrong number.", "Bye."]
    ),
    "Voicemail": Callee(kind="voicemail", label="a voicemail greeting", hello=VOICEMAIL_GREETING),
    "Opt-out": Callee(
        kind="opts-out",
        label="asks not to be called again",
        lines=["Please stop calling me and take me off your list.", "Bye."],
    ),
    "Asks for a person": Callee(
        kind="wants-a-person",
        label="asks for a real person",
        lines=[
            "Can I speak to a real person, please?",
            "I would really rather talk to a person.",
            "Okay, never mind. Goodbye.",
        ],
        joined=["Hi. I have a question, please.", "Great, thank you so much."],
    ),
    "Interrupter": Callee(
        kind="interrupts",
        label="talks over the agent",
        lines=["Yes, this is me.", "Okay. Thanks, goodbye."],
        interruption="Sorry, can I stop you there? What is this call about?",
    ),
    "Silent callee": Callee(kind="silent", label="answers and says nothing"),
}


def agent_expectations(agent: Agent, graph: FlowGraph | None = None) -> dict[str, Expectations]:
    """What each of `CALLEES` should lead to with this agent: the outcome, the disclosure
    within 10 s (an interrupter: at any time, as a disclosure cut off is said again with the
    next reply), the opt-out's reply, handed to a person or not."""
    phrase = disclosure_phrase(agent)
    says = [SaysWithin(phrase=phrase, within_seconds=DISCLOSURE_SECONDS)] if phrase else []
    return {
        "Happy path": Expectations(outcome="completed", says=says, transferred=False),
        "Decline": Expectations(outcome="completed", says=says, transferred=False),
        "Wrong person": Expectations(outcome="completed", says=says),
        "Voicemail": Expectations(outcome="voicemail", transferred=False),
        "Opt-out": Expectations(
            outcome="completed", says=[*says, SaysWithin(phrase=opt_out_reply(graph))]
        ),
        "Asks for a person": Expectations(outcome="transferred", says=says, transferred=True),
        "Interrupter": Expectations(
            outcome="completed", says=[SaysWithin(phrase=phrase)] if phrase else []
        ),
        # The sandbox's silent callee gives up and hangs up after 45 s (the agent keeps the
        # line open while nobody speaks).
        "Silent callee": Expectations(outcome="callee-hung-up", says=says),
    }


def agent_suite(agent: Agent, graph: FlowGraph | None = None) -> list[Scenario]:
    """The eight callees every agent meets (the request for a person only when it has a
    transfer number or departments), and a phone menu when its calls press keys once
    answered; `graph`: the flow the agent follows, if any."""
    expect = agent_expectations(agent, graph)
    can_transfer = bool(agent.transfer_number or agent.transfer_list)
    made = [
        Scenario(
            name=name,
            suite=AGENT_SUITE,
            callee=callee.model_copy(deep=True),
            expect=expect[name],
        )
        for name, callee in CALLEES.items()
        if can_transfer or name != "Asks for a person"
    ]
    menu = phone_menu_scenario(agent.precall_dtmf_sequence or "")
    return made + ([menu] if menu is not None else [])


#: The person at the end of the starter suite's phone menu.
DESK_LINES = [
    "Hi, this is Robin. How can I help you?",
    "Sure, I can help with that.",
    "You're welcome. Goodbye.",
]


def phone_menu_scenario(sequence: str) -> Scenario | None:
    """For an agent whose calls press `sequence` once answered (its precall DTMF sequence): a
    phone menu where those keys, menu after menu, reach a person (another key on each menu: a
    closed line). It expects the keys pressed and the person's first line heard. None when the
    keys are not a way through a menu (none, `*` in them, or more than `MENU_DEPTH_MAX`)."""
    keys = sequence.replace("w", "")
    if not keys or "*" in keys or len(keys) > MENU_DEPTH_MAX:
        return None
    target: MenuSpec | DeskSpec = DeskSpec(desk="Robin", lines=DESK_LINES)
    for depth, key in reversed(list(enumerate(keys))):
        other = next(k for k in MENU_KEYS if k != key)
        opening = "Thanks for calling. " if depth == 0 else ""
        prompt = f"{opening}To reach a person, press {key}. For opening hours, press {other}."
        target = MenuSpec(
            prompt=prompt, options={key: target, other: "We are open nine to five on weekdays."}
        )
    assert isinstance(target, MenuSpec)
    callee = Callee(kind="ivr", label="a phone menu, then a person", menu=target)
    expect = Expectations(keys=keys, callee_says=[DESK_LINES[0]])
    return Scenario(name="Phone menu", suite=AGENT_SUITE, callee=callee, expect=expect)


# From a flow ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One move of a route: an edge taken, or a global fired from the question it waits at."""

    edge: Edge | None = None
    jump: GlobalNode | None = None


@dataclass
class Said:
    """A route said: the callee's lines, the variables they captured and the call's own."""

    lines: list[str] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)
    pinned: set[str] = field(default_factory=set)
    #: The moves taken (past its target, a route may go its own way at a decide).
    moves: list[Move] = field(default_factory=list)


def _ends(graph: FlowGraph, node_id: str) -> bool:
    """Whether a route stops at the node: an end, a voicemail, a transfer (taken as reaching
    the person), a global that ends, or a node with no way on."""
    node = graph.node(node_id)
    if isinstance(node, ActionNode) and isinstance(
        node.action, EndCallAction | VoicemailAction | TransferAction
    ):
        return True
    if isinstance(node, GlobalNode) and node.then == "end":
        return True
    return not isinstance(node, AskNode) and not graph.edges_from(node_id)


def _ways(graph: FlowGraph, node_id: str, jumps: bool) -> Iterator[tuple[Move, str]]:
    """The moves out of a node and where each leads: its edges; from an ask, with `jumps`,
    also the globals that lead on (`goto`) or end."""
    if _ends(graph, node_id):
        return
    for edge in graph.edges_from(node_id):
        yield Move(edge=edge), edge.target
    if jumps and isinstance(graph.node(node_id), AskNode):
        for node in graph.nodes:
            if isinstance(node, GlobalNode) and node.then != "return":
                yield Move(jump=node), node.id


def _shortest(graph: FlowGraph, start: str, goal: str | None) -> list[Move] | None:
    """The fewest moves from `start` to the node `goal` (None: to any end): by edges alone
    when they get there, else firing globals too."""
    for jumps in (False, True):
        reached: dict[str, list[Move]] = {start: []}
        queue = deque([start])
        while queue:
            node_id = queue.popleft()
            if node_id == goal or (goal is None and _ends(graph, node_id)):
                return reached[node_id]
            for move, following in _ways(graph, node_id, jumps):
                if following not in reached:
                    reached[following] = [*reached[node_id], move]
                    queue.append(following)
    return None


def _first_ask(graph: FlowGraph) -> str | None:
    reached: dict[str, None] = {graph.start_node_id: None}
    queue = deque([graph.start_node_id])
    while queue:
        node_id = queue.popleft()
        if isinstance(graph.node(node_id), AskNode):
            return node_id
        for edge in graph.edges_from(node_id):
            if edge.target not in reached:
                reached[edge.target] = None
                queue.append(edge.target)
    return None


def _befores(graph: FlowGraph, node_id: str) -> Iterator[list[Move]]:
    """Ways from the start to the node: the shortest, then the shortest through each edge
    into it (another way may capture what a decide there tests)."""
    shortest = _shortest(graph, graph.start_node_id, node_id)
    if shortest is not None:
        yield shortest
    for edge in graph.edges:
        if edge.target == node_id and edge.source != node_id:
            before = _shortest(graph, graph.start_node_id, edge.source)
            if before is not None and [*before, Move(edge=edge)] != shortest:
                yield [*before, Move(edge=edge)]


def _routes_through(
    graph: FlowGraph, target: Edge | GlobalNode
) -> Iterator[tuple[list[Move], int]]:
    """Routes from the start through the edge (or firing the global from the first
    question) on to an end, each with how many of its moves lead to and through the target."""
    if isinstance(target, GlobalNode):
        ask = _first_ask(graph)
        before = _shortest(graph, graph.start_node_id, ask) if ask else None
        if ask is None or before is None:
            return
        fired = [*before, Move(jump=target)]
        after = _shortest(graph, ask, None) if target.then == "return" else []
        if after is not None:
            yield [*fired, *after], len(fired)
        return
    after = _shortest(graph, target.target, None)
    if after is None:
        return
    for before in _befores(graph, target.source):
        yield [*before, Move(edge=target), *after], len(before) + 1


def sentence(phrase: str) -> str:
    """An example phrase as the callee says it: a capital first letter and a full stop."""
    text = phrase.strip()
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".?!" else f"{text}."


def near_miss(phrase: str) -> str:
    """The phrase's words said another way (a plural, the words turned round): the runner
    may still take its edge by the words, while an extractor finds no value in it ("Week
    next." has no date), which a decide testing that nothing was captured needs."""
    words = phrase.split()
    return sentence(" ".join(reversed(words)) if len(words) > 1 else f"{phrase}s")


def _fits(line: str, edges: Sequence[Edge], wanted: str | None) -> bool:
    """Whether the runner takes the edge `wanted` (None: no answer edge, and no greeting) for
    `line` at the ask whose edges these are, with no global firing."""
    if global_intent(line) is not None:
        return False
    chosen = offline_choice(line, list(edges)).edge
    if wanted is None:
        return chosen is None and classify(line) is not Intent.GREETING
    return chosen is not None and chosen.id == wanted


def _samples(graph: FlowGraph, variables: set[str]) -> list[str]:
    """Values that may steer a decide on these variables: the conditions' own values, the
    numbers either side of them, and a few of each type."""
    found: list[str] = []
    for edge in graph.edges:
        c = edge.condition
        if c is None or c.variable not in variables or c.value is None:
            continue
        found.append(c.value)
        try:
            number = float(c.value)
        except ValueError:
            continue
        found += [f"{number + 1:g}", f"{number - 1:g}"]
    return list(dict.fromkeys([*found, *SAMPLES]))


def _steering(graph: FlowGraph) -> set[str]:
    """The variables a decide node tests."""
    return {e.condition.variable for e in graph.edges if e.condition is not None}


def _ask_lines(graph: FlowGraph, ask: AskNode, edge: Edge) -> list[list[str]]:
    """What the callee may say at the ask for the runner to take the edge: each option is
    the lines said there (a fallback: one per try). Where the ask captures a variable a
    decide tests, options carrying values follow the plain ones."""
    edges = graph.edges_from(ask.id)
    wanted = None if edge.kind == "fallback" else edge.id
    bases = (
        list(ASIDES)
        if wanted is None
        else [sentence(p) for p in edge.phrases] + list(INTENT_LINES.get(edge.intent or "", ()))
    )
    steered = {c.variable for c in ask.capture} & _steering(graph)
    candidates = list(bases)
    if steered:
        candidates += [near_miss(p) for p in edge.phrases]
        for sample in _samples(graph, steered):
            candidates += [
                sample,
                *(f"{sample} {b}" for b in bases),
                *(f"{b} {sample}" for b in bases),
            ]
    fitting = [c for c in dict.fromkeys(candidates) if _fits(c, edges, wanted)]
    tries = ask.max_tries if wanted is None else 1
    options = [[line] * tries for line in fitting[:CANDIDATES_MAX]]
    return options if steered else options[:1]


def _decided(graph: FlowGraph, node: DecideNode, variables: Mapping[str, str]) -> str | None:
    """The edge the runner takes out of a decide node: the first condition that holds, else
    the fallback (flow_runner.FlowRunner._decide)."""
    out = graph.edges_from(node.id)
    for edge in out:
        if edge.kind == "condition" and edge.condition and holds(edge.condition, variables):
            return edge.id
    return next((e.id for e in out if e.kind == "fallback"), None)


def _captured_anywhere(graph: FlowGraph) -> set[str]:
    return {c.variable for n in graph.nodes if isinstance(n, AskNode) for c in n.capture}


def _givens(graph: FlowGraph, node: DecideNode, said: Said) -> Iterator[dict[str, str]]:
    """The call's variables a decide may be steered by (tested there, captured nowhere, not
    set for an earlier decide): each assignment worth trying, the current one first."""
    tested = {e.condition.variable for e in graph.edges_from(node.id) if e.condition}
    free = sorted(tested - _captured_anywhere(graph) - said.pinned)
    yield {}
    for name in free:
        for value in ["", *_samples(graph, {name})]:
            yield {name: value}


#: The most moves a route may take (a flow that loops back on itself stays finite).
ROUTE_MAX = 100
#: The most partial routes tried for one target (lines at questions that capture what a
#: decide tests multiply): past it, the target is left uncovered rather than searched long.
TRIES_MAX = 20_000


@dataclass
class Budget:
    """How many more partial routes the search may try."""

    left: int = TRIES_MAX


def _then(
    said: Said, move: Move, lines: Sequence[str] = (), variables: Mapping[str, str] | None = None
) -> Said:
    """`said` after the move: its lines added, its captures over the variables."""
    return Said(
        [*said.lines, *lines],
        {**said.variables, **(variables or {})},
        said.pinned,
        [*said.moves, move],
    )


def _rerouted(graph: FlowGraph, node: DecideNode, said: Said) -> list[Move] | None:
    """Past the route's target, where a decide goes another way than the route planned: its
    own way, then the shortest way on to an end."""
    chosen = _decided(graph, node, said.variables)
    edge = next((e for e in graph.edges if e.id == chosen), None)
    after = _shortest(graph, edge.target, None) if edge is not None else None
    return None if edge is None or after is None else [Move(edge=edge), *after]


def _realise(
    graph: FlowGraph, moves: Sequence[Move], said: Said, today: date, fixed: int, budget: Budget
) -> Said | None:
    """The route said: the callee's lines (and the call's variables) for which the runner
    takes each of its moves; None when no lines tried do. The first `fixed` moves lead to
    and through the route's target; past them, a decide may take its own way."""
    if not moves:
        return said
    budget.left -= 1
    if budget.left < 0 or len(said.moves) >= ROUTE_MAX:
        return None
    move, rest = moves[0], moves[1:]
    if move.jump is not None:
        intent = move.jump.intent
        line = next((x for x in GLOBAL_LINES[intent] if global_intent(x) == intent), None)
        if line is None:
            return None
        return _realise(graph, rest, _then(said, move, [line]), today, fixed - 1, budget)
    edge = move.edge
    assert edge is not None
    node = graph.node(edge.source)
    if isinstance(node, AskNode):
        for lines in _ask_lines(graph, node, edge):
            captured: dict[str, str] = {}
            for line in lines:
                captured.update(capture(node.capture, line, today))
            found = _realise(
                graph, rest, _then(said, move, lines, captured), today, fixed - 1, budget
            )
            if found is not None:
                return found
        return None
    if isinstance(node, DecideNode):
        for given in _givens(graph, node, said):
            if _decided(graph, node, {**said.variables, **given}) == edge.id:
                steered = _then(said, move, variables=given)
                steered.pinned = said.pinned | set(given)
                found = _realise(graph, rest, steered, today, fixed - 1, budget)
                if found is not None:
                    return found
        other = _rerouted(graph, node, said) if fixed <= 0 else None
        return None if other is None else _realise(graph, other, said, today, 0, budget)
    return _realise(graph, rest, _then(said, move), today, fixed - 1, budget)


def path_of(moves: Sequence[Move]) -> list[str]:
    """The nodes a route's steps are logged at, in order (flow_graph.Step): each edge's
    source, each global fired (a `goto` one: by its own edge), then the node it ends at."""
    path: list[str] = []
    for move in moves:
        if move.edge is not None:
            path.append(move.edge.source)
        elif move.jump is not None and move.jump.then != "goto":
            path.append(move.jump.id)
    last = moves[-1] if moves else None
    if last is not None and last.edge is not None:
        path.append(last.edge.target)
    return [n for i, n in enumerate(path) if i == 0 or path[i - 1] != n]


def _ending(graph: FlowGraph, moves: Sequence[Move]) -> Expectations:
    """What the route's end means for the call: handed to a person, or completed by the
    agent (a voicemail message left to a person is left unjudged)."""
    path = path_of(moves)
    last = graph.node(path[-1])
    if isinstance(last, ActionNode) and isinstance(last.action, TransferAction):
        return Expectations(path=path, transferred=True)
    if isinstance(last, ActionNode) and isinstance(last.action, VoicemailAction):
        return Expectations(path=path)
    return Expectations(path=path, outcome="completed")


def default_variables(graph: FlowGraph, given: Mapping[str, str] | None = None) -> dict[str, str]:
    """A value for each variable the call gives the flow (declared, captured by no question):
    a sample of its type, else its name in words; the `given` ones over them."""
    captured = _captured_anywhere(graph)
    values = {
        v.name: TYPE_SAMPLES.get(v.type, v.name.replace("_", " "))
        for v in graph.variables
        if v.name not in captured
    }
    return values | dict(given or {})


def _route(graph: FlowGraph, moves: Sequence[Move]) -> str:
    return " > ".join(graph.node(n).name for n in path_of(moves))


def _name(graph: FlowGraph, number: int, moves: Sequence[Move], via: str = "") -> str:
    """ "Branch 3: Greeting > Confirm > Office will call back", and `via` (the edge the branch
    covers, when another branch goes through the same nodes) after it; 120 characters."""
    head, tail = f"Branch {number}: ", f" (via {via})" if via else ""
    return head + _route(graph, moves)[: 120 - len(head) - len(tail)] + tail


def _named_apart(graph: FlowGraph, made: list[tuple[Scenario, Said, Edge | GlobalNode]]) -> None:
    """Branches through the same nodes (two edges to one node) are named by the edge each
    covers, so no two scenarios of the suite share a name."""
    routes = Counter(_route(graph, said.moves) for _, said, _ in made)
    for number, (scenario, said, target) in enumerate(made, start=1):
        if routes[_route(graph, said.moves)] > 1:
            via = (target.label or target.kind) if isinstance(target, Edge) else target.name
            scenario.name = _name(graph, number, said.moves, via)


def _scenario(graph: FlowGraph, number: int, said: Said) -> Scenario:
    lines = list(said.lines)
    if lines and classify(lines[0]) is Intent.VOICEMAIL:
        # Heard before anyone said hello, it would be taken for a voicemail greeting.
        lines.insert(0, "Hello?")
    given = {
        k: v
        for k, v in said.variables.items()
        if k in said.pinned or k not in _captured_anywhere(graph)
    }
    return Scenario(
        name=_name(graph, number, said.moves),
        suite=BRANCH_SUITE,
        callee=Callee(kind="person", label="follows one branch of the flow", lines=lines),
        expect=_ending(graph, said.moves),
        variables={k: v for k, v in given.items() if v},
    )


def _targets(graph: FlowGraph) -> list[Edge | GlobalNode]:
    """What the branches cover: every edge the callee or the variables steer (not a
    transfer's way on when it fails), and every global that returns or ends."""
    transfers = {
        n.id
        for n in graph.nodes
        if isinstance(n, ActionNode) and isinstance(n.action, TransferAction)
    }
    edges: list[Edge | GlobalNode] = [e for e in graph.edges if e.source not in transfers]
    return edges + [n for n in graph.nodes if isinstance(n, GlobalNode) and n.then != "goto"]


def flow_suite(
    graph: FlowGraph, variables: Mapping[str, str] | None = None, today: date | None = None
) -> list[Scenario]:
    """One scenario per branch: routes through the edges (and globals) not covered yet, in
    the graph's order, until every one is on some scenario's path. `variables`: the call's
    values for the flow's variables (samples otherwise)."""
    day = today or date.today()
    start = Said(variables=default_variables(graph, variables))
    covered: set[tuple[str, str]] = set()
    made: list[tuple[Scenario, Said, Edge | GlobalNode]] = []
    for target in _targets(graph):
        key = ("node" if isinstance(target, GlobalNode) else "edge", target.id)
        if key in covered:
            continue
        said = next(
            (
                found
                for moves, fixed in _routes_through(graph, target)
                if (found := _realise(graph, moves, start, day, fixed, Budget())) is not None
            ),
            None,
        )
        if said is None:
            continue
        covered |= {("edge", m.edge.id) for m in said.moves if m.edge}
        covered |= {("node", m.jump.id) for m in said.moves if m.jump}
        made.append((_scenario(graph, len(made) + 1, said), said, target))
    _named_apart(graph, made)
    return [scenario for scenario, _, _ in made]


def starter_suite(
    agent: Agent, graph: FlowGraph | None = None, variables: Mapping[str, str] | None = None
) -> list[Scenario]:
    """An agent's starter suite: its eight callees, then, when it follows the flow `graph`,
    one scenario per branch of it (`variables`: the call's values for the flow's)."""
    branches = flow_suite(graph, variables) if graph is not None else []
    return agent_suite(agent, graph) + branches
