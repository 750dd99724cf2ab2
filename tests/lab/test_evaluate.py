"""The lab's judge (lab/evaluate.py, docs/lab.md "Checks"): every kind of expectation, passing
and failing, over hand-made call records, each check named as the scenario names it and with
the evidence that decided it."""

from __future__ import annotations

from typing import Any

from callwright.lab.contract import (
    CallRecord,
    Check,
    Expectations,
    RecordAction,
    RecordLine,
    SaysWithin,
    ToolExpected,
)
from callwright.lab.evaluate import judge, plain, said_in
from callwright.voice_agent.policy import OPT_OUT_REPLY

DISCLOSURE = "I'm an AI assistant, and this call is recorded."


def record(**values: Any) -> CallRecord:
    """An appointment call that was confirmed: the opening with the disclosure at 1.2 s."""
    fields: dict[str, Any] = {
        "call_id": "call-1",
        "outcome": "completed",
        "duration_seconds": 24.5,
        "lines": [
            RecordLine("callee", "Hello?", 0.4),
            RecordLine("agent", "Hi Sam, this is Bright Dental's assistant.", 1.2),
            RecordLine("agent", f"{DISCLOSURE} Can you still make it?", 4.0),
            RecordLine("callee", "Yes, that works.", 9.5),
            RecordLine("agent", "Great, you're all set. Goodbye.", 11.0),
        ],
        "actions": [
            RecordAction("tool", "check_calendar", {"day": "Friday", "slots": 2}, "started", 6.0),
            RecordAction("tool", "check_calendar", {"day": "Friday", "slots": 2}, "succeeded", 6.4),
        ],
        "steps": [
            {"node_id": "greeting", "node_name": "Greeting", "edge_id": "e1", "at": 1.0},
            {"node_id": "confirm", "node_name": "Confirm", "edge_id": None, "at": 5.0},
            {
                "node_id": "confirm",
                "node_name": "Confirm",
                "edge_id": "e3",
                "heard": "Yes, that works.",
                "captured": {"answer": "yes"},
                "at": 9.6,
            },
            {"node_id": "confirmed", "node_name": "Confirmed", "edge_id": None, "at": 9.7},
        ],
        "reply_seconds": [0.8, 1.9, 1.1],
        "values": {"answer": "yes", "new_time": "Friday at 2 pm"},
    }
    return CallRecord(**(fields | values))


def only(expect: Expectations, call: CallRecord | None = None) -> Check:
    checks = judge(expect, call or record())
    assert len(checks) == 1, checks
    return checks[0]


def test_phrases_are_compared_without_case_punctuation_or_extra_spaces() -> None:
    assert plain("Hi,  I'm an   AI!") == "hi im an ai"
    assert said_in("i'm an ai assistant", "Hello. I'M AN  A.I. assistant?") is True
    assert said_in("i'm an ai assistant", "I'm an assistant") is False
    assert said_in("I'm an AI assistant.", "so: i'm an  AI assistant, and") is True
    assert said_in("AI", "I said it") is False, "whole words only"


def test_nothing_expected_is_nothing_checked() -> None:
    assert judge(Expectations(), record()) == []


def test_outcome_passes_and_fails() -> None:
    check = only(Expectations(outcome="completed"))
    assert (check.expectation, check.passed, check.found) == ("outcome", True, "completed")
    assert check.evidence is not None
    assert check.evidence.kind == "call"
    failed = only(Expectations(outcome="voicemail"))
    assert (failed.passed, failed.expected, failed.found) == (False, "voicemail", "completed")
    unknown = only(Expectations(outcome="completed"), record(outcome=None))
    assert (unknown.passed, unknown.found) == (False, "unknown")


def test_says_within_seconds_gives_the_line_and_when() -> None:
    expect = Expectations(says=[SaysWithin(phrase="i'm an AI assistant", within_seconds=10)])
    check = only(expect)
    assert (check.expectation, check.passed) == ("says[0]", True)
    assert check.evidence is not None
    assert (check.evidence.kind, check.evidence.index, check.evidence.at) == ("line", 2, 4.0)
    assert DISCLOSURE in check.evidence.text
    late = only(Expectations(says=[SaysWithin(phrase=DISCLOSURE, within_seconds=3)]))
    assert late.passed is False
    assert late.found == "said at 4.0 s, 1.0 s late"
    assert late.evidence is not None
    assert late.evidence.index == 2


def test_says_fails_when_never_said_and_ignores_the_callee() -> None:
    expect = Expectations(says=[SaysWithin(phrase="see you then"), SaysWithin(phrase="that works")])
    missing, callee_only = judge(expect, record())
    assert (missing.expectation, missing.passed, missing.found) == ("says[0]", False, "never said")
    assert missing.evidence is None
    assert (callee_only.expectation, callee_only.passed) == ("says[1]", False), "the callee's"


def test_a_phrase_due_by_a_time_and_never_said_shows_what_was_said_by_then() -> None:
    lines = [
        RecordLine("agent", "Hi, this is Sarah.", 1.0),
        RecordLine("callee", "Hello?", 3.0),
        RecordLine("agent", "I'm a virtual helper, and this call is recorded.", 5.0),
        RecordLine("agent", "Does tomorrow still work?", 14.0),
    ]
    check = only(
        Expectations(says=[SaysWithin(phrase=DISCLOSURE, within_seconds=10)]), record(lines=lines)
    )
    assert (check.passed, check.found) == (False, "never said; the agent said this instead")
    assert check.evidence is not None
    assert (check.evidence.index, check.evidence.at) == (2, 5.0)
    assert check.evidence.text == "agent: I'm a virtual helper, and this call is recorded."
    # The line the phrase's words are in, not merely the last one by then.
    on = [*lines[:3], RecordLine("agent", "Great. Does tomorrow still work?", 8.0)]
    closest = only(
        Expectations(says=[SaysWithin(phrase=DISCLOSURE, within_seconds=10)]), record(lines=on)
    )
    assert closest.evidence is not None
    assert closest.evidence.index == 2
    late = [RecordLine("agent", "Hello, it's Sarah, I'm an assistant.", 12.0)]
    first = only(
        Expectations(says=[SaysWithin(phrase=DISCLOSURE, within_seconds=10)]), record(lines=late)
    )
    assert first.evidence is not None
    assert first.evidence.index == 0, "none by then: the agent's first line"


def test_says_a_phrase_split_over_two_agent_lines_from_where_it_begins() -> None:
    lines = [
        RecordLine("agent", "Hi there, I'm an AI", 2.0),
        RecordLine("agent", "assistant, and this call is recorded.", 12.0),
    ]
    check = only(
        Expectations(says=[SaysWithin(phrase=DISCLOSURE, within_seconds=10)]), record(lines=lines)
    )
    assert check.passed is True
    assert check.evidence is not None
    assert (check.evidence.index, check.evidence.at) == (0, 2.0)


def test_never_says_gives_the_offending_line_or_none() -> None:
    passed, failed = judge(Expectations(never_says=[OPT_OUT_REPLY, "ALL SET"]), record())
    assert (passed.expectation, passed.passed, passed.evidence) == ("never_says[0]", True, None)
    assert (failed.expectation, failed.passed) == ("never_says[1]", False)
    assert failed.evidence is not None
    assert (failed.evidence.index, failed.evidence.at) == (4, 11.0)
    assert failed.evidence.text == "agent: Great, you're all set. Goodbye."


def test_tools_with_arguments() -> None:
    expect = Expectations(
        tools=[
            ToolExpected(name="check_calendar", arguments={"day": "friday", "slots": "2"}),
            ToolExpected(name="check_calendar", arguments={"day": "Monday"}),
            ToolExpected(name="book"),
        ]
    )
    matched, other_args, never = judge(expect, record())
    assert (matched.expectation, matched.passed) == ("tools[0]", True)
    assert matched.evidence is not None
    assert (matched.evidence.kind, matched.evidence.index, matched.evidence.at) == ("event", 0, 6.0)
    assert (other_args.passed, other_args.found) == (
        False,
        "called with other arguments: {'day': 'Friday', 'slots': 2}",
    )
    assert (never.passed, never.found, never.evidence) == (
        False,
        "not called (tools called: check_calendar)",
        None,
    )


def test_values_from_the_flow_and_the_analysis() -> None:
    expect = Expectations(values={"answer": " YES ", "new_time": "monday", "budget": "10"})
    answer, new_time, budget = judge(expect, record())
    assert (answer.expectation, answer.passed) == ("values.answer", True)
    assert answer.evidence is not None
    assert (answer.evidence.kind, answer.evidence.index) == ("step", 2)
    assert 'from "Yes, that works."' in answer.evidence.text
    assert (new_time.passed, new_time.found) == (False, 'new_time = "Friday at 2 pm"')
    assert new_time.evidence is not None
    assert new_time.evidence.kind == "call", "an analysis field"
    assert (budget.passed, budget.found) == (
        False,
        "budget not captured (values: answer, new_time)",
    )


def test_transferred_or_not() -> None:
    handed = record(
        transferred_to="+15005550011",
        actions=[RecordAction("transfer", "transfer", {"to": "+15005550011"}, "succeeded", 8.0)],
    )
    check = only(Expectations(transferred=True), handed)
    assert (check.expectation, check.passed, check.found) == (
        "transferred",
        True,
        "transferred to +15005550011",
    )
    assert check.evidence is not None
    assert check.evidence.kind == "event"
    assert only(Expectations(transferred=False), handed).passed is False
    kept = only(Expectations(transferred=True))
    assert (kept.passed, kept.found) == (False, "not transferred")
    assert only(Expectations(transferred=False)).passed is True


def test_path_in_order_with_others_between() -> None:
    check = only(Expectations(path=["greeting", "confirmed"]))
    assert (check.expectation, check.passed) == ("path", True)
    assert check.found == "took greeting -> confirm -> confirmed"
    assert check.evidence is not None
    assert (check.evidence.kind, check.evidence.index, check.evidence.at) == ("step", 3, 9.7)
    wrong = only(Expectations(path=["greeting", "new_time", "confirmed"]))
    assert wrong.passed is False
    assert (
        wrong.found
        == "took greeting -> confirm -> confirmed: never reached 'new_time' after 'greeting'"
    )
    assert wrong.evidence is not None
    assert wrong.evidence.index == 0
    backwards = only(Expectations(path=["confirmed", "greeting"]))
    assert backwards.passed is False, "the order holds"
    none = only(Expectations(path=["greeting"]), record(steps=[]))
    assert (none.passed, none.found, none.evidence) == (False, "no flow step was taken", None)


def test_max_call_seconds() -> None:
    check = only(Expectations(max_call_seconds=30))
    assert (check.expectation, check.passed, check.found) == ("max_call_seconds", True, "24.5 s")
    assert only(Expectations(max_call_seconds=20)).passed is False
    never = only(Expectations(max_call_seconds=30), record(duration_seconds=None))
    assert (never.passed, never.found) == (False, "never answered")


def test_max_reply_seconds_gives_the_slowest_reply() -> None:
    check = only(Expectations(max_reply_seconds=2))
    assert (check.expectation, check.passed) == ("max_reply_seconds", True)
    assert check.evidence is not None
    assert (check.evidence.kind, check.evidence.index) == ("latency", 1)
    slow = only(Expectations(max_reply_seconds=1.5))
    assert (slow.passed, slow.found) == (False, "slowest reply 1.90 s (reply 2 of 3)")
    quiet = only(Expectations(max_reply_seconds=1), record(reply_seconds=[]))
    assert (quiet.passed, quiet.found) == (True, "no reply measured")


def test_every_expectation_is_one_check_in_order() -> None:
    expect = Expectations(
        outcome="completed",
        values={"answer": "yes"},
        says=[SaysWithin(phrase="AI assistant", within_seconds=10), SaysWithin(phrase="goodbye")],
        never_says=["stop calling"],
        tools=[ToolExpected(name="check_calendar")],
        transferred=False,
        path=["greeting", "confirm", "confirmed"],
        max_call_seconds=60,
        max_reply_seconds=2.5,
    )
    checks = judge(expect, record())
    assert [c.expectation for c in checks] == [
        "outcome",
        "values.answer",
        "says[0]",
        "says[1]",
        "never_says[0]",
        "tools[0]",
        "transferred",
        "path",
        "max_call_seconds",
        "max_reply_seconds",
    ]
    assert all(c.passed for c in checks), [c for c in checks if not c.passed]
