"""Post-call analysis with the call's own settings: a disposition from its list, typed fields
from its analysis_schema (offline heuristics and the LLM's validated JSON), old stored analyses
still readable, and ad-hoc questions (answer_questions)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import httpx
import pytest

from callwright import analysis as analysing
from callwright.analysis import (
    Analysis,
    AnalysisLLM,
    ExtractedField,
    answer_questions,
    choose_disposition,
    date_in,
)
from callwright.analysis import llm as analysis_llm
from callwright.models import Call, TranscriptEntry

PROMPT = "You are Sam from Acme Tours, booking a city tour for the customer."
BLAND = ["INTERESTED", "NOT_INTERESTED", "CALL_BACK_SCHEDULED", "NO_ANSWER", "VOICEMAIL"]
SCHEMA = [
    {"name": "party_size", "type": "number", "description": "How many people will join"},
    {"name": "tour_day", "type": "date", "description": "The day of the tour"},
    {"name": "needs_parking", "type": "boolean", "description": "Whether they need parking"},
    {"name": "email", "type": "string", "description": "The callee's email address"},
    {"name": "budget", "type": "number", "description": "Their budget in dollars"},
]
TALK = [
    ("assistant", "Hi, this is Sam from Acme Tours. How many people will join the tour?"),
    ("user", "Four of us, at 3 pm."),
    ("assistant", "Great. Which day suits you for the tour?"),
    ("user", "Next Tuesday would be best."),
    ("assistant", "Do you need parking?"),
    ("user", "No, we will walk."),
    ("assistant", "And your email address?"),
    ("user", "It's dana at example dot com. Yes, book it."),
]
ANSWERED = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)  # a Tuesday


def _lines(talk: list[tuple[str, str]] = TALK) -> list[TranscriptEntry]:
    return [TranscriptEntry(speaker=s, text=t, seq=i) for i, (s, t) in enumerate(talk, 1)]


#: A busy line: never answered.
_NOBODY: dict[str, Any] = {
    "status": "busy",
    "end_reason": "busy",
    "answered_at": None,
    "duration_seconds": 0,
}


def _call(**values: Any) -> Call:
    defaults: dict[str, Any] = {
        "id": "call-1",
        "to_number": "+15551230000",
        "prompt": PROMPT,
        "status": "completed",
        "end_reason": "completed",
        "duration_seconds": 60,
        "answered_at": ANSWERED,
        "dispositions": BLAND,
        "analysis_schema": SCHEMA,
    }
    return Call(**(defaults | values))


@pytest.mark.parametrize(
    ("outcome", "end_reason", "dispositions", "chosen"),
    [
        ("interested", "completed", BLAND, "INTERESTED"),
        ("not interested", "completed", BLAND, "NOT_INTERESTED"),
        ("callback requested", "completed", BLAND, "CALL_BACK_SCHEDULED"),
        ("voicemail", "voicemail", BLAND, "VOICEMAIL"),
        ("no answer", "busy", BLAND, "NO_ANSWER"),
        ("no answer", "busy", [*BLAND, "BUSY"], "BUSY"),
        ("wrong number", "completed", BLAND, None),  # nothing close: null
        ("interested", "completed", ["Declined", "Booked", "Callback"], "Booked"),
        ("not interested", "completed", ["Declined", "Booked"], "Declined"),
        ("voicemail", "voicemail", ["Spoke to someone", "Left voicemail"], "Left voicemail"),
        ("interested", "completed", [], None),
    ],
)
def test_the_outcome_is_mapped_onto_the_calls_dispositions(
    outcome: str, end_reason: str, dispositions: list[str], chosen: str | None
) -> None:
    assert choose_disposition(outcome, end_reason, dispositions) == chosen


@pytest.mark.parametrize(
    ("talk", "values", "dispositions", "outcome"),
    [
        # A wrong number: nothing in the list says it; a call that went nowhere is negative.
        ([("user", "Sorry, wrong number.")], {}, BLAND, "NOT_INTERESTED"),
        # Nothing said and nothing fits: the list's catch-all.
        ([("user", "Hmm.")], {}, ["Booked", "Declined", "Other"], "Other"),
        # A busy line with a list of only conversation results: a negative one.
        ([], _NOBODY, ["Booked", "Not booked"], "Not booked"),
        # Nothing fits and nothing is negative: the first listed, never a word of ours.
        ([("user", "Hmm.")], {}, ["Booked", "Rescheduled"], "Booked"),
    ],
)
def test_with_dispositions_the_outcome_is_always_one_of_them(
    talk: list[tuple[str, str]], values: dict[str, Any], dispositions: list[str], outcome: str
) -> None:
    result = analysing.analyze_offline(_call(dispositions=dispositions, **values), _lines(talk))
    assert (result.outcome, result.disposition_tag) == (outcome, outcome)
    assert f"Outcome: {outcome};" in result.summary


async def test_the_llms_outcome_is_one_of_the_dispositions_too() -> None:
    answer = {"summary": "They hung up.", "outcome": "wrong number", "sentiment": "neutral"}
    content = json.dumps(answer | {"disposition_tag": "SOMETHING_ELSE", "key_facts": []})
    result = analysis_llm._parse_llm(content, _call(), _lines())
    assert (result.outcome, result.disposition_tag) == ("NOT_INTERESTED", "NOT_INTERESTED")
    without = analysis_llm._parse_llm(content, _call(dispositions=None), _lines())
    assert (without.outcome, without.disposition_tag) == ("wrong number", None)


def test_offline_fields_are_typed_and_cite_their_line() -> None:
    result = analysing.analyze_offline(_call(), _lines())
    assert result.outcome == "INTERESTED"  # the agent's disposition, not our word for it
    assert result.disposition_tag == "INTERESTED"
    assert result.fields == {
        "party_size": ExtractedField(4, 2),  # "3 pm" is a time, not the count
        "tour_day": ExtractedField("2026-12-01", 4),
        "needs_parking": ExtractedField(False, 6),
        "email": ExtractedField("It's dana at example dot com. Yes, book it.", 8),
        "budget": ExtractedField(None),  # never said
    }
    assert result.values()["party_size"] == 4


def test_a_call_nobody_answered_gets_a_short_analysis() -> None:
    call = _call(status="no-answer", end_reason="no-answer", answered_at=None, duration_seconds=0)
    result = analysing.analyze_offline(call, [])
    assert (result.outcome, result.disposition_tag) == ("NO_ANSWER", "NO_ANSWER")
    assert all(f.value is None for f in result.fields.values())
    assert set(result.fields) == {s["name"] for s in SCHEMA}


def test_a_call_without_analysis_settings_has_no_disposition_or_fields() -> None:
    result = analysing.analyze_offline(_call(dispositions=None, analysis_schema=None), _lines())
    assert (result.disposition_tag, result.fields) == (None, {})


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("tomorrow at 3:30 pm", "2026-11-25T15:30"),
        ("the day after tomorrow", "2026-11-26"),
        ("on Friday", "2026-11-27"),
        ("next Tuesday", "2026-12-01"),
        ("December 3rd at noon", "2026-12-03T12:00"),
        ("the 5th of January", "2027-01-05"),
        ("2026-12-24", "2026-12-24"),
        ("sometime", None),
    ],
)
def test_dates_are_resolved_from_the_calls_day(said: str, day: str | None) -> None:
    assert date_in(said, date(2026, 11, 24)) == day


def test_analyses_stored_before_dispositions_and_fields_still_read() -> None:
    old = {
        "summary": "s",
        "outcome": "interested",
        "sentiment": "positive",
        "key_facts": [{"fact": "3 pm", "lines": [2]}],
        "method": "offline",
    }
    result = Analysis.from_json(json.dumps(old))
    assert (result.disposition_tag, result.fields) == (None, {})
    again = analysing.analyze_offline(_call(), _lines())
    assert Analysis.from_json(again.to_json()) == again


def _llm(content: str, seen: list[dict[str, Any]]) -> AnalysisLLM:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    return AnalysisLLM("http://llm.local/v1", "k", "m", httpx.MockTransport(handler))


async def test_the_llm_is_asked_with_the_calls_settings_and_its_answer_checked() -> None:
    answer = {
        "summary": "Dana booked a tour for four.",
        "outcome": "interested",
        "sentiment": "positive",
        "key_facts": [],
        "disposition_tag": "interested",  # any case: the list's own spelling is kept
        "fields": {
            "party_size": {"value": "4", "line": 2},
            "tour_day": {"value": "next Tuesday", "line": 4},  # not a date: null
            "needs_parking": {"value": False, "line": 6},
            "email": {"value": "dana@example.com", "line": 99},  # no such line
            "budget": {"value": None, "line": None},
        },
    }
    seen: list[dict[str, Any]] = []
    call = _call(summary_prompt="Say how many people and which day, in one sentence.")
    result = await analysing.analyze(call, _lines(), _llm(json.dumps(answer), seen))
    system = seen[0]["messages"][0]["content"]
    assert "Say how many people and which day, in one sentence." in system
    assert json.dumps(BLAND) in system
    assert '"party_size" (a number): How many people will join' in system
    assert result.method == "llm"
    assert result.summary == "Dana booked a tour for four."
    assert result.disposition_tag == "INTERESTED"
    assert result.fields == {
        "party_size": ExtractedField(4, 2),
        "tour_day": ExtractedField(None),
        "needs_parking": ExtractedField(False, 6),
        "email": ExtractedField("dana@example.com", None),
        "budget": ExtractedField(None),
    }


async def test_a_disposition_outside_the_list_falls_back_to_the_outcome() -> None:
    answer: dict[str, Any] = {"summary": "s", "outcome": "not interested", "key_facts": []}
    answer |= {"sentiment": "negative", "disposition_tag": "ANGRY"}
    result = await analysing.analyze(_call(), _lines(), _llm(json.dumps(answer), []))
    assert result.disposition_tag == "NOT_INTERESTED"


async def test_an_llm_that_fails_leaves_the_offline_analysis() -> None:
    result = await analysing.analyze(_call(), _lines(), _llm("no JSON here", []))
    assert (result.method, result.disposition_tag) == ("offline", "INTERESTED")


QUESTIONS = [
    ("How many people will join?", "number"),
    ("Do they need parking?", "boolean"),
    ("Who answered the call?", "human or voicemail"),
    ("What is their email address?", "string"),
    ("What budget did they give?", "number"),
]


async def test_questions_are_answered_offline_by_type() -> None:
    answers = await answer_questions(
        _lines(),
        "Book a tour",
        QUESTIONS,
        None,
        today=date(2026, 11, 24),
        facts={"answered_by": "human"},
    )
    assert answers == [4, False, "human", "It's dana at example dot com. Yes, book it.", None]


async def test_questions_are_answered_by_the_llm_checked_by_type() -> None:
    seen: list[dict[str, Any]] = []
    content = json.dumps({"answers": ["4", "no", "Voicemail", "dana@example.com", "lots"]})
    answers = await answer_questions(_lines(), "Book a tour", QUESTIONS, _llm(content, seen))
    assert answers == [4, False, "voicemail", "dana@example.com", None]
    asked = seen[0]["messages"][1]["content"]
    assert "The goal of the call: Book a tour" in asked
    assert '3. Who answered the call? (answer type: one of ["human", "voicemail"])' in asked


async def test_an_llm_that_skips_questions_leaves_the_offline_answers() -> None:
    content = json.dumps({"answers": [4]})
    answers = await answer_questions(_lines(), "g", QUESTIONS[:2], _llm(content, []))
    assert answers == [4, False]
