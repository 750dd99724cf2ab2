"""The LLM path: the transcript to an OpenAI-compatible endpoint with a JSON-only instruction;
the offline method when it fails or answers badly (`analyze`)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from callwright.analysis.fields import field_specs, typed
from callwright.analysis.offline import analyze_offline, disposition_for, ended_how
from callwright.analysis.result import OUTCOMES, SENTIMENTS, Analysis, ExtractedField, KeyFact
from callwright.config import Settings
from callwright.models import Call, TranscriptEntry

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AnalysisLLM:
    """An OpenAI-compatible chat-completions endpoint (the agent's own, LLM_BASE_URL)."""

    base_url: str
    api_key: str
    model: str
    transport: httpx.AsyncBaseTransport | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> AnalysisLLM | None:
        if not settings.llm_base_url:
            return None
        return cls(settings.llm_base_url, settings.llm_api_key, settings.llm_model)

    async def complete(self, system: str, user: str) -> str:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with httpx.AsyncClient(timeout=30, transport=self.transport) as client:
            response = await client.post(
                f"{self.base_url.rstrip('/')}/chat/completions", json=body, headers=headers
            )
            response.raise_for_status()
        return str(response.json()["choices"][0]["message"]["content"])


_INSTRUCTION = (
    "You analyse a phone call between an AI agent and a callee. Answer with one JSON object and "
    'nothing else: {"summary": string (2 or 3 sentences), "outcome": one of '
    + ", ".join(f'"{o}"' for o in OUTCOMES)
    + ', "sentiment": one of "positive", "neutral", "negative" (the callee\'s), '
    '"key_facts": [{"fact": string, "lines": [line numbers the fact comes from]}]'
)
TYPE_WORDS = {
    "string": "a string",
    "number": "a number",
    "boolean": "true or false",
    "date": 'an ISO 8601 date ("YYYY-MM-DD", or "YYYY-MM-DDTHH:MM" with a time)',
}


def _instruction(call: Call) -> str:
    """The JSON the LLM must answer, with the call's own analysis settings."""
    text = _INSTRUCTION
    if call.dispositions:
        text += ', "disposition_tag": the one of ' + json.dumps(call.dispositions)
        text += " that best describes how the call went"
    specs = field_specs(call.analysis_schema)
    if specs:
        text += (
            ', "fields": {"<field name>": {"value": the value or null when the call does not '
            'say it, "line": the line number it comes from}} for each of these fields: '
        )
        text += "; ".join(
            f'"{s.name}" ({TYPE_WORDS[s.type]}){": " + s.description if s.description else ""}'
            for s in specs
        )
    text += "}."
    if call.summary_prompt:
        text += f"\nFor the summary, follow these instructions: {call.summary_prompt}"
    return text


def numbered_lines(lines: Sequence[TranscriptEntry]) -> str:
    return "\n".join(
        f"{n}. {'Agent' if e.speaker == 'assistant' else 'Callee'}: {e.text}"
        for n, e in enumerate(lines, 1)
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
    return await _analyze_by(AnalysisLLM(base_url, api_key, model, transport), call, lines)


async def _analyze_by(llm: AnalysisLLM, call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    content = await llm.complete(
        _instruction(call),
        f"The agent's brief: {call.prompt}\nCall status: {ended_how(call)}\n\n{numbered_lines(lines)}",
    )
    return _parse_llm(content, call, lines)


def json_object_in(content: str) -> dict[str, Any]:
    match = re.search(r"\{.*\}", content, re.S)
    if match is None:
        raise ValueError("the LLM answered without a JSON object")
    data = json.loads(match.group(0))
    if not isinstance(data, dict):
        raise ValueError("the LLM answered without a JSON object")
    return data


def _parse_llm(content: str, call: Call, lines: Sequence[TranscriptEntry]) -> Analysis:
    n_lines = len(lines)
    data = json_object_in(content)
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
    dispositions = call.dispositions or []
    said = str(data.get("disposition_tag") or "").strip().lower()
    disposition = next((d for d in dispositions if d.lower() == said), None)
    if disposition is None:  # not one of the list: the outcome mapped onto it
        disposition = disposition_for(outcome, call.end_reason, dispositions)
    answered = data.get("fields")
    given: dict[str, Any] = answered if isinstance(answered, dict) else {}
    fields = {}
    for spec in field_specs(call.analysis_schema):
        item = given.get(spec.name)
        raw, line = (
            (item.get("value"), item.get("line")) if isinstance(item, dict) else (item, None)
        )
        value = typed(spec.type, raw)
        number = int(line) if isinstance(line, int | str) and str(line).isdigit() else 0
        fields[spec.name] = ExtractedField(
            value, number if value is not None and 1 <= number <= n_lines else None
        )
    summary = str(data.get("summary", "")).strip()
    return Analysis(summary, disposition or outcome, sentiment, facts, "llm", disposition, fields)


async def analyze(
    call: Call, lines: Sequence[TranscriptEntry], llm: AnalysisLLM | None
) -> Analysis:
    """The call's analysis with its own settings: by the LLM when one is configured, else (or
    when it fails or answers badly) offline."""
    if llm is not None:
        try:
            return await _analyze_by(llm, call, lines)
        except Exception as exc:
            log.warning("LLM analysis of %s failed, using the offline method: %s", call.id, exc)
    return analyze_offline(call, lines)
