"""A lab run's results as JUnit XML (docs/lab.md, "For CI"), the report format every CI
system reads, written with `junitparser`: one `<testsuite>` per suite, one `<testcase>` per
scenario (its classname the suite's, its time the call's), one `<failure>` per failed check
(its message the expectation with what was expected and found; its text the evidence), an
`<error>` for a scenario whose call could not be placed or judged, and every check, passed or
not, in the case's `<system-out>` with the call's id."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from junitparser import Error, Failure, JUnitXml, TestCase, TestSuite

from callwright.lab.contract import Check, Evidence

#: The name of the XML's root `<testsuites>`.
ROOT = "callwright lab"


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario of a run: its checks, the call judged and how long it took; `error` when
    it gave no checks to judge (the call could not be placed, or never finished)."""

    name: str
    checks: list[Check] = field(default_factory=list)
    call_id: str | None = None
    seconds: float | None = None
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(check.passed for check in self.checks)


@dataclass(frozen=True)
class SuiteResult:
    """A suite's scenarios, as one run ran them."""

    name: str
    scenarios: list[ScenarioResult] = field(default_factory=list)


def evidence_text(evidence: Evidence | None) -> str:
    """The evidence in one line: what it is, where and when, and its text."""
    if evidence is None:
        return "no evidence"
    where = f" #{evidence.index}" if evidence.index is not None else ""
    when = f" at {evidence.at:.1f} s" if evidence.at is not None else ""
    return f"{evidence.kind}{where}{when}: {evidence.text}"


def failure_of(check: Check) -> Failure:
    """A failed check: its message the expectation, expected and found; its type the
    expectation's name; its text the evidence."""
    failure = Failure(
        f"{check.expectation}: expected {check.expected}; found {check.found}", check.expectation
    )
    failure.text = evidence_text(check.evidence)
    return failure


def case_of(suite: str, result: ScenarioResult) -> TestCase:
    case = TestCase(result.name, suite, result.seconds)
    if result.error is not None:
        case.result = [Error(result.error, "not judged")]
    else:
        case.result = [failure_of(check) for check in result.checks if not check.passed]
    lines = [f"call {result.call_id or '(none)'}"] + [
        f"{'PASS' if c.passed else 'FAIL'} {c.expectation}: expected {c.expected}; "
        f"found {c.found} ({evidence_text(c.evidence)})"
        for c in result.checks
    ]
    case.system_out = "\n".join(lines)
    return case


def junit_of(suites: Sequence[SuiteResult]) -> JUnitXml:
    """The run as a JUnit document, its counts (tests, failures, errors, time) filled."""
    xml = JUnitXml(ROOT)
    for suite in suites:
        element = TestSuite(suite.name)
        for result in suite.scenarios:
            element.add_testcase(case_of(suite.name, result))
        element.update_statistics()  # type: ignore[no-untyped-call]
        xml.add_testsuite(element)
    xml.update_statistics()  # type: ignore[no-untyped-call]
    return xml


def write_junit(suites: Sequence[SuiteResult], path: Path) -> None:
    """Write the run's JUnit XML to `path` (`callwright test-agent --junit FILE`)."""
    junit_of(suites).write(str(path), pretty=True)
