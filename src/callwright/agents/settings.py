"""A call's settings from a saved agent and what the caller gave for this call: the agent's
values first, the call's own on top, then every `{{variable}}` filled (a missing one is a
validation error naming the field the caller sent the variables in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from callwright.agents.variables import fill, missing, missing_message
from callwright.kit.errors import ValidationFailed
from callwright.models import Agent
from callwright.speech import languages, tts

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
)
#: The settings whose text may hold `{{variables}}`.
TEMPLATED = ("prompt", "first_sentence", "voicemail_message", "disclosure")


def merged(agent: Agent | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The agent's settings with the call's given (not None) values on top."""
    settings: dict[str, Any] = (
        {name: getattr(agent, name) for name in CALL_SETTINGS} if agent is not None else {}
    )
    settings.update({name: value for name, value in given.items() if value is not None})
    return settings


def filled(
    settings: Mapping[str, Any], variables: Mapping[str, Any], *, field: str = "variables"
) -> dict[str, Any]:
    """`settings` with each templated text filled from `variables`; ValidationFailed (on
    `field`) naming every placeholder with no value."""
    absent = missing(variables, *(settings.get(name) for name in TEMPLATED))
    if absent:
        raise ValidationFailed({field: [missing_message(absent)]})
    result = dict(settings)
    for name in TEMPLATED:
        if result.get(name) is not None:
            result[name] = fill(result[name], variables)
    return result


def voice_mismatch(voice: tts.Voice, language: str) -> str | None:
    """Why `voice` cannot hold a call in `language` (None when it can)."""
    if voice.language == language:
        return None
    lang = languages.get(language)
    names = ", ".join(v.name for v in tts.speaking(language)) or "none"
    return f'The voice "{voice.name}" does not speak {lang.name}. Voices that do: {names}.'


def voice_and_language(
    settings: dict[str, Any], *, fallback: bool = False
) -> tuple[tts.Voice, str]:
    """Takes `voice` and `language` out of a call's settings: the language checked against the
    offered ones (the default when absent), the voice found (the language's first when absent)
    and speaking it; ValidationFailed on the field at fault. With `fallback` (a campaign's
    later dial, its settings checked when saved) a voice or language no longer offered gives
    way to the default ones instead."""
    try:
        language = languages.checked(settings.pop("language", None))
    except ValueError as exc:
        if not fallback:
            raise ValidationFailed({"language": [str(exc)]}) from None
        language = languages.DEFAULT
    name = settings.pop("voice", "")
    voice = tts.find(name) if name else tts.default_voice(language)
    if fallback and (voice is None or voice_mismatch(voice, language)):
        voice = tts.default_voice(language)
    if voice is None:
        raise ValidationFailed({"voice": ["The selected voice is not available."]})
    if mismatch := voice_mismatch(voice, language):
        raise ValidationFailed({"voice": [mismatch]})
    return voice, language
