"""The answers `POST /v1/calls/{id}/analyze` (and a batch's analysis) gives offline to questions
of the kind Bland's SDK documents ("Who answered the call?", "Positive feedback about the
product", "Customer confirmed they were satisfied"), each with the line (or the call's fact) it
comes from; with an LLM, its answers and the lines it names (a line that is not one: none)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import httpx

from callwright.analysis import AnalysisLLM, Answer, answer_with_evidence
from callwright.models import TranscriptEntry

TALK = [
    (
        "assistant",
        "Hi, this is Sam from Acme Software, calling about your subscription renewal. "
        "Is this Dana?",
    ),
    ("user", "Yes, this is Dana."),
    ("assistant", "How has the product been working for you?"),
    ("user", "I love how easy the reports are, the dashboard is great."),
    ("assistant", "Anything we could do better?"),
    ("user", "The mobile app is slow and the price is too expensive."),
    ("assistant", "Would you like a review call on Thursday at 2 pm to plan the renewal?"),
    ("user", "Yes, that works. I'm satisfied overall."),
]
LINES = [TranscriptEntry(speaker=s, text=t, seq=i) for i, (s, t) in enumerate(TALK, 1)]
TUESDAY = date(2026, 11, 24)
FACTS: dict[str, str | None] = {"answered_by": "human", "end_reason": "completed"}


async def _offline(*questions: tuple[str, str]) -> list[Answer]:
    return await answer_with_evidence(
        LINES, "Renewal Confirmation", questions, None, today=TUESDAY, facts=FACTS
    )


async def test_the_sdks_example_questions_are_answered_from_the_transcript() -> None:
    answers = await _offline(
        ("Who answered the call?", "human or voicemail"),
        ("Positive feedback about the product: ", "string"),
        ("Negative feedback about the product: ", "string"),
        ("Customer confirmed they were satisfied", "boolean"),
    )
    assert answers == [
        Answer("human", fact="answered_by"),
        Answer("I love how easy the reports are, the dashboard is great.", 4),
        Answer("The mobile app is slow and the price is too expensive.", 6),
        Answer(True, 8),
    ]


async def test_who_called_who_answered_and_when() -> None:
    answers = await _offline(
        ("Did the customer pick up?", "boolean"),
        ("Who was calling?", "string"),
        ("Who answered the call?", "string"),
        ("When is the review call?", "string"),
    )
    assert answers == [
        Answer(True, fact="answered_by"),
        Answer("Sam from Acme Software", 1),  # the agent's introduction
        Answer("human", fact="answered_by"),
        Answer("2026-11-26T14:00", 7),  # the agent proposed it, the callee agreed
    ]


async def test_the_introduction_ends_with_its_sentence() -> None:
    said = [
        TranscriptEntry(speaker="assistant", text="Hello!", seq=1),
        TranscriptEntry(
            speaker="assistant",
            text="This is Sarah from Bright Dental. I'm calling about your cleaning.",
            seq=2,
        ),
        TranscriptEntry(speaker="user", text="Oh, hi Sarah.", seq=3),
    ]
    calling = [("Who called?", "string"), ("Which company was calling?", "text")]
    answers = await answer_with_evidence(said, "g", calling, None)
    assert answers == [Answer("Sarah from Bright Dental", 2)] * 2


async def test_what_the_call_does_not_say_is_null_with_no_evidence() -> None:
    answers = await _offline(
        ("What is their insurance provider?", "string"),
        ("How many years have they been a customer?", "number"),
    )
    assert answers == [Answer(None), Answer(None)]


async def test_a_voicemail_did_not_pick_up() -> None:
    answers = await answer_with_evidence(
        [], "g", [("Did they pick up?", "boolean")], None, facts={"answered_by": "voicemail"}
    )
    assert answers == [Answer(False, fact="answered_by")]


def _llm(content: dict[str, Any], seen: list[str]) -> AnalysisLLM:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content)["messages"][0]["content"])
        reply = {"choices": [{"message": {"content": json.dumps(content)}}]}
        return httpx.Response(200, json=reply)

    return AnalysisLLM("http://llm.local/v1", "k", "m", httpx.MockTransport(handler))


async def test_the_llm_answers_with_the_lines_it_names() -> None:
    seen: list[str] = []
    content = {"answers": ["Voicemail", "easy reports", None], "lines": [2, 99, 6]}
    questions = [
        ("Who answered the call?", "human or voicemail"),
        ("Positive feedback?", "string"),
        ("Negative feedback?", "string"),
    ]
    answers = await answer_with_evidence(LINES, "g", questions, _llm(content, seen))
    # The LLM's answers win over the offline ones; line 99 is no line; no answer, no line.
    assert answers == [Answer("voicemail", 2), Answer("easy reports"), Answer(None)]
    assert '"lines": [for each answer, the number of the transcript line' in seen[0]


async def test_an_llm_without_lines_still_answers() -> None:
    answers = await answer_with_evidence(
        LINES, "g", [("Positive feedback?", "string")], _llm({"answers": ["great"]}, [])
    )
    assert answers == [Answer("great")]
