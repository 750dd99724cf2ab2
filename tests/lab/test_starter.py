"""Starter suites (lab/starter.py, docs/lab.md "The starter suite"): the eight callees from an
agent, and a flow's branch scenarios, proved right without placing a call: the flow runner in
text (voice_agent/flow_runner.py `text_turn`, as the editor's "test in text" runs it) fed each
scenario's callee lines takes exactly the scenario's expected path, and together the branches
take every edge."""

from __future__ import annotations

from datetime import date

import pytest

from callwright.compliance.disclosure import DEFAULT_DISCLOSURE
from callwright.flows.service import starters
from callwright.lab.contract import Scenario
from callwright.lab.starter import agent_suite, disclosure_phrase, flow_suite, starter_suite
from callwright.models import Agent
from callwright.voice_agent.flow_graph import FlowGraph, GlobalNode, Step, TextTurnIn
from callwright.voice_agent.flow_runner import text_turn
from callwright.voice_agent.policy import OPT_OUT_REPLY
from tests.voice_agent.flow_fixtures import flow

TODAY = date(2026, 11, 24)
EIGHT = [
    "Happy path",
    "Decline",
    "Wrong person",
    "Voicemail",
    "Opt-out",
    "Asks for a person",
    "Interrupter",
    "Silent callee",
]


def _agent(**values: object) -> Agent:
    fields: dict[str, object] = {
        "user_id": 1,
        "name": "Reminder",
        "prompt": "You are Sam from Bright Dental, confirming tomorrow's cleaning.",
        "disclosure": None,
        "transfer_number": None,
        "transfer_list": None,
    }
    return Agent(**(fields | values))


def test_an_agent_with_a_transfer_number_gets_the_eight_callees() -> None:
    suite = agent_suite(_agent(transfer_number="+15005550011"))
    assert [s.name for s in suite] == EIGHT
    by_name = {s.name: s for s in suite}
    kinds = {s.name: s.callee.kind for s in suite}
    assert kinds == {
        "Happy path": "person",
        "Decline": "person",
        "Wrong person": "person",
        "Voicemail": "voicemail",
        "Opt-out": "opts-out",
        "Asks for a person": "wants-a-person",
        "Interrupter": "interrupts",
        "Silent callee": "silent",
    }
    happy = by_name["Happy path"].expect
    assert (happy.outcome, happy.transferred) == ("completed", False)
    assert [(s.phrase, s.within_seconds) for s in happy.says] == [(DEFAULT_DISCLOSURE, 10.0)]
    assert by_name["Voicemail"].expect.outcome == "voicemail"
    assert by_name["Silent callee"].expect.outcome == "callee-hung-up"
    opt_out = by_name["Opt-out"].expect
    assert [s.phrase for s in opt_out.says] == [DEFAULT_DISCLOSURE, OPT_OUT_REPLY]
    person = by_name["Asks for a person"].expect
    assert (person.outcome, person.transferred) == ("transferred", True)
    interrupter = by_name["Interrupter"].expect
    assert [(s.phrase, s.within_seconds) for s in interrupter.says] == [(DEFAULT_DISCLOSURE, None)]
    for scenario in suite:
        # What a user edits in the JSON view reads back as the same scenario.
        assert Scenario.model_validate_json(scenario.model_dump_json()) == scenario


def test_no_request_for_a_person_without_somewhere_to_transfer() -> None:
    names = [s.name for s in agent_suite(_agent())]
    assert names == [n for n in EIGHT if n != "Asks for a person"]
    with_list = agent_suite(_agent(transfer_list={"sales": "+15005550011"}))
    assert "Asks for a person" in [s.name for s in with_list]


def test_the_disclosure_checked_is_the_agent_s_own_wording() -> None:
    assert disclosure_phrase(_agent()) == DEFAULT_DISCLOSURE
    own = _agent(disclosure="I'm Bright Dental's virtual assistant")
    # As the agent says it: the recording notice added to a wording that leaves it out.
    assert disclosure_phrase(own) == "I'm Bright Dental's virtual assistant This call is recorded."
    filled = _agent(disclosure="I'm {{company}}'s AI assistant, and this call is recorded.")
    assert disclosure_phrase(filled) == "AI assistant, and this call is recorded."
    says = agent_suite(own)[0].expect.says
    assert says[0].phrase.startswith("I'm Bright Dental's virtual assistant")


def test_a_flow_agent_s_opt_out_is_its_flow_s_line() -> None:
    graph = starters()["appointment"].graph
    opt_out = next(s for s in agent_suite(_agent(), graph) if s.name == "Opt-out")
    assert opt_out.expect.says[-1].phrase == (
        "Understood. I'll make sure you're not called again. Goodbye."
    )


def test_an_agent_on_a_flow_gets_its_callees_and_the_flow_s_branches() -> None:
    graph = starters()["appointment"].graph
    suite = starter_suite(_agent(flow_id="flow-1"), graph, {"business_name": "Bright Dental"})
    names = [s.name for s in suite]
    assert names[:7] == [n for n in EIGHT if n != "Asks for a person"]
    branches = suite[7:]
    assert [s.name for s in branches] == [s.name for s in flow_suite(graph, today=TODAY)]
    assert all(s.variables["business_name"] == "Bright Dental" for s in branches)
    assert len(set(names)) == len(names)
    assert [s.name for s in starter_suite(_agent())] == names[:7]


async def _replay(graph: FlowGraph, scenario: Scenario) -> list[Step]:
    """The scenario's callee lines through the runner in text, one turn each."""
    out = await text_turn(graph, TextTurnIn(variables=scenario.variables), today=TODAY)
    steps = list(out.steps)
    for line in scenario.callee.lines:
        assert not out.ended, f"{scenario.name}: the flow ended before '{line}'"
        out = await text_turn(graph, TextTurnIn(state=out.state, said=line), today=TODAY)
        steps += out.steps
    assert out.ended, f"{scenario.name}: the flow did not end"
    return steps


def _collapsed(nodes: list[str]) -> list[str]:
    return [n for i, n in enumerate(nodes) if i == 0 or nodes[i - 1] != n]


async def _edges_taken(graph: FlowGraph, suite: list[Scenario]) -> set[str]:
    taken: set[str] = set()
    for scenario in suite:
        steps = await _replay(graph, scenario)
        assert _collapsed([s.node_id for s in steps]) == scenario.expect.path, scenario.name
        taken |= {s.edge_id for s in steps if s.edge_id}
    return taken


@pytest.mark.parametrize("graph", [starters()["appointment"].graph, flow("appointment")])
async def test_the_appointment_flow_s_branches_cover_every_edge(graph: FlowGraph) -> None:
    """The starter's and the tests' appointment flows (the latter with a decide node that
    falls back when no time was captured)."""
    suite = flow_suite(graph, today=TODAY)
    transitions = {
        (path[i], path[i + 1])
        for s in suite
        for path in [s.expect.path or []]
        for i in range(len(path) - 1)
    }
    for edge in graph.edges:
        assert (edge.source, edge.target) in transitions, f"{edge.id} is on no scenario's path"
    assert await _edges_taken(graph, suite) == {e.id for e in graph.edges}
    fired = {node for s in suite for node in s.expect.path or []}
    globals_ = {n.id for n in graph.nodes if isinstance(n, GlobalNode)}
    assert globals_ <= fired, "each global fires somewhere"
    # Named apart past their numbers: two branches through the same nodes say which edge.
    assert len({s.name.split(": ", 1)[1] for s in suite}) == len(suite), [s.name for s in suite]
    assert all(len(s.name) <= 120 for s in suite)


async def test_branch_scenarios_say_how_the_call_ends() -> None:
    suite = flow_suite(starters()["appointment"].graph, today=TODAY)
    by_end: dict[str, Scenario] = {}
    for scenario in suite:
        by_end.setdefault((scenario.expect.path or [])[-1], scenario)
    transfer = by_end["transfer"]
    assert (transfer.expect.transferred, transfer.expect.outcome) == (True, None)
    assert transfer.callee.lines == ["Can I speak to a real person, please?"]
    assert by_end["confirmed"].expect.outcome == "completed"
    assert by_end["opt_out"].expect.outcome == "completed"
    voicemail = by_end["voicemail"]
    assert voicemail.callee.lines[0] == "Hello?", "a voicemail phrase is not the first heard"
    assert voicemail.expect.outcome is None
    assert by_end["confirmed"].variables == {
        "customer_name": "Sam",
        "business_name": "business name",
        "appointment_time": "appointment time",
    }
    given = flow_suite(
        starters()["appointment"].graph, {"business_name": "Bright Dental"}, today=TODAY
    )
    assert given[0].variables["business_name"] == "Bright Dental"


#: Edges no callee line can steer offline: the survey's "Not interested" answer has no phrase
#: and its intent is also the earlier "No" edge's (flow_runner._INTENTS: "no" takes it too).
SHADOWED = {"survey": {"e5"}}


@pytest.mark.parametrize("key", ["appointment", "lead_qualification", "payment_reminder", "survey"])
async def test_every_starter_flow_s_branches_take_their_paths(key: str) -> None:
    """Decide nodes too: the lead qualification's team size and the survey's score are
    captured from the lines, and steer their decide both ways."""
    graph = starters()[key].graph
    suite = flow_suite(graph, today=TODAY)
    taken = await _edges_taken(graph, suite)
    assert taken == {e.id for e in graph.edges} - SHADOWED.get(key, set())


async def test_a_decide_on_a_call_variable_is_steered_by_the_scenario_s_variables() -> None:
    graph = FlowGraph.model_validate(
        {
            "start_node_id": "check",
            "variables": [{"name": "plan", "type": "text"}],
            "nodes": [
                {"id": "check", "kind": "decide", "name": "Which plan?"},
                {"id": "gold", "kind": "action", "name": "Gold", "action": {"type": "end_call"}},
                {"id": "other", "kind": "action", "name": "Other", "action": {"type": "end_call"}},
            ],
            "edges": [
                {
                    "id": "c1",
                    "source": "check",
                    "target": "gold",
                    "kind": "condition",
                    "condition": {"variable": "plan", "op": "equals", "value": "Gold"},
                },
                {"id": "c2", "source": "check", "target": "other", "kind": "fallback"},
            ],
        }
    )
    suite = flow_suite(graph, today=TODAY)
    assert [s.expect.path for s in suite] == [["check", "gold"], ["check", "other"]]
    assert suite[0].variables == {"plan": "Gold"}
    assert await _edges_taken(graph, suite) == {"c1", "c2"}


def _end(node_id: str) -> dict[str, object]:
    return {"id": node_id, "kind": "action", "name": node_id, "action": {"type": "end_call"}}


async def test_past_its_edge_a_branch_goes_the_way_a_decide_takes() -> None:
    """ "Right" skips the question that captures `size`: the decide after it can only fall
    back, whatever way on the graph's shortest route planned."""
    graph = FlowGraph.model_validate(
        {
            "start_node_id": "q1",
            "nodes": [
                {"id": "q1", "kind": "ask", "name": "Which way?", "text": "Left or right?"},
                {
                    "id": "q2",
                    "kind": "ask",
                    "name": "How many?",
                    "text": "How many people?",
                    "capture": [{"variable": "size", "type": "number"}],
                },
                {"id": "d", "kind": "decide", "name": "Big?"},
                _end("end_a"),
                _end("end_big"),
                _end("end_small"),
            ],
            "edges": [
                {
                    "id": "left",
                    "source": "q1",
                    "target": "q2",
                    "kind": "answer",
                    "phrases": ["left"],
                },
                {
                    "id": "right",
                    "source": "q1",
                    "target": "d",
                    "kind": "answer",
                    "phrases": ["right"],
                },
                {"id": "q1_else", "source": "q1", "target": "end_a", "kind": "fallback"},
                {"id": "n", "source": "q2", "target": "d", "kind": "answer", "phrases": ["people"]},
                {"id": "q2_else", "source": "q2", "target": "d", "kind": "fallback"},
                {
                    "id": "big",
                    "source": "d",
                    "target": "end_big",
                    "kind": "condition",
                    "condition": {"variable": "size", "op": "greater_than", "value": "4"},
                },
                {"id": "small", "source": "d", "target": "end_small", "kind": "fallback"},
            ],
        }
    )
    suite = flow_suite(graph, today=TODAY)
    right = next(s for s in suite if s.callee.lines[0] == "Right.")
    assert right.expect.path == ["q1", "d", "end_small"]
    assert await _edges_taken(graph, suite) == {e.id for e in graph.edges}
