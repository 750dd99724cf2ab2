"""A run as JUnit XML (lab/junit.py): written, then read back by junitparser as a CI system
would: the suites, the counts, each failed check's message and evidence."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from junitparser import Error, Failure, JUnitXml, TestCase

from callwright.lab.contract import Check, Evidence
from callwright.lab.junit import ScenarioResult, SuiteResult, write_junit

DISCLOSED = Check(
    expectation="says[0]",
    passed=True,
    expected='says "AI assistant" within 10 s',
    found="said at 1.2 s",
    evidence=Evidence(kind="line", index=1, at=1.2, text="agent: I'm an AI assistant."),
)
NOT_DISCLOSED = DISCLOSED.model_copy(
    update={"passed": False, "found": "never said", "evidence": None}
)
WRONG_END = Check(
    expectation="outcome",
    passed=False,
    expected="voicemail",
    found="completed",
    evidence=Evidence(kind="call", at=21.0, text="the call ended: completed"),
)


def _run() -> list[SuiteResult]:
    return [
        SuiteResult(
            "Dental reminder",
            [
                ScenarioResult("Happy path", [DISCLOSED], call_id="call-1", seconds=21.5),
                ScenarioResult(
                    "Voicemail", [NOT_DISCLOSED, WRONG_END], call_id="call-2", seconds=12.0
                ),
                ScenarioResult("Silent callee", error="the call was never answered"),
            ],
        ),
        SuiteResult("Appointment flow", [ScenarioResult("e1 e3", [DISCLOSED], seconds=3.0)]),
    ]


def _cases(xml: JUnitXml) -> dict[str, TestCase]:
    return {case.name: case for suite in xml for case in suite}


def test_junitparser_reads_back_the_counts(tmp_path: Path) -> None:
    path = tmp_path / "lab.xml"
    write_junit(_run(), path)
    xml = JUnitXml.fromfile(str(path))
    suites = {suite.name: suite for suite in xml}
    assert list(suites) == ["Dental reminder", "Appointment flow"]
    reminder, flow = suites["Dental reminder"], suites["Appointment flow"]
    assert (reminder.tests, reminder.failures, reminder.errors) == (3, 2, 1)
    assert reminder.time == 33.5
    assert (flow.tests, flow.failures, flow.errors) == (1, 0, 0)
    assert (xml.tests, xml.failures, xml.errors) == (4, 2, 1)


def test_each_failed_check_is_a_failure_with_expected_found_and_evidence(tmp_path: Path) -> None:
    path = tmp_path / "lab.xml"
    write_junit(_run(), path)
    cases = _cases(JUnitXml.fromfile(str(path)))
    assert cases["Happy path"].is_passed
    assert cases["Happy path"].classname == "Dental reminder"
    voicemail = cases["Voicemail"]
    failures = [r for r in voicemail.result if isinstance(r, Failure)]
    assert [(f.type, f.message) for f in failures] == [
        ("says[0]", 'says[0]: expected says "AI assistant" within 10 s; found never said'),
        ("outcome", "outcome: expected voicemail; found completed"),
    ]
    assert [f.text for f in failures] == [
        "no evidence",
        "call at 21.0 s: the call ended: completed",
    ]
    assert voicemail.system_out is not None
    assert voicemail.system_out.splitlines()[0] == "call call-2"
    assert "FAIL outcome" in voicemail.system_out
    silent = cases["Silent callee"]
    assert [(type(r), r.message) for r in silent.result] == [(Error, "the call was never answered")]
    assert cases["e1 e3"].is_passed


def test_the_file_is_the_schema_ci_servers_read(tmp_path: Path) -> None:
    """Read with the standard library, not the library that wrote it: the JUnit shape CI
    servers (Jenkins, GitLab, GitHub's reporters) read: <testsuites> of <testsuite name tests
    failures errors time>, each <testcase name classname time> with <failure message type> or
    <error message>."""
    path = tmp_path / "lab.xml"
    write_junit(_run(), path)
    root = ElementTree.parse(path).getroot()  # noqa: S314 (the file this test just wrote)
    assert root.tag == "testsuites"
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("errors")) for s in root] == [
        ("Dental reminder", "3", "2", "1"),
        ("Appointment flow", "1", "0", "0"),
    ]
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert {c.get("classname") for c in cases.values()} == {"Dental reminder", "Appointment flow"}
    assert float(cases["Happy path"].get("time") or 0) == 21.5
    failures = cases["Voicemail"].findall("failure")
    assert [f.get("type") for f in failures] == ["says[0]", "outcome"]
    assert all(f.get("message") for f in failures)
    errors = cases["Silent callee"].findall("error")
    assert [e.get("message") for e in errors] == ["the call was never answered"]
    assert not cases["Happy path"].findall("failure")
