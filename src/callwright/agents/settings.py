"""The settings a saved agent holds for its calls, and the checks they share with a call's own
(`calls.builder` puts a call's order together from them: the agent's values first, the call's
own on top)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from callwright.models import Agent
from callwright.speech import languages, tts
from callwright.voice_agent.contract import KEYS_PATTERN

PROMPT_MIN = 10
BackgroundAudio = Literal["null", "office", "cafe", "restaurant", "none"]


def checked_prompt(value: str) -> str:
    """Trimmed, and at least PROMPT_MIN characters (the spec's message)."""
    value = value.strip()
    if len(value) < PROMPT_MIN:
        raise ValueError("The prompt must be at least 10 characters long")
    return value


#: The settings an agent holds that a call takes (the names of CallOrder's fields).
CALL_SETTINGS = (
    "prompt",
    "first_sentence",
    "voice",
    "language",
    "temperature",
    "interruption_threshold",
    "background_audio",
    "max_duration",
    "wait_for_greeting",
    "voicemail_action",
    "voicemail_message",
    "disclosure",
    "summary_prompt",
    "dispositions",
    "analysis_schema",
    "webhook_url",
    "transfer_number",
    "transfer_list",
    "transfer_mode",
    "precall_dtmf_sequence",
)
#: The settings whose text may hold `{{variables}}`.
TEMPLATED = ("prompt", "first_sentence", "voicemail_message", "disclosure")


#: Why a precall DTMF sequence was refused.
DTMF_MESSAGE = (
    "The precall DTMF sequence may hold only the keys 0-9, * and #, and w for a half-second "
    "pause, 64 at most"
)


def checked_dtmf(value: str | None) -> str | None:
    """Keys to press when the call is answered: spaces dropped, then 1 to 64 of `0-9*#w`
    (None or "" for none)."""
    if value is None:
        return None
    value = "".join(value.split())
    if value and not KEYS_PATTERN.fullmatch(value):
        raise ValueError(DTMF_MESSAGE)
    return value or None


def merged(agent: Agent | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The agent's settings with the call's given (not None) values on top."""
    settings: dict[str, Any] = (
        {name: getattr(agent, name) for name in CALL_SETTINGS} if agent is not None else {}
    )
    settings.update({name: value for name, value in given.items() if value is not None})
    return settings


def voice_mismatch(voice: tts.Voice, language: str) -> str | None:
    """Why `voice` cannot hold a call in `language` (None when it can)."""
    if voice.language == language:
        return None
    lang = languages.get(language)
    names = ", ".join(v.name for v in tts.speaking(language)) or "none"
    return f'The voice "{voice.name}" does not speak {lang.name}. Voices that do: {names}.'
