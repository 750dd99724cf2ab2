"""The prompt agent made visible: the flow the offline brain (policy.py) follows for a prompt,
as a `FlowGraph` the user can read and, with "Edit as flow", correct (docs/flows.md, "The prompt
agent as a flow").

It is built from the same `OfflinePolicy` and its `Brief` that run a call: the same greeting,
purpose and questions, and the policy's own lines for each answer (yes, no, later, not
interested, wrong person, goodbye, voicemail), so the flow says what the policy says.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from callwright.voice_agent import policy as p
from callwright.voice_agent.flow_graph import (
    PLACEHOLDER,
    ActionNode,
    AskNode,
    Edge,
    EndCallAction,
    FlowGraph,
    GlobalNode,
    Node,
    Position,
    SayNode,
    TransferAction,
    Variable,
    VoicemailAction,
)
from callwright.voice_agent.policy import ROBOT_REPLY

#: Phrases that mean a voicemail greeting (the policy's voicemail intent, as whole phrases).
VOICEMAIL_PHRASES = ["leave a message", "after the tone", "after the beep", "voicemail", "mailbox"]
GOODBYE_PHRASES = ["goodbye", "good bye", "bye"]
#: The most questions a derived flow holds (each takes 4 nodes and up to 12 edges: 30 keep
#: within a graph's 400 edges).
MAX_QUESTIONS = 30
#: Columns and rows of the drawing.
_X, _DX = 80, 360
_ASK_Y, _LEAD_Y, _END_Y, _GLOBAL_Y = 80, 260, 620, 1000


class TooManyQuestions(ValueError):
    """The prompt asks more questions than a flow holds."""

    def __init__(self, found: int) -> None:
        super().__init__(
            f"The prompt asks {found} questions: a flow made from it holds at most "
            f"{MAX_QUESTIONS}, so it cannot be shown as one"
        )


@dataclass
class _Builder:
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def add(self, node: Node) -> str:
        self.nodes.append(node)
        return node.id

    def edge(self, source: str, target: str, kind: str = "next", **more: object) -> None:
        self.edges.append(
            Edge.model_validate(
                {"id": f"e{len(self.edges) + 1}", "source": source, "target": target, "kind": kind}
                | more
            )
        )

    def end(self, node_id: str, name: str, text: str, column: int) -> str:
        action = EndCallAction(type="end_call", text=text)
        return self.add(
            ActionNode(
                id=node_id,
                name=name,
                kind="action",
                action=action,
                position=Position(x=_X + _DX * column, y=_END_Y),
            )
        )

    def lead(self, node_id: str, text: str, target: str, at: Position) -> str:
        """A short line ("Great.") said on the way to `target`."""
        self.add(SayNode(id=node_id, name=text.rstrip("."), kind="say", text=text, position=at))
        self.edge(node_id, target)
        return node_id


@dataclass(frozen=True)
class _Ask:
    id: str
    name: str
    text: str
    #: A question of the prompt (its answer is awaited: a yes to the last one ends the call).
    question: bool


def _asks(policy: p.OfflinePolicy) -> tuple[list[_Ask], str | None]:
    """The asks in order and the greeting said before the first one (None: the first ask is
    the opening itself, a first sentence)."""
    questions = [
        _Ask(f"q{i}", f"Question {i}", text, True)
        for i, text in enumerate(policy.brief.questions, start=1)
    ]
    if policy.first_sentence:
        opening = " ".join(part for part in (policy.first_sentence, policy.disclosure) if part)
        return [_Ask("opening", "Opening", opening, False), *questions], None
    if not questions:
        questions = [_Ask("minute", "Do you have a minute?", p.DO_YOU_HAVE_A_MINUTE, False)]
    return questions, p.greeting(policy.brief, policy.disclosure)


def _ends(b: _Builder) -> dict[str, str]:
    """The lines that end the call, as the policy says them: one node each."""
    lines = {
        "wrong_person": ("Wrong person", p.WRONG_PERSON_REPLY),
        "not_interested": ("Not interested", p.NOT_INTERESTED_REPLY),
        "tomorrow": ("Call back tomorrow", p.later_reply("tomorrow")),
        "later": ("Call back later", p.later_reply("")),
        "goodbye": ("Goodbye", p.GOODBYE_REPLY),
        "all_set": ("All set", p.ALL_SET_REPLY),
        "agreed": ("Agreed", p.AGREED_REPLY),
        "declined": ("Declined", p.DECLINED_REPLY),
    }
    return {
        key: b.end(f"end_{key}", name, text, column)
        for column, (key, (name, text)) in enumerate(lines.items())
    }


def _common(b: _Builder, ask: str, ends: dict[str, str], voicemail: str | None) -> None:
    """The answers every question meets alike: each ends the call with the policy's line."""
    if voicemail:
        b.edge(ask, voicemail, "answer", label="Voicemail", phrases=VOICEMAIL_PHRASES)
    b.edge(ask, ends["wrong_person"], "answer", label="Wrong person", intent="wrong_person")
    b.edge(ask, ends["not_interested"], "answer", label="Not interested", intent="not_interested")
    b.edge(ask, ends["tomorrow"], "answer", label="Later, tomorrow", phrases=["tomorrow"])
    b.edge(ask, ends["later"], "answer", label="Later", intent="later")
    b.edge(ask, ends["goodbye"], "answer", label="Goodbye", phrases=GOODBYE_PHRASES)


def _way_on(b: _Builder, ask: _Ask, after: str | None, ends: dict[str, str], column: int) -> None:
    """Yes, no and anything else: the policy's lead-in and the next question (`after`), or,
    after the last, the end (a question answered) or the offer."""
    x = _X + _DX * column + _DX // 2
    if after is not None:
        targets = {"yes": after, "no": after, "other": after}
    else:
        targets = {
            "yes": ends["all_set"] if ask.question else "offer",
            "no": ends["declined"],
            "other": "go_ahead",
        }
    leads = {"yes": p.YES_LEAD, "no": p.NO_LEAD, "other": p.OTHER_LEAD}
    for row, (answer, target) in enumerate(targets.items()):
        if target.startswith("end_"):
            way = target
        else:
            at = Position(x=x, y=_LEAD_Y + 120 * row)
            way = b.lead(f"{ask.id}_{answer}", leads[answer], target, at)
        if answer == "other":
            b.edge(ask.id, way, "fallback", label="Anything else")
        else:
            b.edge(ask.id, way, "answer", label=answer.capitalize(), intent=answer)


def _offer(b: _Builder, ends: dict[str, str], voicemail: str | None, column: int) -> None:
    """The offer once the questions are over: "Would you like to go ahead?". Asked after an
    unclear answer (`go_ahead`), a yes is met with the offer made plainly (`offer`), as the
    policy does; a yes to that ends the call agreed."""
    for row, (node_id, name, yes) in enumerate(
        (
            ("offer", "Go ahead?", ends["agreed"]),
            ("go_ahead", "Go ahead? (after an unclear answer)", None),
        )
    ):
        at = Position(x=_X + _DX * column, y=_ASK_Y + 180 * row)
        b.add(AskNode(id=node_id, name=name, kind="ask", text=p.GO_AHEAD, max_tries=1, position=at))
        _common(b, node_id, ends, voicemail)
        if yes is None:
            lead = Position(x=at.x + _DX // 2, y=at.y + 120)
            yes = b.lead(f"{node_id}_yes", p.YES_LEAD, "offer", lead)
        b.edge(node_id, yes, "answer", label="Yes", intent="yes")
        b.edge(node_id, ends["declined"], "answer", label="No", intent="no")
        b.edge(node_id, ends["goodbye"], "fallback", label="Anything else")


def _globals(b: _Builder, policy: p.OfflinePolicy, transfer_mode: str) -> None:
    at = [Position(x=_X + _DX * i, y=_GLOBAL_Y) for i in range(3)]
    b.add(
        GlobalNode(
            id="opt_out",
            name="Opts out",
            kind="global",
            intent="opt_out",
            text=p.OPT_OUT_REPLY,
            then="end",
            position=at[0],
        )
    )
    b.add(
        GlobalNode(
            id="robot",
            name="Asks if this is a robot",
            kind="global",
            intent="robot",
            text=ROBOT_REPLY,
            position=at[1],
        )
    )
    if not policy.can_transfer:
        return
    b.add(
        GlobalNode(
            id="person",
            name="Asks for a person",
            kind="global",
            intent="person",
            then="goto",
            position=at[2],
        )
    )
    transfer = TransferAction(
        type="transfer", mode="warm" if transfer_mode == "warm" else "cold", text=p.CONNECTING
    )
    b.add(
        ActionNode(
            id="transfer",
            name="Transfer to a person",
            kind="action",
            action=transfer,
            position=Position(x=at[2].x, y=_GLOBAL_Y + 180),
        )
    )
    b.edge("person", "transfer")


def derived_flow(
    policy: p.OfflinePolicy, *, leave_voicemail: bool = True, transfer_mode: str = "cold"
) -> FlowGraph:
    """The flow `policy` (a fresh one: nothing said yet) follows, laid out left to right: the
    greeting, one ask per question with the answers it reacts to, the offer, the ends, the
    voicemail message and the globals. More than MAX_QUESTIONS questions: TooManyQuestions."""
    if len(policy.brief.questions) > MAX_QUESTIONS:
        raise TooManyQuestions(len(policy.brief.questions))
    b = _Builder()
    asks, greeting = _asks(policy)
    ends = _ends(b)
    voicemail = None
    if leave_voicemail:
        message = policy.voicemail_message().text
        at = Position(x=_X + _DX * len(ends), y=_END_Y)
        action = VoicemailAction(type="voicemail", text=message)
        voicemail = b.add(
            ActionNode(id="voicemail", name="Voicemail", kind="action", action=action, position=at)
        )
    column = 0
    if greeting is not None:
        at = Position(x=_X, y=_ASK_Y)
        b.add(SayNode(id="greeting", name="Greeting", kind="say", text=greeting, position=at))
        b.edge("greeting", asks[0].id)
        column = 1
    for i, ask in enumerate(asks):
        at = Position(x=_X + _DX * (column + i), y=_ASK_Y)
        b.add(
            AskNode(id=ask.id, name=ask.name, kind="ask", text=ask.text, max_tries=1, position=at)
        )
        _common(b, ask.id, ends, voicemail)
        after = asks[i + 1].id if i + 1 < len(asks) else None
        _way_on(b, ask, after, ends, column + i)
    _offer(b, ends, voicemail, column + len(asks))
    _globals(b, policy, transfer_mode)
    order = {"say": 0, "ask": 0, "action": 1, "global": 2}
    nodes = sorted(_reachable_only(b), key=lambda n: order[n.kind] + (n.id == "transfer"))
    return FlowGraph(
        start_node_id="greeting" if greeting is not None else asks[0].id,
        variables=_variables(b),
        nodes=nodes,
        edges=[e for e in b.edges if e.source in {n.id for n in nodes}],
    )


def _reachable_only(b: _Builder) -> list[Node]:
    """The nodes something leads to (the offer and some ends are not always used)."""
    targets = {e.target for e in b.edges}
    return [n for n in b.nodes if n.id in targets or not n.id.startswith("end_")]


def _variables(b: _Builder) -> list[Variable]:
    """The `{{variables}}` the lines use (the call's, as in the prompt)."""
    names: list[str] = []
    for node in b.nodes:
        texts = [getattr(node, "text", "")]
        if isinstance(node, ActionNode):
            texts.append(getattr(node.action, "text", ""))
        for text in texts:
            names += [n for n in PLACEHOLDER.findall(text or "") if n not in names]
    return [Variable(name=name) for name in names]
