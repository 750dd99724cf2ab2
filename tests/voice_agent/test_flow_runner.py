"""The flow runner (voice_agent/flow_runner.py) over every node kind, edge kind and global, with
the offline chooser; and the editor's "test in text" turn."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from callwright.voice_agent.flow_graph import FlowGraph, FlowState, TextTurnIn
from callwright.voice_agent.flow_runner import (
    NOT_CONNECTED,
    FlowRunner,
    FlowTurnRefused,
    OfflineChooser,
    Turn,
    captured_value,
    global_intent,
    holds,
    offline_choice,
    text_turn,
)
from callwright.voice_agent.policy import OPT_OUT_REPLY, ROBOT_REPLY
from tests.voice_agent.flow_fixtures import flow

#: A Thursday: "Friday" is the next day.
TODAY = date(2026, 12, 3)
VARIABLES = {"appointment_time": "tomorrow at 3 pm"}
QUESTION = (
    "I'm calling about your cleaning appointment tomorrow at 3 pm. Does that time still work "
    "for you?"
)


def runner(graph: FlowGraph | None = None, **kw: Any) -> FlowRunner:
    return FlowRunner(
        graph or flow("appointment"),
        kw.pop("variables", VARIABLES),
        chooser=OfflineChooser(TODAY),
        clock=lambda: 1.5,
        **kw,
    )


def path(turn: Turn) -> list[tuple[str, str | None]]:
    return [(s.node_id, s.edge_id) for s in turn.steps]


async def test_the_opening_says_each_line_up_to_the_first_question() -> None:
    run = runner()
    turn = await run.start()
    assert turn.lines == ["Hi, this is Sarah from Bright Dental.", QUESTION]
    assert path(turn) == [("greet", "e_greet")]
    assert turn.steps[0].reason == "next"
    assert turn.steps[0].at == 1.5
    assert run.state.node_id == "confirm"
    assert not turn.ended


async def test_an_answer_by_its_phrase_goes_on_to_the_end_of_the_call() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Yes, that works for me.")
    assert turn.lines == [
        "Wonderful, you're confirmed for tomorrow at 3 pm.",
        "Thank you, and have a great day. Goodbye.",
    ]
    assert path(turn) == [("confirm", "e_confirm"), ("confirmed", "e_confirmed"), ("bye", None)]
    assert turn.steps[0].reason == "answer 'Confirm' by the phrase 'that works'"
    assert turn.steps[0].heard == "Yes, that works for me."
    assert turn.ended
    assert turn.end_reason == "end_call"
    assert run.state.ended
    assert (await run.hear("Hello?")).parts == [], "an ended flow says nothing more"


async def test_an_answer_by_its_intent() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Yep.")
    assert turn.steps[0].reason == "answer 'Confirm' by the intent 'yes'"
    run = runner()
    await run.start()
    turn = await run.hear("I think you have the wrong number.")
    # The phrase beats the intent on the same edge.
    assert turn.steps[0].reason == "answer 'Wrong person' by the phrase 'wrong number'"
    assert turn.end_reason == "end_call"


async def test_reschedule_captures_the_new_time_and_a_condition_takes_it() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("I can't make it then. Could we reschedule?")
    assert turn.lines == ["No problem. What day and time would suit you better?"]
    # The longer phrase said wins over the shorter one.
    assert turn.steps[0].reason == "answer 'Reschedule' by the phrase 'can't make it'"
    turn = await run.hear("How about Friday at 10 am?")
    assert path(turn) == [
        ("new_time", "e_time"),
        ("got_time", "e_has_time"),
        ("rescheduled", "e_rescheduled"),
        ("bye", None),
    ]
    assert turn.steps[0].captured == {"new_time": "2026-12-04T10:00"}
    assert turn.steps[1].reason == "condition new_time is set"
    assert turn.lines[0] == "Got it, I've moved your appointment to 2026-12-04T10:00."
    assert run.state.variables["new_time"] == "2026-12-04T10:00"


async def test_no_answer_fits_the_retry_line_then_the_fallback() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Hmm, what?")
    assert turn.lines == ["Sorry, I didn't catch that.", QUESTION]
    assert path(turn) == [("confirm", None)]
    assert turn.steps[0].reason == "no answer fit: try 1 of 2"
    assert run.state.tries == 1
    turn = await run.hear("Purple elephants.")
    assert path(turn) == [("confirm", "e_confirm_else"), ("front_desk", None)]
    assert turn.steps[0].reason == "fallback after 2 tries"
    assert turn.lines == ["Let me put you through to our front desk."]
    [transfer] = turn.actions
    assert transfer.waits
    assert transfer.describe() == "transfer (cold) to the call's transfer number"


async def test_a_decide_takes_the_first_condition_that_holds_else_its_fallback() -> None:
    graph = _graph(
        [
            {"id": "check", "kind": "decide", "name": "Check"},
            {"id": "vip", "kind": "say", "name": "VIP", "text": "Welcome back, {{tier}} member."},
            {"id": "other", "kind": "say", "name": "Other", "text": "Hello."},
        ],
        [
            {"id": "c1", "source": "check", "target": "vip", "kind": "condition",
             "condition": {"variable": "tier", "op": "equals", "value": "gold"}},
            {"id": "c2", "source": "check", "target": "other", "kind": "fallback"},
        ],
    )  # fmt: skip
    turn = await runner(graph, variables={"tier": "Gold"}).start()
    assert path(turn)[0] == ("check", "c1")
    assert turn.lines[0] == "Welcome back, Gold member."
    assert turn.steps[0].reason == "condition tier equals gold"
    turn = await runner(graph, variables={}).start()
    assert path(turn)[0] == ("check", "c2")
    assert turn.steps[0].reason == "fallback: no condition held"


async def test_a_transfer_waits_and_goes_on_when_it_fails() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Can I speak to a real person, please?")
    assert path(turn) == [("g_person", "e_person"), ("front_desk", None)]
    assert turn.steps[0].reason == "global 'person'"
    assert turn.lines == ["Of course.", "Let me put you through to our front desk."]
    assert run.waiting_on is not None
    assert run.waiting_on.id == "front_desk"
    assert (await run.hear("Hello?")).parts == [], "nothing but an opt-out while it waits"
    failed = await run.resume(False, line="I'm sorry, the line was busy.")
    assert failed.lines == ["I'm sorry, the line was busy.", NOT_CONNECTED]
    assert failed.steps[0].reason == "transfer did not reach the person"
    assert failed.end_reason == "no_way_on"
    run = runner()
    await run.start()
    await run.hear("Can I talk to a human?")
    done = await run.resume(True)
    assert done.ended
    assert done.end_reason == "transfer"
    assert done.parts == []


async def test_opt_out_ends_the_call_from_anywhere() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Please stop calling me and take me off your list.")
    assert path(turn) == [("g_opt_out", None)]
    assert turn.lines == [OPT_OUT_REPLY], "the global has no line: the rule's"
    assert turn.end_reason == "opt_out"
    graph = flow("appointment")
    graph.nodes = [n for n in graph.nodes if n.id != "g_opt_out"]
    run = runner(graph)
    await run.start()
    turn = await run.hear("Don't call me again. Put me on your do not call list.")
    assert [s.node_id for s in turn.steps] == ["global:opt_out"]
    assert turn.steps[0].reason == "global 'opt_out' (built in)"
    assert turn.end_reason == "opt_out"
    assert turn.lines == [OPT_OUT_REPLY]


async def test_robot_question_returns_to_the_question() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("Wait, are you a robot?")
    assert turn.lines == ["Yes, I'm Sarah, an AI assistant for Bright Dental.", QUESTION]
    assert path(turn) == [("g_robot", None)]
    assert not turn.ended
    assert run.state.node_id == "confirm"
    graph = flow("appointment")
    graph.nodes = [n for n in graph.nodes if n.id != "g_robot"]
    run = runner(graph)
    await run.start()
    turn = await run.hear("Is this a real person?")
    assert turn.lines == [ROBOT_REPLY, QUESTION], "the disclosure holds without a global"


async def test_busy_ends_but_a_day_is_not_busy() -> None:
    run = runner()
    await run.start()
    turn = await run.hear("I'm busy right now, sorry.")
    assert path(turn) == [("g_busy", None)]
    assert turn.end_reason == "end_call"
    assert global_intent("How about tomorrow at 10 am?") is None
    assert global_intent("Can you call me back later?") == "busy"
    assert global_intent("Can I speak to a real person?") == "person"
    assert global_intent("Am I talking to a machine?") == "robot"


async def test_a_global_before_the_opening_then_the_opening() -> None:
    run = runner()
    turn = await run.hear("Hello, is this a recording?")
    assert turn.lines[0].startswith("Yes, I'm Sarah")
    assert turn.lines[1:] == ["Hi, this is Sarah from Bright Dental.", QUESTION]
    run = runner()
    turn = await run.hear("Hello?")
    assert turn.lines == ["Hi, this is Sarah from Bright Dental.", QUESTION]


def _graph(nodes: list[dict[str, Any]], edges: list[dict[str, Any]]) -> FlowGraph:
    return FlowGraph.model_validate(
        {"start_node_id": nodes[0]["id"], "nodes": nodes, "edges": edges}
    )


async def test_keys_go_on_and_a_tool_waits_for_its_answer() -> None:
    graph = _graph(
        [
            {"id": "hi", "kind": "say", "name": "Hi", "text": "Hello {{first_name}}."},
            {"id": "keys", "kind": "action", "name": "Keys",
             "action": {"type": "press_digits", "digits": "1w2"}},
            {"id": "look", "kind": "action", "name": "Look up",
             "action": {"type": "tool", "tool": "check_calendar",
                        "arguments": {"day": "{{day}}", "limit": 3},
                        "result_variable": "slots"}},
            {"id": "tell", "kind": "say", "name": "Tell", "text": "I have {{slots}}."},
            {"id": "end", "kind": "action", "name": "End", "action": {"type": "end_call"}},
        ],
        [
            {"id": "a", "source": "hi", "target": "keys"},
            {"id": "b", "source": "keys", "target": "look"},
            {"id": "c", "source": "look", "target": "tell"},
            {"id": "d", "source": "tell", "target": "end"},
        ],
    )  # fmt: skip
    run = runner(graph, variables={"first_name": "Ann", "day": "Tuesday"})
    turn = await run.start()
    assert turn.parts[0] == "Hello Ann."
    keys, tool = turn.actions
    assert keys.describe() == "press keys 1w2"
    assert not keys.waits
    assert tool.arguments == {"day": "Tuesday", "limit": 3}
    assert tool.waits
    assert path(turn) == [("hi", "a"), ("keys", "b"), ("look", None)]
    turn = await run.resume(True, "2 pm and 4 pm")
    assert turn.steps[0].reason == "tool 'check_calendar' answered"
    assert turn.steps[0].captured == {"slots": "2 pm and 4 pm"}
    assert turn.lines == ["I have 2 pm and 4 pm.", "Thank you for your time. Goodbye."]
    assert turn.end_reason == "end_call"


async def test_a_node_with_no_way_on_ends_the_flow() -> None:
    graph = _graph([{"id": "hi", "kind": "say", "name": "Hi", "text": "Hello."}], [])
    turn = await runner(graph).start()
    assert turn.end_reason == "no_way_on"
    assert turn.steps[0].reason == "no way on"
    looping = _graph(
        [
            {"id": "a", "kind": "decide", "name": "A"},
            {"id": "b", "kind": "decide", "name": "B"},
        ],
        [
            {"id": "ab", "source": "a", "target": "b", "kind": "fallback"},
            {"id": "ba", "source": "b", "target": "a", "kind": "fallback"},
        ],
    )
    turn = await runner(looping).start()
    assert turn.end_reason == "no_way_on", "a loop without a question ends"


def test_voicemail_leaves_the_flows_message() -> None:
    run = runner()
    turn = run.voicemail()
    assert turn.lines == [
        "Hi, this is Sarah from Bright Dental about your cleaning appointment tomorrow at 3 pm. "
        "Please call us back to confirm. Goodbye."
    ]
    assert path(turn) == [("voicemail", None)]
    assert turn.end_reason == "voicemail"


@pytest.mark.parametrize(
    ("op", "value", "have", "expected"),
    [
        ("is_set", None, "x", True),
        ("is_set", None, "", False),
        ("is_not_set", None, None, True),
        ("equals", "Yes", "yes", True),
        ("not_equals", "yes", "no", True),
        ("contains", "pm", "3 PM", True),
        ("greater_than", "10", "12", True),
        ("less_than", "10", "12", False),
        ("greater_than", "10", "twelve", False),
    ],
)
def test_conditions(op: str, value: str | None, have: str | None, expected: bool) -> None:
    from callwright.voice_agent.flow_graph import Condition

    variables = {} if have is None else {"v": have}
    assert holds(Condition(variable="v", op=op, value=value), variables) is expected


def test_captured_values_by_type() -> None:
    assert captured_value("yes_no", "Yes, I do.", TODAY) == "yes"
    assert captured_value("yes_no", "No.", TODAY) == "no"
    assert captured_value("number", "About twelve of them", TODAY) == "12"
    assert captured_value("date", "Monday at 9:30", TODAY) == "2026-12-07T09:30"
    assert captured_value("time", "Say 4 pm", TODAY) == "16:00"
    assert captured_value("name", "My name is Dana Reyes.", TODAY) == "Dana Reyes"
    assert captured_value("text", "  anything  ", TODAY) == "anything"
    assert captured_value("date", "whenever", TODAY) is None


def test_offline_choice_needs_the_whole_phrase_or_all_its_words() -> None:
    edges = flow("appointment").edges_from("confirm")
    assert offline_choice("That doesn't work for me", edges).edge is not None
    words = offline_choice("Honestly it works, that is fine", edges)
    assert words.edge is not None
    assert words.edge.id == "e_confirm"
    assert words.reason == "answer 'Confirm' by the words of 'that works'"
    assert offline_choice("Blue", edges).edge is None


async def test_text_turn_starts_answers_and_describes_actions() -> None:
    graph = flow("appointment")
    first = await text_turn(graph, TextTurnIn(variables=VARIABLES), today=TODAY)
    assert first.lines == ["Hi, this is Sarah from Bright Dental.", QUESTION]
    assert first.state.node_id == "confirm"
    assert not first.ended
    second = await text_turn(
        graph, TextTurnIn(state=first.state, said="Can I talk to a person?"), today=TODAY
    )
    assert second.lines == ["Of course.", "Let me put you through to our front desk."]
    assert second.actions == ["transfer (cold) to the call's transfer number"]
    assert second.ended
    assert second.end_reason == "transfer"
    assert [s.node_id for s in second.steps] == ["g_person", "front_desk"]
    assert first.state.node_id == "confirm", "the state given is not changed"


async def test_text_turn_refusals() -> None:
    graph = flow("appointment")
    with pytest.raises(FlowTurnRefused, match="Type what the callee says"):
        await text_turn(graph, TextTurnIn(state=FlowState(node_id="confirm"), said=" "))
    with pytest.raises(FlowTurnRefused, match="no longer in the flow"):
        await text_turn(graph, TextTurnIn(state=FlowState(node_id="gone"), said="Yes"))
    ended = await text_turn(
        graph, TextTurnIn(state=FlowState(node_id="bye", ended=True), said="Hi")
    )
    assert ended.lines == []
    assert ended.ended
