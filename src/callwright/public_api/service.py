"""Bland's send-call request read in our terms: the phone number the send-call way (kit.phone),
the voice by name or number, Bland's language codes, the schedule in its time zone; the order
itself is `calls.builder`'s (the agent's settings under the request's, `{{variables}}` filled
from `request_data`). Every refusal is a `ValidationFailed` naming Bland's field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import tools as agent_tools
from callwright.calls.builder import CallRequest, FlowChoice, OrderRefused, build_order
from callwright.calls.service import CallOrder
from callwright.config import Settings
from callwright.kit.errors import ValidationFailed
from callwright.kit.phone import dial_number
from callwright.kit.security import seal
from callwright.kit.time import utcnow
from callwright.public_api import fields
from callwright.public_api.schemas import (
    FIELD_TYPES,
    V1AnalysisField,
    V1CallActions,
    V1DynamicData,
    V1SendCallIn,
    V1Tool,
)
from callwright.speech import languages, tts
from callwright.voice_agent.contract import TOOL_TIMEOUT, WAITING_LINE

#: Bland's default zone for a `start_time` without an offset.
DEFAULT_TIMEZONE = "America/Los_Angeles"
#: How far ahead a call may be scheduled.
SCHEDULE_AHEAD_MAX = timedelta(days=365)
#: Bland leaves a voicemail only when asked: its default action is to hang up.
VOICEMAIL_HANG_UP = "hangup"
_START_TIME = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})[ T](?P<time>\d{2}:\d{2}(?::\d{2})?)"
    r"\s*(?P<offset>Z|[+-]\d{2}:?\d{2})?"
)
START_PAST = "The start time must be in the future."
START_TOO_FAR = "A call can be scheduled up to a year ahead."
TIMEZONE_ALONE = (
    "`timezone`: it only says how to read `start_time`; without a `start_time` the call is "
    "dialled at once."
)
VOICE_UNAVAILABLE = "The selected voice is not available. See GET /v1/voices."


def phone_number(text: str) -> str:
    """E.164, the send-call rule: punctuation tidied, a number without `+` read in the default
    region (Bland reads ten digits as US/Canada: the default region, US, does the same)."""
    try:
        return dial_number(text)
    except ValueError as exc:
        raise ValidationFailed({"phone_number": [str(exc)]}, "Invalid phone number.") from exc


def voice_ids() -> dict[int, tts.Voice]:
    """The voices this server speaks, numbered from 1 in `GET /v1/voices` order."""
    return dict(enumerate(tts.catalogue(), start=1))


def find_voice(given: str | int | None) -> tts.Voice | None:
    if given is None:
        return None
    if isinstance(given, int) or given.strip().isdigit():
        return voice_ids().get(int(given))
    name = given.strip().lower()
    return next((v for v in tts.catalogue() if v.name.lower() == name), None)


def start_at(start_time: str | None, timezone: str | None, now: datetime) -> datetime | None:
    """The UTC moment of Bland's `start_time`; None when not given."""
    if not start_time or not start_time.strip():
        return None
    match = _START_TIME.fullmatch(start_time.strip())
    if match is None:
        raise ValidationFailed(
            {"start_time": ["Use YYYY-MM-DD HH:MM:SS, optionally with an offset (-05:00)."]}
        )
    try:
        zone = ZoneInfo(timezone or DEFAULT_TIMEZONE)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationFailed(
            {"timezone": ["Unknown time zone: use an IANA name such as America/New_York."]}
        ) from exc
    offset = match["offset"]
    text = f"{match['date']}T{match['time']}"
    try:
        if offset:
            offset = "+00:00" if offset == "Z" else offset
            if ":" not in offset:
                offset = offset[:3] + ":" + offset[3:]
            at = datetime.fromisoformat(text + offset)
        else:
            at = datetime.fromisoformat(text).replace(tzinfo=zone)
    except ValueError as exc:
        raise ValidationFailed({"start_time": ["That date or time does not exist."]}) from exc
    # Compared before converting: an aware time compares as UTC without being moved there,
    # and moving "9999-12-31 23:59:59 -23:59" to UTC would pass the last year datetime holds.
    if at <= now:
        raise ValidationFailed({"start_time": [START_PAST]})
    if at > now + SCHEDULE_AHEAD_MAX:
        raise ValidationFailed({"start_time": [START_TOO_FAR]})
    return at.astimezone(UTC)


def analysis_fields(
    schema: dict[str, str] | list[V1AnalysisField] | None,
) -> list[dict[str, Any]] | None:
    """`analysis_schema` as our `[{name, type, description}]`. In Bland's object a value that
    names a type (string, boolean, number, integer) is the field's type, anything else its
    description (a string field)."""
    if schema is None:
        return None
    if isinstance(schema, dict):
        fields = []
        for name, hint in schema.items():
            hint = str(hint).strip()
            kind = hint.lower() if hint.lower() in FIELD_TYPES else "string"
            description = "" if hint.lower() in FIELD_TYPES else hint
            fields.append({"name": name, "type": kind, "description": description})
        return fields or None
    return [field.model_dump() for field in schema] or None


#: The Bland SDK's three-letter language codes (its docs: eng, esp, fre, pol).
BLAND_LANGUAGES = {"eng": "en", "esp": "es", "fre": "fr", "pol": "pl"}


def language_code(given: str | None) -> str | None:
    """A `language` in Bland's dialect as our code: "babel-en" and "eng" name English (None:
    not given); ValidationFailed when it names no offered language."""
    if given is None or not given.strip():
        return None
    code = given.strip().lower()
    code = BLAND_LANGUAGES.get(code, code.removeprefix("babel-"))
    try:
        return languages.checked(code)
    except ValueError:
        raise ValidationFailed({"language": [languages.not_offered_message(given)]}) from None


def _given(body: V1SendCallIn) -> dict[str, Any]:
    """The request's own settings, by CallOrder's names (None: not given). A voice it names
    that is none of ours is passed on as written (the builder refuses it)."""
    voicemail_action = body.voicemail.action if body.voicemail else body.voicemail_action
    voicemail_message = body.voicemail.message if body.voicemail else None
    requested = body.voice if body.voice is not None else body.voice_id
    voice = find_voice(requested)
    return {
        "prompt": body.task.strip() if body.task and body.task.strip() else None,
        "voice": voice.name if voice else None if requested is None else str(requested),
        "first_sentence": body.first_sentence,
        "language": language_code(body.language),
        "temperature": body.temperature,
        "interruption_threshold": body.interruption_threshold,
        "background_audio": body.background_track,
        "max_duration": body.max_duration,
        "wait_for_greeting": body.wait_for_greeting,
        # Bland leaves a voicemail only when asked (an agent always has its own action).
        "voicemail_action": voicemail_action or (None if body.agent_id else VOICEMAIL_HANG_UP),
        "voicemail_message": voicemail_message or body.voicemail_message,
        "disclosure": body.disclosure,
        "summary_prompt": body.summary_prompt,
        "dispositions": body.dispositions,
        "analysis_schema": analysis_fields(body.analysis_schema),
        "webhook_url": body.webhook,
        **action_settings(body),
    }


def action_settings(actions: V1CallActions) -> dict[str, Any]:
    """The transfer and keypad settings of a request, by CallOrder's names (None: not
    given)."""
    return {
        "transfer_number": actions.transfer_phone_number,
        "transfer_list": actions.transfer_list,
        "transfer_mode": actions.transfer_mode,
        "precall_dtmf_sequence": actions.precall_dtmf_sequence,
    }


#: A refusal of the order in Bland's words, by (field, problem): the field it names, and its
#: message (None: the builder's).
_BLANDS_WORDS: dict[tuple[str, str], tuple[str, str | None]] = {
    ("prompt", "missing"): ("task", "The task field is required (or send an agent_id)."),
    ("prompt", "too-short"): ("task", "The task must be at least 10 characters long."),
    ("voice", "unavailable"): ("voice", VOICE_UNAVAILABLE),
    ("variables", "missing"): ("request_data", None),
    ("flow", "not-found"): ("pathway_id", None),
    ("flow", "not-published"): ("pathway_version", None),
    ("flow", "no-node"): ("start_node_id", None),
    ("flow", "bad-number"): ("pathway_id", None),
}


def call_tools(
    tools: list[V1Tool] | None, secret_key: str, at: str = ""
) -> list[dict[str, Any]] | None:
    """Bland's tool objects as a call keeps its tools (header values sealed); each checked
    like an agent's tool (ValidationFailed naming `tools[i]`, after `at`: a batch's row)."""
    kept: list[dict[str, Any]] = []
    for i, tool in enumerate(tools or ()):
        try:
            name = agent_tools.checked_tool_name(tool.name)
            url = agent_tools.checked_tool_url(tool.url)
            parameters = agent_tools.checked_parameters(
                tool.input_schema or dict(agent_tools.EMPTY_PARAMETERS)
            )
        except ValueError as exc:
            raise ValidationFailed({f"{at}tools[{i}]": [str(exc)]}) from None
        if any(t["name"] == name for t in kept):
            raise ValidationFailed({f"{at}tools[{i}]": [f'The tool "{name}" is listed twice.']})
        kept.append(
            {
                "name": name,
                "description": tool.description.strip(),
                "parameters": parameters,
                "method": tool.method,
                "url": url,
                "headers": _sealed(tool.headers, secret_key),
                "body": tool.body,
                "timeout_seconds": (tool.timeout or TOOL_TIMEOUT * 1000) / 1000,
                "waiting_line": WAITING_LINE if tool.speech is None else tool.speech.strip(),
            }
        )
    return kept or None


def call_dynamic_data(
    requests: list[V1DynamicData] | None, secret_key: str, at: str = ""
) -> list[dict[str, Any]] | None:
    """Bland's `dynamic_data` as a call keeps it (header values sealed; a refusal names
    `dynamic_data[i]` after `at`)."""
    kept = []
    for i, request in enumerate(requests or ()):
        try:
            url = agent_tools.checked_tool_url(request.url)
        except ValueError as exc:
            raise ValidationFailed({f"{at}dynamic_data[{i}]": [str(exc)]}) from None
        kept.append(
            {
                "url": url,
                "method": request.method,
                "headers": _sealed(request.headers, secret_key),
                "body": request.body,
                "cache": request.cache,
                "response_data": [item.model_dump() for item in request.response_data],
            }
        )
    return kept or None


def call_actions(actions: V1CallActions, secret_key: str, at: str = "") -> dict[str, Any]:
    """Every action a request gives, as a campaign keeps them for its calls (CallOrder's
    names, `tools` and `dynamic_data` as a call keeps them; what it does not give left out)."""
    given = {
        **action_settings(actions),
        "tools": call_tools(actions.tools, secret_key, at),
        "dynamic_data": call_dynamic_data(actions.dynamic_data, secret_key, at),
    }
    return {name: value for name, value in given.items() if value is not None}


def _sealed(headers: dict[str, str] | None, secret_key: str) -> dict[str, str]:
    return {name: seal(secret_key, value) for name, value in (headers or {}).items()}


def caller_id(given: str | None, own: str) -> str | None:
    """Bland's `from`: only this server's own number `own` (None: not given)."""
    if given is None or not given.strip():
        return None
    try:
        number = dial_number(given)
    except ValueError as exc:
        raise ValidationFailed({"from": [f"`from`: {exc}"]}) from None
    if number != own:
        raise ValidationFailed(
            {
                "from": [
                    f"`from`: only this server's number, {own}, is supported ({fields.NO_POOL})."
                ]
            }
        )
    return number


def refuse_unsupported(body: V1SendCallIn, headers: Mapping[str, str]) -> None:
    """A 400 naming each field Callwright does not do (`fields`), the `encrypted_key` header
    included, and a `timezone` sent without `start_time`."""
    extra = dict(body.model_extra or {})
    if headers.get("encrypted_key"):
        extra["encrypted_key"] = headers["encrypted_key"]
    voicemail = body.voicemail.model_dump(include={"sms", "sensitive"}) if body.voicemail else None
    fields.refuse(extra, voicemail)
    if body.timezone and not (body.start_time or "").strip():
        raise ValidationFailed({"timezone": [TIMEZONE_ALONE]})


async def order_for(
    session: AsyncSession, user_id: int, key_id: int, body: V1SendCallIn, settings: Settings
) -> CallOrder:
    """The call `body` asks for, on behalf of `user_id`'s key `key_id` (its tools' secrets
    sealed with the server's secret key). Fields it refuses: `refuse_unsupported` first."""
    secret_key = settings.secret_key
    request = CallRequest(
        kind="api",
        to_number=phone_number(body.phone_number),
        user_id=user_id,
        agent_id=body.agent_id or None,
        settings=_given(body),
        variables=body.request_data,
        call_metadata=body.metadata,
        start_at=start_at(body.start_time, body.timezone, utcnow()),
        from_number=caller_id(body.from_, settings.from_number),
        record=body.record is not False,
        answered_by_enabled=body.answered_by_enabled is True,
        api_key_id=key_id,
        tools=call_tools(body.tools, secret_key),
        dynamic_data=call_dynamic_data(body.dynamic_data, secret_key),
        flow=FlowChoice(body.pathway_id, body.pathway_version, body.start_node_id)
        if body.pathway_id
        else None,
    )
    try:
        return await build_order(session, request)
    except OrderRefused as refused:
        raise in_blands_words(refused) from None


def in_blands_words(refused: OrderRefused, at: str = "") -> ValidationFailed:
    """The builder's refusal naming Bland's field (after `at`: `global.` in a batch)."""
    field, message = _BLANDS_WORDS.get((refused.field, refused.problem), (refused.field, None))
    return ValidationFailed({at + field: [message or refused.message]})
