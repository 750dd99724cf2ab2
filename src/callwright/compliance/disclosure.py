"""The AI disclosure and the recording notice: every call's first turn says that the caller is
an AI assistant and that the call is recorded (docs/compliance.md). On by default; a user may
word it their own way (on an agent, or per call), but not drop either part: a text that does not
say "AI" is refused, and the recording notice is added to one that says nothing of recording
(every call is recorded, but a `/v1` call sent with `record: false`: it says it is an AI only)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

#: Said after the agent's introduction, or after the call's fixed first sentence.
DEFAULT_DISCLOSURE = "I'm an AI assistant, and this call is recorded."
#: The default of a call that is not recorded.
UNRECORDED_DISCLOSURE = "I'm an AI assistant."
RECORDING_NOTICE = "This call is recorded."
DISCLOSURE_MAX = 300
NOT_AI = 'The disclosure must say that the caller is an AI (for example "I\'m an AI assistant").'

_SAYS_AI = re.compile(
    r"\b(ai|a\.i\.|artificial intelligence|automated|virtual (assistant|agent)|bot|robot)\b",
    re.IGNORECASE,
)
_SAYS_RECORDED = re.compile(r"\brecord", re.IGNORECASE)


def checked(value: str | None) -> str | None:
    """A disclosure as a user wrote it: trimmed; empty means the default (None); ValueError when
    it does not say that the caller is an AI. Its `{{variables}}` are filled before the call."""
    if value is None or not value.strip():
        return None
    value = " ".join(value.split())
    if not _SAYS_AI.search(value):
        raise ValueError(NOT_AI)
    return value


def spoken(value: str | None, recorded: bool = True) -> str:
    """What the agent says: the user's wording (or the default), with the recording notice
    when the wording leaves it out and the call is `recorded`."""
    if not recorded:
        return value or UNRECORDED_DISCLOSURE
    text = value or DEFAULT_DISCLOSURE
    if not _SAYS_RECORDED.search(text):
        text = f"{text.rstrip()} {RECORDING_NOTICE}"
    return text


#: The field as the APIs take it (agents, Send Call, /v1): None or empty for the default.
Disclosure = Annotated[str | None, Field(max_length=DISCLOSURE_MAX), AfterValidator(checked)]
