"""Post-call analysis: summary, outcome, sentiment and key facts, each fact with the transcript
lines it comes from.

With an LLM endpoint configured (LLM_BASE_URL) the transcript goes to it with a JSON-only
instruction; otherwise, or when the endpoint fails or answers badly, a transparent offline method
runs: keyword rules for the outcome, a small word list for sentiment, and the callee's lines that
carry a time, a date, a number or an answer as key facts. The result says which method made it."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

from callwright.models import Call, TranscriptEntry

log = logging.getLogger(__name__)

OUTCOMES = (
    "interested",
    "not interested",
    "callback requested",
    "voicemail",
    "wrong number",
    "no answer",
    "no conversation",
    "undetermined",
)
SENTIMENTS = ("positive", "neutral", "negative")

# Checked in this order on the callee's words; the first rule that matches decides.
_OUTCOME_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "wrong number",
        re.compile(r"\bwrong number\b|\bno one (here )?by that name\b|\bnobody by that name\b"),
    ),
    (
        "callback requested",
        re.compile(
            r"\bcall (me )?back\b|\bcall (me )?(later|tomorrow|next week)\b|\banother time\b|\bnot a good time\b|\bbusy right now\b"
        ),
    ),
    (
        "not interested",
        re.compile(
            r"\bnot interested\b|\bno,? thanks?\b|\bno thank you\b|\bdon'?t call\b|\bremove me\b|\bstop calling\b|\bno need\b"
        ),
    ),
    (
        "interested",
        re.compile(
            r"\byes\b|\byeah\b|\bsure\b|\bsounds (good|great)\b|\binterested\b|\bworks for me\b|\bbook\b|\bof course\b|\bperfect\b|\bthat works\b|\bokay\b"
        ),
    ),
]
_POSITIVE = {
    "yes",
    "yeah",
    "sure",
    "great",
    "good",
    "perfect",
    "thanks",
    "thank",
    "love",
    "happy",
    "interested",
    "wonderful",
    "fine",
    "okay",
    "excellent",
    "glad",
}
_NEGATIVE = {
    "no",
    "not",
    "never",
    "bad",
    "angry",
    "annoyed",
    "stop",
    "don't",
    "wrong",
    "busy",
    "terrible",
    "unhappy",
    "problem",
    "cancel",
}
_FACT = re.compile(
    r"\b(\d[\d:.,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|"
    r"morning|afternoon|evening|week|month|am|pm|o'clock|"
    r"yes|no|email|address|phone|number|name)\b"
)


@dataclass
class KeyFact:
    fact: str
    lines: list[int]


@dataclass
class Analysis:
    summary: str
    outcome: str
    sentiment: str
    key_facts: list[KeyFact] = field(default_factory=list)
    method: str = "offline"

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        data = json.loads(text)
        facts = [KeyFact(str(f["fact"]), [int(n) for n in f["lines"]]) for f in data["key_facts"]]
        return cls(data["summary"], data["outcome"], data["sentiment"], facts, data["method"])


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def _mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _ended(call: Call) -> str:
    """How the call ended, for the summary: its outcome, else its status."""
    return f"ended: {call.end_reason}" if call.end_reason else f"status {call.status}"


def analyze_offline(call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    """Line numbers are 1-based positions in the transcript."""
    numbered = list(enumerate(lines, 1))
    callee = [(n, e) for n, e in numbered if e.speaker == "user"]
    callee_text = " ".join(e.text for _, e in callee).lower()
    if call.end_reason == "voicemail":
        outcome = "voicemail"
    elif call.answered_at is None:
        outcome = "no answer"
    elif not callee:
        outcome = "no conversation"
    else:
        outcome = next(
            (o for o, rule in _OUTCOME_RULES if rule.search(callee_text)), "undetermined"
        )
    words = _words(callee_text)
    score = sum(w in _POSITIVE for w in words) - sum(w in _NEGATIVE for w in words)
    if outcome in ("not interested", "wrong number"):
        score = min(score, -1)
    sentiment = "positive" if score > 0 else "negative" if score < 0 else "neutral"
    facts = [KeyFact(e.text.strip(), [n]) for n, e in callee if _FACT.search(e.text.lower())][:5]
    purpose = re.split(r"(?<=[.!?])\s", call.prompt.strip(), maxsplit=1)[0].rstrip(".")
    duration = call.duration_seconds or 0
    summary = (
        f"Call to {call.to_number} ({_mmss(duration)}, {_ended(call)}). "
        f"Agent's brief: {purpose}. "
        f"{len(callee)} callee line(s), {len(lines) - len(callee)} agent line(s). "
        f"Outcome: {outcome}; the callee's tone was {sentiment}."
    )
    return Analysis(summary, outcome, sentiment, facts, "offline")


_INSTRUCTION = (
    "You analyse a phone call between an AI agent and a callee. Answer with one JSON object and "
    'nothing else: {"summary": string (2 or 3 sentences), "outcome": one of '
    + ", ".join(f'"{o}"' for o in OUTCOMES)
    + ', "sentiment": one of "positive", "neutral", "negative" (the callee\'s), '
    '"key_facts": [{"fact": string, "lines": [line numbers the fact comes from]}]}.'
)


async def analyze_with_llm(
    call: Call,
    lines: Sequence[TranscriptEntry],
    *,
    base_url: str,
    api_key: str,
    model: str,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Analysis:
    transcript = "\n".join(
        f"{n}. {'Agent' if e.speaker == 'assistant' else 'Callee'}: {e.text}"
        for n, e in enumerate(lines, 1)
    )
    body = {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _INSTRUCTION},
            {
                "role": "user",
                "content": f"The agent's brief: {call.prompt}\nCall status: {_ended(call)}\n\n{transcript}",
            },
        ],
    }
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    async with httpx.AsyncClient(timeout=30, transport=transport) as client:
        response = await client.post(
            f"{base_url.rstrip('/')}/chat/completions", json=body, headers=headers
        )
        response.raise_for_status()
    content = response.json()["choices"][0]["message"]["content"]
    return _parse_llm(content, len(lines))


def _parse_llm(content: str, n_lines: int) -> Analysis:
    match = re.search(r"\{.*\}", content, re.S)
    if match is None:
        raise ValueError("the LLM answered without a JSON object")
    data: dict[str, Any] = json.loads(match.group(0))
    outcome = str(data.get("outcome", "")).lower()
    sentiment = str(data.get("sentiment", "")).lower()
    if outcome not in OUTCOMES:
        outcome = "undetermined"
    if sentiment not in SENTIMENTS:
        sentiment = "neutral"
    facts = []
    for item in data.get("key_facts") or []:
        if isinstance(item, dict) and item.get("fact"):
            cited = [int(n) for n in item.get("lines") or [] if str(n).isdigit()]
            facts.append(KeyFact(str(item["fact"]), [n for n in cited if 1 <= n <= n_lines]))
    return Analysis(str(data.get("summary", "")).strip(), outcome, sentiment, facts, "llm")
