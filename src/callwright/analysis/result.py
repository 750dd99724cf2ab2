"""What an analysis holds: a summary, an outcome and a sentiment, key facts with the lines
they come from, a disposition and the extracted fields; stored on the call as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

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


@dataclass
class KeyFact:
    fact: str
    lines: list[int]


#: A field's value: text, a number, yes/no, or a date (ISO 8601 text); None when not found.
Value = str | int | float | bool | None


@dataclass
class ExtractedField:
    value: Value
    #: The 1-based transcript line the value comes from (None: not found, or not said).
    line: int | None = None


@dataclass(frozen=True)
class Answer:
    """One answer to an ad-hoc question (`POST /v1/calls/{id}/analyze`), with where it comes
    from: a transcript line, or what is known of the call; neither when nothing says it."""

    value: Any
    #: The 1-based transcript line that says it.
    line: int | None = None
    #: Else the call's fact it comes from ("answered_by", "end_reason").
    fact: str | None = None


@dataclass
class Analysis:
    summary: str
    outcome: str
    sentiment: str
    key_facts: list[KeyFact] = field(default_factory=list)
    method: str = "offline"
    #: One of the call's `dispositions` (None: the call gave none, or none fits).
    disposition_tag: str | None = None
    #: The call's `analysis_schema` fields by name.
    fields: dict[str, ExtractedField] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def values(self) -> dict[str, Value]:
        """The extracted fields as name -> value (Bland's `analysis`)."""
        return {name: f.value for name, f in self.fields.items()}

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        """Also reads analyses stored before dispositions and fields existed."""
        data = json.loads(text)
        facts = [KeyFact(str(f["fact"]), [int(n) for n in f["lines"]]) for f in data["key_facts"]]
        fields = {
            str(name): ExtractedField(f.get("value"), f.get("line"))
            for name, f in (data.get("fields") or {}).items()
            if isinstance(f, dict)
        }
        return cls(
            data["summary"],
            data["outcome"],
            data["sentiment"],
            facts,
            data["method"],
            data.get("disposition_tag"),
            fields,
        )
