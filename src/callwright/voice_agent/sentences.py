"""Where a sentence ends, for speech: the rule the TTS speaks by and the policy reads prompts by.

A period ends a sentence only when what follows says so. "Dr. Patel", "St. Mary", "e.g. apples",
"Jan. 5", "No. 3" and "J. R. R. Tolkien" go on; "3.5", "$1.50", "10.30", "3:30",
"jo.smith@example.com" and "example.com/a.b" have no space after the period and never split;
"at 3 p.m. Thanks." and "etc. Then" split before a capital; a period before a lower-case word or
a digit never does. "?" and "!" always end a sentence, an ellipsis does before a capital, and so
does a line break. When a period is ambiguous the rule keeps the text together: a late split
costs a moment before the first audio, a wrong one cuts a name in two ("with Dr." then a pause).

`SentenceAggregator` is that rule as Pipecat's text aggregator (what `LocalTTSService` speaks
sentence by sentence); `split_sentences` splits a whole text.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from pipecat.utils.text.base_text_aggregator import Aggregation, BaseTextAggregator, TextType

#: Words that are followed by more of the sentence: titles before a name, "e.g.", "vs.".
JOINING = frozenset(
    (  # noqa: SIM905 (one word list reads better than fifty lines)
        "mr mrs ms mx dr prof st mt ft sr jr fr rev hon gov sen rep gen col capt cpt lt sgt maj "
        "cmdr adm pres supt insp det atty messrs mme mlle e.g i.e cf viz vs approx appt dept ext "
        "fig vol tel apt ste bldg"
    ).split()
)
#: Quotes and brackets that open (before a word) and close (after a sentence's punctuation).
OPENING = "\"'\u201c\u2018(["
CLOSING = "\"'\u201d\u2019)]"
_OPEN = re.escape(OPENING)
#: Ends of sentences: terminal punctuation (with closing quotes or brackets) and a space, or a
#: line break.
_CANDIDATE = re.compile(rf"(\.{{3}}|\u2026|[.!?]+)([{re.escape(CLOSING)}]*)(?=\s)|\n")
#: The word before a period, without its opening quotes or brackets.
_WORD_BEFORE = re.compile(rf"[{_OPEN}]*([^\s{_OPEN}]*)$")
_NEXT_WORD = re.compile(rf"\s*[{_OPEN}]*(\S*)")
#: A single capital (an initial).
_INITIAL = re.compile(r"^[A-Z]$")


def _next_word(text: str, start: int) -> str | None:
    """The word after `start` (opening quotes skipped), or None while none has begun."""
    match = _NEXT_WORD.match(text, start)
    word = match.group(1) if match else ""
    return word or None


def _period_ends(before: str, after: str) -> bool:
    """Whether "<before>. <after>" is two sentences (`before` the word the period ends, `after`
    at least the next word's first character). Any other abbreviation ("etc.", "p.m.", "Inc.")
    ends a sentence before a capital, as a plain word does."""
    first = after[0]
    if not (first.isupper() or first in OPENING or not first.isalnum()):
        return False  # a lower-case word or a number goes on: "etc. and", "Jan. 5", "No. 3"
    if before.lower() in JOINING:
        return False
    # An initial before a name goes on: "J. R. R. Tolkien", "Albert I. Douglas".
    return not _INITIAL.match(before)


def sentence_end(text: str, *, final: bool = False) -> int:
    """The end of the first whole sentence in `text` (0: none yet). Without `final`, a period
    counts only once the next word has begun, so the rule can tell "Dr. Patel" from "here.
    Then"; with it (the text is complete), the text's end is a sentence end too."""
    for match in _CANDIDATE.finditer(text):
        end = match.end()
        if match.group(0) == "\n":
            if text[:end].strip():
                return end
            continue
        marks = match.group(1)
        after = _next_word(text, end)
        if after is None:
            if final and not text[end:].strip():
                return len(text)
            return 0  # wait for the next word
        if marks in ("...", "\u2026"):
            if after[0].isupper():
                return end
            continue
        if marks[-1] in "!?":
            return end
        word = _WORD_BEFORE.search(text[: match.start(1)])
        before = word.group(1) if word else ""
        if _period_ends(before, after):
            return end
    if final and text.strip():
        return len(text)
    return 0


#: A reply's opening clause is said on its own when it is this many words or fewer ("Sure,",
#: "Hi, Sam,", "Okay, no problem,"): see `clause_end`.
CLAUSE_WORDS = 4
_CLAUSE = re.compile(r",(?=\s+\S)")


def clause_end(text: str) -> int:
    """The end of `text`'s opening clause (its first comma, with the next word begun) when the
    clause has at most `CLAUSE_WORDS` words and comes before the first sentence ends; 0: none.

    A reply's first audio waits for the whole of its first chunk to be synthesised, and that
    cost grows with the chunk's length: "Sorry," alone is about a quarter of "Sorry, this is
    Mike from Acme Solar." The rest of the sentence is synthesised while the clause plays, where
    a speaker pauses anyway (docs/performance.md, "Session 24")."""
    match = _CLAUSE.search(text)
    if match is None:
        return 0
    end = match.end()
    if len(text[:end].split()) > CLAUSE_WORDS:
        return 0
    sentence = sentence_end(text)
    return end if sentence == 0 or end < sentence else 0


def split_sentences(text: str, *, first_clause: bool = False) -> list[str]:
    """The sentences of a whole text, stripped (`first_clause`: the opening clause apart, as
    `SentenceAggregator(first_clause=True)` speaks it)."""
    sentences: list[str] = []
    rest = text
    if first_clause and (end := clause_end(text)):
        sentences.append(text[:end].strip())
        rest = text[end:]
    while rest.strip():
        end = sentence_end(rest, final=True)
        sentences.append(rest[:end].strip())
        rest = rest[end:]
    return [s for s in sentences if s]


class SentenceAggregator(BaseTextAggregator):
    """Pipecat's text aggregator (the TTS's sentence splitter) with `sentence_end` as its rule.

    Pipecat's default (`SimpleTextAggregator`, sentencex underneath) keeps "Dr. Patel" together
    but splits "approx. 30" and keeps "at 3 p.m. Thanks." as one; this one follows the rule above
    and is tested with the texts an agent speaks (tests/voice_agent/test_sentences.py)."""

    def __init__(self, *, first_clause: bool = False) -> None:
        super().__init__(aggregation_type=TextType.SENTENCE)
        self._text = ""
        #: Say a reply's opening clause on its own (`clause_end`).
        self.first_clause = first_clause
        #: Whether this reply has yielded a chunk (the opening clause is looked for before).
        self._started = False

    @property
    def text(self) -> Aggregation:
        return Aggregation(text=self._text.strip(), type=TextType.SENTENCE)

    async def aggregate(self, text: str) -> AsyncIterator[Aggregation]:
        self._text += text
        if self.first_clause and not self._started and (end := clause_end(self._text)):
            clause, self._text = self._text[:end].strip(), self._text[end:]
            self._started = True
            yield Aggregation(text=clause, type=TextType.SENTENCE)
        while end := sentence_end(self._text):
            sentence, self._text = self._text[:end].strip(), self._text[end:]
            if sentence:
                self._started = True
                yield Aggregation(text=sentence, type=TextType.SENTENCE)

    async def flush(self) -> Aggregation | None:
        rest, self._text = self._text.strip(), ""
        self._started = False  # the reply is over: the next one may open with a clause
        return Aggregation(text=rest, type=TextType.SENTENCE) if rest else None

    async def handle_interruption(self) -> None:
        self._text = ""
        self._started = False

    async def reset(self) -> None:
        self._text = ""
        self._started = False
