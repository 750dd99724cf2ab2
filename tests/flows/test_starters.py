"""The starter flows (flows/starters/*.json): each a `callwright-flow/1` file whose graph has no
problem, opens with the AI disclosure and the recording notice, declares every variable it uses,
and is laid out for the editor (no two nodes on one spot). The appointment starter has the
branches issue 30 asks of it."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from callwright.compliance.disclosure import checked
from callwright.flows.schemas import STARTER_KEYS
from callwright.flows.service import starters
from callwright.voice_agent.flow_graph import (
    ActionNode,
    AskNode,
    FlowGraph,
    GlobalNode,
    SayNode,
    problems,
)


@pytest.mark.parametrize("key", STARTER_KEYS)
def test_each_starter_can_be_published(key: str) -> None:
    starter = starters()[key]
    assert starter.name
    assert starter.description
    assert problems(starter.graph) == []


@pytest.mark.parametrize("key", STARTER_KEYS)
def test_each_starter_opens_with_the_disclosure(key: str) -> None:
    opening = starters()[key].graph.node(starters()[key].graph.start_node_id)
    assert isinstance(opening, SayNode)
    assert checked(opening.text) is not None  # says it is an AI (else ValueError)
    assert "recorded" in opening.text


@pytest.mark.parametrize("key", STARTER_KEYS)
def test_each_starter_is_laid_out(key: str) -> None:
    graph = starters()[key].graph
    spots = Counter((n.position.x, n.position.y) for n in graph.nodes)
    assert spots.most_common(1)[0][1] == 1
    assert all(n.position.x > 0 and n.position.y > 0 for n in graph.nodes)


@pytest.mark.parametrize("key", STARTER_KEYS)
def test_each_starter_has_globals_for_opting_out_and_robots(key: str) -> None:
    intents = {n.intent for n in starters()[key].graph.nodes if isinstance(n, GlobalNode)}
    assert {"opt_out", "robot"} <= intents


def _path(graph: FlowGraph, *edge_labels: str) -> list[str]:
    """The nodes visited from the start taking the edges with these labels, in order (next
    edges are followed on their own)."""
    node = graph.start_node_id
    visited = [node]
    labels = list(edge_labels)
    while True:
        out = graph.edges_from(node)
        if not out:
            return visited
        nexts = [e for e in out if e.kind == "next"]
        if nexts:
            chosen = nexts[0]
        else:
            label = labels.pop(0)
            chosen = next(e for e in out if e.label == label)
        node = chosen.target
        visited.append(node)


def test_the_appointment_starter_has_every_branch() -> None:
    graph = starters()["appointment"].graph
    assert _path(graph, "Yes") == ["greeting", "confirm", "confirmed"]
    assert _path(graph, "Reschedule", "A day or time", "Yes") == [
        "greeting",
        "confirm",
        "new_time",
        "read_back",
        "rescheduled",
    ]
    new_time = graph.node("new_time")
    assert isinstance(new_time, AskNode)
    assert [(c.variable, c.type) for c in new_time.capture] == [("new_time", "date")]
    read_back = graph.node("read_back")
    assert isinstance(read_back, AskNode)
    assert "{{new_time}}" in read_back.text
    assert _path(graph, "Wrong person") == ["greeting", "confirm", "wrong_person"]
    voicemail = graph.node(_path(graph, "Voicemail")[-1])
    assert isinstance(voicemail, ActionNode)
    assert voicemail.action.type == "voicemail"
    person = next(n for n in graph.nodes if isinstance(n, GlobalNode) and n.intent == "person")
    transfer = graph.node(graph.edges_from(person.id)[0].target)
    assert isinstance(transfer, ActionNode)
    assert transfer.action.type == "transfer"


def test_the_starter_files_are_export_files() -> None:
    from importlib import resources

    folder = resources.files("callwright.flows") / "starters"
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    assert names == sorted(f"{key}.json" for key in STARTER_KEYS)
    for name in names:
        assert json.loads((folder / name).read_text())["format"] == "callwright-flow/1"
