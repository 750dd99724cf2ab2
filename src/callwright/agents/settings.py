"""A call's settings from a saved agent and what the caller gave for this call: the agent's
values first, the call's own on top, then every `{{variable}}` filled (a missing one is a
validation error naming the field the caller sent the variables in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from callwright.agents.variables import fill, missing, missing_message
from callwright.kit.errors import ValidationFailed
from callwright.models import Agent

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
