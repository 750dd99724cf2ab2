"""The sentence rule the agent speaks by (sentences.py), whole and streamed as an LLM streams."""

from __future__ import annotations

import pytest
from pipecat.frames.frames import (
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TTSAudioRawFrame,
    TTSTextFrame,
)
from pipecat.pipeline.worker import PipelineParams
from pipecat.tests.utils import run_test

from callwright.speech import tts
from callwright.voice_agent.sentences import (
    SentenceAggregator,
    clause_end,
    sentence_end,
    split_sentences,
)
from callwright.voice_agent.services import LocalTTSService

CASES: list[tuple[str, list[str]]] = [
    (
        "Your appointment is with Dr. Patel on Tuesday. Does that work?",
        ["Your appointment is with Dr. Patel on Tuesday.", "Does that work?"],
    ),
    (
        "Mr. and Mrs. Smith live on St. Mary Street. Right?",
        ["Mr. and Mrs. Smith live on St. Mary Street.", "Right?"],
    ),
    ("Ms. Lee and Prof. Brown agreed. Good.", ["Ms. Lee and Prof. Brown agreed.", "Good."]),
    (
        "Bring fruit, e.g. apples, i.e. something fresh, etc. and water. Thanks.",
        ["Bring fruit, e.g. apples, i.e. something fresh, etc. and water.", "Thanks."],
    ),
    ("Bring snacks, drinks, etc. Then we go.", ["Bring snacks, drinks, etc.", "Then we go."]),
    (
        "The rate is 3.5 percent. It costs $1.50 a day.",
        ["The rate is 3.5 percent.", "It costs $1.50 a day."],
    ),
    (
        "See you at 10.30 tomorrow. Or at 3:30 p.m. on Friday. Okay?",
        ["See you at 10.30 tomorrow.", "Or at 3:30 p.m. on Friday.", "Okay?"],
    ),
    ("Call me at 3 p.m. Thanks.", ["Call me at 3 p.m.", "Thanks."]),
    (
        "That was on Jan. 5, 2024. Also on 12.05.2024 we spoke.",
        ["That was on Jan. 5, 2024.", "Also on 12.05.2024 we spoke."],
    ),
    (
        "It is No. 5 on the list. I said no. Okay?",
        ["It is No. 5 on the list.", "I said no.", "Okay?"],
    ),
    ("The price is approx. 30 dollars. Fine.", ["The price is approx. 30 dollars.", "Fine."]),
    (
        "Write to jo.smith@example.com today. Thanks.",
        ["Write to jo.smith@example.com today.", "Thanks."],
    ),
    (
        "Visit https://www.example.com/a.b?x=1 for details. Thanks.",
        ["Visit https://www.example.com/a.b?x=1 for details.", "Thanks."],
    ),
    ("J. R. R. Tolkien wrote it. Great.", ["J. R. R. Tolkien wrote it.", "Great."]),
    ("Well... let me see. Hmm... Yes.", ["Well... let me see.", "Hmm...", "Yes."]),
    ("Really? Yes! Wow?! Good.", ["Really?", "Yes!", "Wow?!", "Good."]),
    ('She said "Hi." Then left.', ['She said "Hi."', "Then left."]),
    ("First line\nSecond line.", ["First line", "Second line."]),
    ("No ending punctuation", ["No ending punctuation"]),
]


@pytest.mark.parametrize(("text", "sentences"), CASES)
def test_a_whole_text_splits_where_its_sentences_end(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


async def _streamed(text: str, step: int) -> list[str]:
    aggregator = SentenceAggregator()
    out: list[str] = []
    for i in range(0, len(text), step):
        out += [a.text async for a in aggregator.aggregate(text[i : i + step])]
    rest = await aggregator.flush()
    return out + ([rest.text] if rest else [])


@pytest.mark.parametrize("step", [1, 3, 1000])
@pytest.mark.parametrize(("text", "sentences"), CASES)
async def test_streamed_text_gives_the_same_sentences(
    text: str, sentences: list[str], step: int
) -> None:
    assert await _streamed(text, step) == sentences


def test_a_period_waits_for_the_next_word() -> None:
    assert sentence_end("with Dr.") == 0
    assert sentence_end("with Dr. ") == 0
    assert sentence_end("with Dr. P") == 0
    assert sentence_end("It's here. T") == len("It's here.")
    assert sentence_end("It's here.", final=True) == len("It's here.")


async def test_a_sentence_is_released_as_soon_as_the_next_one_begins() -> None:
    aggregator = SentenceAggregator()
    first = [a.text async for a in aggregator.aggregate("Hi, this is Sam from Acme.")]
    assert first == []
    assert [a.text async for a in aggregator.aggregate(" Is")] == ["Hi, this is Sam from Acme."]
    assert aggregator.text.text == "Is"


async def test_an_interruption_drops_the_unspoken_text() -> None:
    aggregator = SentenceAggregator()
    assert [a async for a in aggregator.aggregate("Half a sent")] == []
    await aggregator.handle_interruption()
    assert await aggregator.flush() is None


async def test_the_tts_speaks_a_title_and_its_name_as_one_sentence() -> None:
    voice = tts.find("sarah") or tts.default_voice()  # flite: quick to synthesise
    chunks = ["Hi, this is Sam. Your visit with Dr", ". Patel takes approx", ". 30 min. Okay?"]
    down, _ = await run_test(
        LocalTTSService(voice),
        frames_to_send=[
            LLMFullResponseStartFrame(),
            *(LLMTextFrame(chunk) for chunk in chunks),
            LLMFullResponseEndFrame(),
        ],
        pipeline_params=PipelineParams(audio_out_sample_rate=8000),
    )
    spoken = [f.text for f in down if isinstance(f, TTSTextFrame)]
    assert spoken == [
        "Hi,",  # the reply's opening clause, said on its own (see below)
        "this is Sam.",
        "Your visit with Dr. Patel takes approx. 30 min.",
        "Okay?",
    ]
    assert any(isinstance(f, TTSAudioRawFrame) for f in down)


# A reply's opening clause said on its own (its first audio sooner): at most four words up to
# the first comma, before the first sentence ends; never inside a number.
CLAUSE_CASES: list[tuple[str, list[str]]] = [
    (
        "Sorry, this is Mike from Acme Solar. Is now a good time?",
        ["Sorry,", "this is Mike from Acme Solar.", "Is now a good time?"],
    ),
    ("Hi, Sam, this is Jo.", ["Hi,", "Sam, this is Jo."]),
    ("Okay, no problem at all, thanks.", ["Okay,", "no problem at all, thanks."]),
    ("Dr. Patel, hello.", ["Dr. Patel,", "hello."]),
    # Five words before the comma: a sentence as usual.
    (
        "I am calling about tomorrow, is that okay?",
        ["I am calling about tomorrow, is that okay?"],
    ),
    # The first sentence ends before the comma: only sentences.
    ("Yes. Well, no.", ["Yes.", "Well, no."]),
    # A comma inside a number is no clause's end.
    ("It costs 1,500 dollars. Okay?", ["It costs 1,500 dollars.", "Okay?"]),
    ("Great!", ["Great!"]),
]


@pytest.mark.parametrize(("text", "chunks"), CLAUSE_CASES)
def test_a_replys_opening_clause_is_a_chunk_of_its_own(text: str, chunks: list[str]) -> None:
    assert split_sentences(text, first_clause=True) == chunks


async def _streamed_clauses(replies: list[str], step: int) -> list[list[str]]:
    aggregator = SentenceAggregator(first_clause=True)
    said = []
    for text in replies:
        out: list[str] = []
        for i in range(0, len(text), step):
            out += [a.text async for a in aggregator.aggregate(text[i : i + step])]
        rest = await aggregator.flush()  # the reply's end (Pipecat flushes at each one)
        said.append(out + ([rest.text] if rest else []))
    return said


@pytest.mark.parametrize("step", [1, 3, 1000])
async def test_each_streamed_reply_opens_with_its_clause(step: int) -> None:
    replies = [text for text, _ in CLAUSE_CASES]
    assert await _streamed_clauses(replies, step) == [chunks for _, chunks in CLAUSE_CASES]


async def test_only_the_start_of_a_reply_is_split_at_a_comma() -> None:
    aggregator = SentenceAggregator(first_clause=True)
    assert [a.text async for a in aggregator.aggregate("Sure, I can. Well, maybe")] == [
        "Sure,",
        "I can.",
    ]
    await aggregator.handle_interruption()  # cut off: the next reply opens afresh
    assert [a.text async for a in aggregator.aggregate("Right, so. ")] == ["Right,"]


def test_a_comma_waits_for_the_next_word() -> None:
    assert clause_end("Sure,") == 0  # "Sure,5" would be a number
    assert clause_end("Sure, I") == len("Sure,")
    assert clause_end("1,500 dollars, you") == len("1,500 dollars,")
