"""Judging a finished call against a scenario's expectations (docs/lab.md, "Checks"): pure
functions over a `CallRecord`, no database and no clock, so the same record always gives the
same checks. Each expectation given is one `Check` (a list: one per item), named as the
scenario names it ("says[0]", "values.new_time"), with the evidence that decided it: the
transcript line and when it was said, the action, the flow steps, the slowest reply, or the
call itself.

Phrases are compared as words: case, punctuation and extra spaces aside ("I'm an AI
assistant." is said in "i'm an  AI assistant, and..."), and only whole words (a phrase "AI"
is not said in "said")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from callwright.lab.contract import (
    CallRecord,
    Check,
    Evidence,
    Expectations,
    RecordAction,
    RecordLine,
    SaysWithin,
    ToolExpected,
)

_NOT_WORD = re.compile(r"[^\w\s]+")


def plain(text: str) -> str:
    """`text` as phrases are compared: case folded, punctuation dropped, one space between
    words ("Hi, I'm  an AI!" -> "hi im an ai")."""
    return " ".join(_NOT_WORD.sub("", text.casefold()).split())


def said_in(phrase: str, text: str) -> bool:
    """Whether `phrase` is said in `text`, as whole words (see `plain`)."""
    wanted = plain(phrase)
    return bool(wanted) and f" {wanted} " in f" {plain(text)} "


def _at(seconds: float | None) -> str:
    return "" if seconds is None else f" at {seconds:.1f} s"


def _line_evidence(index: int, line: RecordLine) -> Evidence:
    return Evidence(kind="line", index=index, at=line.at, text=f"{line.speaker}: {line.text}")


#: The most consecutive agent lines a phrase is looked for across.
SPAN = 4


def _joined(lines: Sequence[RecordLine], start: int, end: int) -> str:
    return " ".join(line.text for line in lines[start:end])


def _said(
    phrase: str, lines: Sequence[RecordLine], speaker: str = "agent"
) -> tuple[int, RecordLine] | None:
    """The `speaker`'s line where `phrase` is first said (its index and the line), or None. A
    phrase the transcript split over consecutive lines of theirs (up to `SPAN`) counts from the
    line it begins in: the first line of the shortest run that says it, when the run without
    that line does not."""
    for start, line in enumerate(lines):
        if line.speaker != speaker:
            continue
        end = start + 1
        while end <= len(lines) and end - start <= SPAN and lines[end - 1].speaker == speaker:
            if said_in(phrase, _joined(lines, start, end)):
                if not said_in(phrase, _joined(lines, start + 1, end)):
                    return start, line
                break
            end += 1
    return None


def _said_instead(
    phrase: str, lines: Sequence[RecordLine], limit: float | None
) -> tuple[int, RecordLine] | None:
    """For a phrase due within `limit` seconds and never said: the agent's line by then that
    shares the most words with it (the same words, the later line), which is where it was due
    (a disclosure in other words); its first line, when none came so soon. None: no limit, or
    the agent said nothing."""
    if limit is None:
        return None
    agent = [(i, line) for i, line in enumerate(lines) if line.speaker == "agent"]
    due = [pair for pair in agent if pair[1].at <= limit]
    if not due:
        return agent[0] if agent else None
    wanted = set(plain(phrase).split())
    return max(due, key=lambda pair: (len(wanted & set(plain(pair[1].text).split())), pair[0]))


def check_says(name: str, expect: SaysWithin, record: CallRecord) -> Check:
    """The agent said the phrase, within `within_seconds` of the answer when given."""
    limit = expect.within_seconds
    wanted = f'says "{expect.phrase}"' + ("" if limit is None else f" within {limit:g} s")
    hit = _said(expect.phrase, record.lines)
    if hit is None:
        instead = _said_instead(expect.phrase, record.lines, limit)
        return Check(
            expectation=name,
            passed=False,
            expected=wanted,
            found="never said" + ("" if instead is None else "; the agent said this instead"),
            evidence=None if instead is None else _line_evidence(*instead),
        )
    index, line = hit
    passed = limit is None or line.at <= limit
    found = f"said{_at(line.at)}" + ("" if passed else f", {line.at - (limit or 0):.1f} s late")
    return Check(
        expectation=name,
        passed=passed,
        expected=wanted,
        found=found,
        evidence=_line_evidence(index, line),
    )


def check_callee_says(name: str, phrase: str, record: CallRecord) -> Check:
    """The callee's side said the phrase (an IVR: the person it reached)."""
    hit = _said(phrase, record.lines, "callee")
    wanted = f'the callee says "{phrase}"'
    if hit is None:
        return Check(expectation=name, passed=False, expected=wanted, found="never said")
    index, line = hit
    return Check(
        expectation=name,
        passed=True,
        expected=wanted,
        found=f"said{_at(line.at)}",
        evidence=_line_evidence(index, line),
    )


def check_keys(want: str, record: CallRecord) -> Check:
    """The agent pressed these keys one after the other (its keypad action lines' keys in
    all, pauses aside). The evidence is the action line the keys begin in, else the first."""
    pressed = [(i, a) for i, a in enumerate(record.actions) if a.kind == "keypad"]
    keys, owner = "", []
    for index, action in pressed:
        digits = str(action.arguments.get("digits", "")).replace("w", "")
        keys += digits
        owner += [index] * len(digits)
    wanted = f"presses {want}"
    at = keys.find(want)
    if at < 0:
        found = f"pressed {keys}" if keys else "pressed no key"
        first = _action_evidence(*pressed[0]) if pressed else None
        return Check(expectation="keys", passed=False, expected=wanted, found=found, evidence=first)
    action = record.actions[owner[at]]
    return Check(
        expectation="keys",
        passed=True,
        expected=wanted,
        found=f"pressed {keys}{_at(action.at)}",
        evidence=_action_evidence(owner[at], action),
    )


def check_never_says(name: str, phrase: str, record: CallRecord) -> Check:
    """The agent never said the phrase: the evidence is the offending line (none: passed)."""
    hit = _said(phrase, record.lines)
    wanted = f'never says "{phrase}"'
    if hit is None:
        return Check(expectation=name, passed=True, expected=wanted, found="never said")
    index, line = hit
    return Check(
        expectation=name,
        passed=False,
        expected=wanted,
        found=f"said{_at(line.at)}",
        evidence=_line_evidence(index, line),
    )


def _same_value(want: Any, have: Any) -> bool:
    """A tool argument as expected: equal, or equal as numbers, or as trimmed text without
    case (a model may pass "3" for 3, or "True" for true)."""
    if isinstance(want, bool) or isinstance(have, bool):
        return str(want).strip().casefold() == str(have).strip().casefold()
    if want == have:
        return True
    try:
        return float(want) == float(have)
    except (TypeError, ValueError):
        return str(want).strip().casefold() == str(have).strip().casefold()


def _action_evidence(index: int, action: RecordAction) -> Evidence:
    return Evidence(
        kind="event",
        index=index,
        at=action.at,
        text=f"{action.kind} {action.name} {action.status} {action.arguments}",
    )


def check_tool(name: str, expect: ToolExpected, record: CallRecord) -> Check:
    """The agent called the tool with each given argument at its value (others may be
    there too). The evidence is the matching call, else the nearest miss (same name)."""
    args = ", ".join(f"{k}={v!r}" for k, v in expect.arguments.items())
    wanted = f"calls {expect.name}" + (f" with {args}" if args else "")
    tools = [(i, a) for i, a in enumerate(record.actions) if a.kind == "tool"]
    named = [(i, a) for i, a in tools if a.name == expect.name]
    for index, action in named:
        if all(
            key in action.arguments and _same_value(value, action.arguments[key])
            for key, value in expect.arguments.items()
        ):
            return Check(
                expectation=name,
                passed=True,
                expected=wanted,
                found=f"called ({action.status}){_at(action.at)}",
                evidence=_action_evidence(index, action),
            )
    if named:
        index, action = named[0]
        found = f"called with other arguments: {action.arguments}"
        evidence: Evidence | None = _action_evidence(index, action)
    else:
        called = sorted({a.name for _, a in tools})
        found = f"not called (tools called: {', '.join(called) or 'none'})"
        evidence = None
    return Check(expectation=name, passed=False, expected=wanted, found=found, evidence=evidence)


def _call_evidence(record: CallRecord, text: str) -> Evidence:
    return Evidence(kind="call", at=record.duration_seconds, text=text)


def check_outcome(expect: str, record: CallRecord) -> Check:
    """The call ended as expected (its end_reason)."""
    have = record.outcome or "unknown"
    return Check(
        expectation="outcome",
        passed=record.outcome == expect,
        expected=expect,
        found=have,
        evidence=_call_evidence(record, f"the call ended: {have}"),
    )


def _value_evidence(name: str, record: CallRecord) -> Evidence:
    """The last flow step that captured `name`, else the call's analysis."""
    for index in range(len(record.steps) - 1, -1, -1):
        step = record.steps[index]
        captured = step.get("captured") or {}
        if name in captured:
            heard = step.get("heard")
            text = f"{step.get('node_name') or step.get('node_id')}: captured {name}="
            text += f'"{captured[name]}"' + (f' from "{heard}"' if heard else "")
            return Evidence(kind="step", index=index, at=step.get("at"), text=text)
    return _call_evidence(record, f'analysis: {name}="{record.values.get(name, "")}"')


def check_value(name: str, want: str, record: CallRecord) -> Check:
    """A captured variable or analysis field has the value (case and outer spaces aside)."""
    check = f"values.{name}"
    have = record.values.get(name)
    if have is None:
        known = ", ".join(sorted(record.values)) or "none"
        return Check(
            expectation=check,
            passed=False,
            expected=f'{name} = "{want}"',
            found=f"{name} not captured (values: {known})",
        )
    return Check(
        expectation=check,
        passed=have.strip().casefold() == want.strip().casefold(),
        expected=f'{name} = "{want}"',
        found=f'{name} = "{have}"',
        evidence=_value_evidence(name, record),
    )


def check_transferred(want: bool, record: CallRecord) -> Check:
    """Handed to a person (the transfer reached them) or not."""
    have = record.transferred_to is not None
    moves = [(i, a) for i, a in enumerate(record.actions) if a.kind == "transfer"]
    if moves:
        evidence = _action_evidence(*moves[-1])
    else:
        evidence = _call_evidence(record, "no transfer was tried")
    return Check(
        expectation="transferred",
        passed=have == want,
        expected="transferred to a person" if want else "not transferred",
        found=f"transferred to {record.transferred_to}" if have else "not transferred",
        evidence=evidence,
    )


def _node_of(step: dict[str, Any]) -> str:
    return str(step.get("node_id", ""))


def check_path(path: Sequence[str], record: CallRecord) -> Check:
    """The flow passed through the nodes in this order (others may come between). The
    evidence is the step that reached the last expected node, or the last one that matched
    before the path went elsewhere; its text is the path the call took."""
    taken = [_node_of(s) for s in record.steps]
    walked = " -> ".join(n for i, n in enumerate(taken) if i == 0 or taken[i - 1] != n)
    wanted = " -> ".join(path)
    position, last = 0, None
    for index, node in enumerate(taken):
        if position < len(path) and node == path[position]:
            position, last = position + 1, index
    passed = position == len(path)
    if passed:
        found = f"took {walked}"
    elif not taken:
        found = "no flow step was taken"
    else:
        found = f"took {walked}: never reached '{path[position]}'" + (
            f" after '{path[position - 1]}'" if position else ""
        )
    evidence = None
    if last is not None:
        step = record.steps[last]
        evidence = Evidence(kind="step", index=last, at=step.get("at"), text=walked)
    return Check(expectation="path", passed=passed, expected=wanted, found=found, evidence=evidence)


def check_call_seconds(most: int, record: CallRecord) -> Check:
    """The call lasted at most `most` seconds from the answer to the end."""
    seconds = record.duration_seconds
    return Check(
        expectation="max_call_seconds",
        passed=seconds is not None and seconds <= most,
        expected=f"at most {most} s",
        found="never answered" if seconds is None else f"{seconds:.1f} s",
        evidence=_call_evidence(
            record, "never answered" if seconds is None else f"lasted {seconds:.1f} s"
        ),
    )


def check_reply_seconds(most: float, record: CallRecord) -> Check:
    """No reply took more than `most` seconds; the evidence is the slowest. A call with no
    reply measured passes (nothing was slow), and says so."""
    wanted = f"every reply within {most:g} s"
    replies = record.reply_seconds
    if not replies:
        return Check(
            expectation="max_reply_seconds", passed=True, expected=wanted, found="no reply measured"
        )
    index = max(range(len(replies)), key=lambda i: replies[i])
    slowest = replies[index]
    return Check(
        expectation="max_reply_seconds",
        passed=slowest <= most,
        expected=wanted,
        found=f"slowest reply {slowest:.2f} s (reply {index + 1} of {len(replies)})",
        evidence=Evidence(kind="latency", index=index, text=f"reply {index + 1}: {slowest:.2f} s"),
    )


def judge(expect: Expectations, record: CallRecord) -> list[Check]:
    """One check per expectation given, in the order of `Expectations`' fields (a list: one
    per item, in its order)."""
    checks: list[Check] = []
    if expect.outcome is not None:
        checks.append(check_outcome(expect.outcome, record))
    checks += [check_value(key, value, record) for key, value in expect.values.items()]
    checks += [check_says(f"says[{i}]", says, record) for i, says in enumerate(expect.says)]
    checks += [
        check_never_says(f"never_says[{i}]", phrase, record)
        for i, phrase in enumerate(expect.never_says)
    ]
    checks += [check_tool(f"tools[{i}]", tool, record) for i, tool in enumerate(expect.tools)]
    if expect.keys is not None:
        checks.append(check_keys(expect.keys, record))
    checks += [
        check_callee_says(f"callee_says[{i}]", phrase, record)
        for i, phrase in enumerate(expect.callee_says)
    ]
    if expect.transferred is not None:
        checks.append(check_transferred(expect.transferred, record))
    if expect.path is not None:
        checks.append(check_path(expect.path, record))
    if expect.max_call_seconds is not None:
        checks.append(check_call_seconds(expect.max_call_seconds, record))
    if expect.max_reply_seconds is not None:
        checks.append(check_reply_seconds(expect.max_reply_seconds, record))
    return checks
