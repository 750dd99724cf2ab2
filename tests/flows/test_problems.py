"""`problems(graph)`: each kind of problem that keeps a draft from being published, tied to the
node or edge it is about (voice_agent/flow_graph.py; the editor shows them, publishing refuses)."""

from __future__ import annotations

from typing import Any

import pytest

from callwright.voice_agent.flow_graph import (
    Condition,
    Edge,
    FlowGraph,
    Problem,
    Variable,
    problems,
)


def say(node_id: str, text: str = "Hello.") -> dict[str, Any]:
    return {"id": node_id, "kind": "say", "name": node_id.capitalize(), "text": text}


def ask(node_id: str, text: str = "Yes or no?", **more: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": "ask", "name": node_id.capitalize(), "text": text, **more}


def end(node_id: str) -> dict[str, Any]:
    return {
        "id": node_id,
        "kind": "action",
        "name": node_id.capitalize(),
        "action": {"type": "end_call"},
    }


def edge(edge_id: str, source: str, target: str, kind: str = "next", **more: Any) -> dict[str, Any]:
    return {"id": edge_id, "source": source, "target": target, "kind": kind, **more}


def graph(nodes: list[dict[str, Any]], edges: list[dict[str, Any]], **more: Any) -> FlowGraph:
    return FlowGraph.model_validate(
        {"start_node_id": nodes[0]["id"], "nodes": nodes, "edges": edges} | more
    )


def found(g: FlowGraph) -> list[tuple[str, str | None, str | None]]:
    return [(p.message, p.node_id, p.edge_id) for p in problems(g)]


def good() -> FlowGraph:
    """Hello -> Question (yes -> Bye, fallback -> Bye)."""
    return graph(
        [say("hello"), ask("question"), end("bye")],
        [
            edge("e1", "hello", "question"),
            edge("e2", "question", "bye", "answer", intent="yes"),
            edge("e3", "question", "bye", "fallback"),
        ],
    )


def test_a_sound_graph_has_no_problem() -> None:
    assert problems(good()) == []


def test_structure_problems_come_alone() -> None:
    """Duplicate ids, a missing start, an edge to nowhere: reported before anything else (the
    rest could not be judged)."""
    g = graph(
        [say("a"), say("a"), say("b", "Hi {{nobody}}")],
        [edge("e1", "a", "b"), edge("e1", "b", "ghost")],
        start_node_id="nowhere",
    )
    assert found(g) == [
        ("Two nodes have the id 'a'", "a", None),
        ("Two edges have the id 'e1'", None, "e1"),
        ("The start node 'nowhere' does not exist", None, None),
        ("The edge goes to or from a missing node 'ghost'", None, "e1"),
    ]


def test_an_unreachable_node() -> None:
    g = graph([say("hello"), end("bye"), end("lost")], [edge("e1", "hello", "bye")])
    assert found(g) == [("'Lost' cannot be reached from the start", "lost", None)]


def test_a_node_reached_only_from_a_global_is_reachable() -> None:
    person = {"id": "person", "kind": "global", "name": "Person", "intent": "person"}
    person |= {"then": "goto"}
    g = graph(
        [say("hello"), person, end("transfer")],
        [edge("e1", "person", "transfer")],
    )
    assert problems(g) == []


def test_an_edge_of_the_wrong_kind() -> None:
    g = good()
    g.edges[0].kind = "answer"
    g.edges[0].intent = "yes"
    assert found(g) == [("A say node cannot have a answer edge", "hello", "e1")]


@pytest.mark.parametrize("fallbacks", [0, 2])
def test_an_ask_needs_exactly_one_fallback(fallbacks: int) -> None:
    g = good()
    g.edges = g.edges[:2] + [
        Edge.model_validate(edge(f"f{n}", "question", "bye", "fallback")) for n in range(fallbacks)
    ]
    assert found(g) == [("Ask 'Question' needs exactly one fallback edge", "question", None)]


def test_an_ask_without_answers_and_an_answer_without_phrases() -> None:
    g = graph(
        [say("hello"), ask("question"), end("bye")],
        [edge("e1", "hello", "question"), edge("e3", "question", "bye", "fallback")],
    )
    assert found(g) == [("Ask 'Question' has no answer edge", "question", None)]
    g.edges.append(g.edges[1].model_copy(update={"id": "e4", "kind": "answer", "label": "Yes"}))
    assert found(g) == [("The answer 'Yes' has no phrases and no intent", "question", "e4")]


def test_a_decide_needs_conditions_on_known_variables() -> None:
    decide = {"id": "check", "kind": "decide", "name": "Check"}
    g = graph(
        [say("hello"), decide, end("bye")],
        [
            edge("e1", "hello", "check"),
            edge("e2", "check", "bye", "condition", label="Late"),
            edge("e3", "check", "bye", "fallback"),
        ],
    )
    assert found(g) == [("The condition edge 'Late' has no condition", "check", "e2")]
    g.edges[1].condition = Condition(variable="late", op="is_set")
    assert found(g) == [("The condition 'Late' tests an unknown variable 'late'", "check", "e2")]
    g.variables = [Variable(name="late")]
    assert problems(g) == []
    g.edges = [e for e in g.edges if e.kind != "condition"]
    assert found(g) == [("Decide 'Check' has no condition edge", "check", None)]


def test_more_than_one_way_on() -> None:
    g = graph(
        [say("hello"), end("a"), end("b")], [edge("e1", "hello", "a"), edge("e2", "hello", "b")]
    )
    assert found(g) == [("'Hello' has more than one way on", "hello", None)]


def test_an_ending_cannot_lead_on() -> None:
    g = graph(
        [say("hello"), end("bye"), say("after")],
        [edge("e1", "hello", "bye"), edge("e2", "bye", "after")],
    )
    assert found(g) == [("'Bye' ends the call: it cannot lead on", "bye", None)]


def test_a_global_leads_on_only_with_goto() -> None:
    base = {"id": "robot", "kind": "global", "name": "Robot", "intent": "robot"}
    goto = graph([say("hello"), base | {"then": "goto"}], [])
    assert found(goto) == [("Global 'Robot' needs its one next edge", "robot", None)]
    back = graph([say("hello"), base | {"then": "return"}], [edge("e1", "robot", "hello")])
    assert found(back) == [("Global 'Robot' only leads on with 'goto'", "robot", None)]


def test_unknown_variables_and_the_ones_captures_and_tools_make_known() -> None:
    tool = {
        "id": "look",
        "kind": "action",
        "name": "Look up",
        "action": {
            "type": "tool",
            "tool": "crm",
            "arguments": {"who": "{{who}}"},
            "result_variable": "record",
        },
    }
    g = graph(
        [
            say("hello", "Hi {{ name }}, {{who}}"),
            ask("question", "When?", capture=[{"variable": "when", "type": "date"}]),
            tool,
            say("bye", "See you {{when}}; {{record}}; {{missing}}"),
        ],
        [
            edge("e1", "hello", "question"),
            edge("e2", "question", "look", "answer", intent="yes"),
            edge("e3", "question", "look", "fallback"),
            edge("e4", "look", "bye"),
        ],
        variables=[{"name": "name"}],
    )
    assert found(g) == [
        ("'Hello' uses an unknown variable {{who}}", "hello", None),
        ("'Look up' uses an unknown variable {{who}}", "look", None),
        ("'Bye' uses an unknown variable {{missing}}", "bye", None),
    ]


def test_problems_are_plain_data_for_the_api() -> None:
    problem = Problem(message="x", node_id="n")
    assert problem.model_dump() == {"message": "x", "node_id": "n", "edge_id": None}
