"""`/v1/batches` in Bland's dialect, mapped onto campaigns (docs/api.md, docs/campaigns.md).

A batch is a campaign that starts at once: its rows are its contacts (checked like a CSV upload:
numbers in E.164, duplicates, emergency and premium numbers, the do-not-call lists, a variable
the task needs), its task and call settings are the campaign's own (over an `agent_id`'s), and
it calls every day inside the legal calling hours of each callee's zone, within its own
concurrency and pace. Both request shapes are taken: the one Bland's published SDK sends
(`base_prompt` + `call_data`, the settings at the top level) and the newer docs' (`global` +
`call_objects`). Each row's keys other than `phone_number` are its `{{variables}}`, on top of the
batch's `request_data`. `stop` cancels it: calls in progress finish, no new ones are dialled."""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents.settings import checked_prompt
from callwright.calls.builder import OrderRefused, checked_flow, published_flow
from callwright.calls.service import VoicemailAction
from callwright.campaigns import repository as campaign_repository
from callwright.campaigns import service as campaigns
from callwright.campaigns.deps import CampaignEventsDep
from callwright.compliance.calling_hours import Window
from callwright.config import Settings
from callwright.developers.keys import ApiKeyCaller
from callwright.kit.bounds import JsonObject, Minutes
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.kit.time import utcnow
from callwright.models import Agent, Call, Campaign
from callwright.public_api import fields
from callwright.public_api.schemas import V1CallActions, V1CallPathway, V1SendCallIn, VoiceNumber
from callwright.public_api.service import (
    call_actions,
    find_voice,
    in_blands_words,
    start_at,
    voice_ids,
)
from callwright.speech import languages, tts
from callwright.telephony.state import TERMINAL

TAG = "Call API (v1)"
ROWS_MAX = 10_000
BATCH_CONCURRENCY = 10
BATCH_PACE = 60
NOT_FOUND = "Batch not found."
ENDED = "This batch has already ended."
NO_ROWS = "Send the calls: `call_data` (or `call_objects`) with a phone_number each."
NO_TASK = "The base_prompt field is required (or a task, or an agent_id)."
CALL_DATA_SHOWN = 1000
#: The file row of the first call object in the CSV a batch becomes (the header is row 1).
FIRST_ROW = 2
#: The fields a call object may give for itself (over the batch's): its actions.
ROW_ACTIONS = tuple(V1CallActions.model_fields)
_TERMINAL = [s.value for s in TERMINAL]
_LENGTH_BUCKETS = (
    ("0-5", 0, 5),
    ("5-10", 5, 10),
    ("10-15", 10, 15),
    ("15-20", 15, 20),
    ("20-30", 20, 30),
    ("30-45", 30, 45),
    ("45-60", 45, 60),
    ("60-90", 60, 90),
    ("90-120", 90, 120),
    ("120+", 120, 10**9),
)

router = APIRouter(prefix="/v1", tags=[TAG])


class V1BatchSettings(V1CallActions, V1CallPathway):
    """The call settings a batch may give (top level, or in `global`), its actions among them
    (a call object may give its own: `ROW_ACTIONS`) and a conversation flow every call follows
    (its published version, pinned when the batch is sent). Keys it does not declare are refused
    (`_refuse_undeclared`)."""

    model_config = ConfigDict(extra="allow")

    task: str | None = Field(None, max_length=20_000)
    agent_id: str | None = Field(None, max_length=36)
    voice: Annotated[str, Field(max_length=64)] | VoiceNumber | None = None
    voice_id: int | None = Field(None, ge=1, le=10_000)
    first_sentence: str | None = Field(None, max_length=1000)
    wait_for_greeting: bool | None = None
    max_duration: Minutes | None = Field(None, ge=1, le=120)
    temperature: float | None = Field(None, ge=0, le=1)
    interruption_threshold: int | None = Field(None, ge=50, le=500)
    voicemail_action: VoicemailAction | None = None
    voicemail_message: str | None = Field(None, max_length=2000)
    request_data: JsonObject | None = None
    webhook: str | None = Field(None, max_length=2048)


class V1BatchIn(V1BatchSettings):
    """Bland's SDK shape (`base_prompt`, `call_data`, settings at the top level; it also sends a
    top-level `phone_number` and `task`, which a batch does not use but the first may fill the
    prompt) or the newer docs' (`global`, `call_objects`)."""

    base_prompt: str | None = Field(None, max_length=20_000)
    call_data: list[JsonObject] | None = Field(None, max_length=ROWS_MAX)
    global_: V1BatchSettings | None = Field(None, alias="global")
    call_objects: list[JsonObject] | None = Field(None, max_length=ROWS_MAX)
    label: str | None = Field(None, max_length=120)
    start_time: str | None = Field(None, max_length=40)
    timezone: str | None = Field(None, max_length=64)
    status_webhook: str | None = Field(None, max_length=2048)


class V1BatchRefused(BaseModel):
    #: Its place in `call_data` (or `call_objects`), from 1.
    row: int
    phone_number: str
    reason: str


class V1BatchCreated(BaseModel):
    status: str = "success"
    message: str = "Batch created successfully."
    batch_id: str
    #: Callwright's: the rows accepted and refused (with why), as a CSV upload's report.
    contacts: int
    refused: list[V1BatchRefused]


class V1StopBatchOut(BaseModel):
    status: str = "success"
    message: str = "Batch stopped: calls in progress will finish."
    #: Contacts that will not be called now.
    num_calls: int
    batch_id: str


def _settings(
    body: V1BatchIn, secret_key: str
) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """The agent id, the call settings (CallOrder's names, the actions' among them) and the
    batch-wide variables."""
    top, inner = body, body.global_ or V1BatchSettings()

    def pick(name: str) -> Any:
        value = getattr(inner, name)
        return value if value is not None else getattr(top, name)

    actions = V1CallActions.model_validate({name: pick(name) for name in ROW_ACTIONS})

    prompt = (body.base_prompt or inner.task or body.task or "").strip() or None
    if prompt is not None:
        try:  # refused here, not contact by contact once the batch runs (calls.builder)
            checked_prompt(prompt)
        except ValueError as exc:
            raise ValidationFailed({"base_prompt": [str(exc)]}) from None
    requested = pick("voice") if pick("voice") is not None else pick("voice_id")
    voice = find_voice(requested)
    if requested is not None and voice is None:
        raise ValidationFailed({"voice": ["The selected voice is not available."]})
    settings = {
        "prompt": prompt,
        "voice": voice.name if voice else None,
        "first_sentence": pick("first_sentence"),
        "wait_for_greeting": pick("wait_for_greeting"),
        "max_duration": pick("max_duration"),
        "temperature": pick("temperature"),
        "interruption_threshold": pick("interruption_threshold"),
        "voicemail_action": pick("voicemail_action"),
        "voicemail_message": pick("voicemail_message"),
        "webhook_url": pick("webhook") or body.status_webhook,
    }
    given = {k: v for k, v in settings.items() if v is not None}
    given.update(call_actions(actions, secret_key))
    return pick("agent_id"), given, dict(pick("request_data") or {})


async def _pinned_flow(session: AsyncSession, user_id: int, body: V1BatchIn) -> dict[str, Any]:
    """`{"flow": ...}` for a batch on a flow: the published version found now, so every call of
    the batch follows the same one (the dialler builds each call on it); a 400 naming the
    field (in `global` when it came from there) when there is no such flow, version or node."""
    inner = body.global_ if body.global_ is not None and body.global_.pathway_id else None
    source = inner or body
    if not source.pathway_id:
        return {}
    try:
        pinned = await published_flow(session, user_id, source.pathway_id, source.pathway_version)
        checked_flow(pinned, source.start_node_id)
    except OrderRefused as refused:
        raise in_blands_words(refused, "global." if inner else "") from None
    choice = {
        "flow_id": pinned.flow_id,
        "version": pinned.version,
        "start_node_id": source.start_node_id,
    }
    return {"flow": choice}


def _aliases(model: type[BaseModel]) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


#: `POST /v1/calls`'s fields a batch does not carry to its calls (refused, docs/api.md).
CALLS_ONLY = _aliases(V1SendCallIn) - _aliases(V1BatchIn) - {"phone_number"}


def _refuse_undeclared(body: V1BatchIn) -> None:
    """A 400 naming every key of the batch (top level and `global`) that it does not honour:
    none is accepted and ignored. Bland's SDK's top-level `phone_number` is taken (the rows
    carry the numbers), as the SDK always sends it."""
    top = {k: v for k, v in (body.model_extra or {}).items() if k != "phone_number"}
    errors = fields.batch_refusals(top, CALLS_ONLY)
    if body.global_ is not None:
        errors |= fields.batch_refusals(body.global_.model_extra or {}, CALLS_ONLY, "global.")
    if errors:
        raise ValidationFailed(errors)


def _row_actions(
    rows: list[dict[str, Any]], field: str, secret_key: str
) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """The rows without their action fields, and each row's own actions (by its place in the
    list, from 0) as a contact keeps them; ValidationFailed naming `call_objects[i].FIELD`."""
    plain: list[dict[str, Any]] = []
    own: dict[int, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        given = {k: v for k, v in row.items() if k in ROW_ACTIONS}
        plain.append({k: v for k, v in row.items() if k not in ROW_ACTIONS})
        if not given:
            continue
        at = f"{field}[{i}]."
        try:
            actions = V1CallActions.model_validate(given)
        except ValidationError as exc:
            raise ValidationFailed(_row_errors(exc, at)) from None
        own[i] = call_actions(actions, secret_key, at)
    return plain, own


def _row_errors(exc: ValidationError, at: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for error in exc.errors():
        name = at + ".".join(str(part) for part in error["loc"])
        errors.setdefault(name, []).append(str(error["msg"]).removeprefix("Value error, "))
    return errors


def _csv(rows: list[dict[str, Any]], shared: dict[str, Any]) -> bytes:
    """The rows as the CSV a user would upload: phone_number first, then every variable."""
    names: dict[str, None] = dict.fromkeys(str(k) for k in shared)
    for row in rows:
        names.update(dict.fromkeys(str(k) for k in row if k != "phone_number"))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["phone_number", *names])
    for row in rows:
        values = {**shared, **row}
        writer.writerow([str(row.get("phone_number", "")), *(_text(values.get(n)) for n in names)])
    return out.getvalue().encode()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def batch_window(settings: Settings) -> Window:
    """A batch's window: the legal calling hours, which Bland's batches do not set. On the
    sandbox network (every callee simulated) the whole day, as for single calls: each call
    then says what a real carrier would have done (calls.service)."""
    if settings.carrier == "sandbox":
        return Window.parse("00:00-24:00")
    return Window.parse(settings.calling_hours)


@router.post("/batches", summary="Send a batch of calls")
async def send_batch(
    body: V1BatchIn,
    caller: ApiKeyCaller,
    session: SessionDep,
    settings: SettingsDep,
    events: CampaignEventsDep,
) -> V1BatchCreated:
    """Call every row with the same task (a campaign that starts now, or at `start_time`)."""
    field = "call_objects" if body.call_objects is not None else "call_data"
    rows = body.call_objects if body.call_objects is not None else body.call_data
    if not rows:
        raise ValidationFailed({"call_data": [NO_ROWS]})
    _refuse_undeclared(body)
    agent_id, given, shared = _settings(body, settings.secret_key)
    given |= await _pinned_flow(session, caller.user.id, body)
    rows, own = _row_actions(rows, field, settings.secret_key)
    if not agent_id and not given.get("prompt") and not given.get("flow"):
        raise ValidationFailed({"base_prompt": [NO_TASK]})
    campaign = await campaigns.create(  # its agent, if any, the user's own (else 404)
        session,
        caller.user.id,
        {
            "name": (body.label or "").strip() or f"API batch {utcnow():%Y-%m-%d %H:%M}",
            "agent_id": agent_id,
            "call_settings": given,
            "batch": True,
            "days": list(range(7)),
            "calling_window": str(batch_window(settings)),
            "concurrency": BATCH_CONCURRENCY,
            "pace_per_minute": BATCH_PACE,
            "retries": {},
            "start_at": start_at(body.start_time, body.timezone, utcnow()),
        },
    )
    loaded = await campaigns.load_contacts(
        session,
        campaign,
        io.BytesIO(_csv(rows, shared)),
        default_region=settings.default_region,
        default_zone=settings.default_timezone,
    )
    await campaign_repository.set_contact_settings(
        session, campaign.id, {i + FIRST_ROW: actions for i, actions in own.items()}
    )
    refused = [
        V1BatchRefused(row=r.row - 1, phone_number=r.value, reason=r.reason)
        for r in loaded.report.refused
    ]
    if loaded.report.accepted == 0:
        message = refused[0].reason if refused else NO_ROWS
        raise ValidationFailed({"call_data": [message]}, "No call in the batch can be placed.")
    await campaigns.act(session, campaign, "start", events)
    return V1BatchCreated(batch_id=campaign.id, contacts=loaded.report.accepted, refused=refused)


async def _owned(session: AsyncSession, user_id: int, batch_id: str) -> Campaign:
    try:
        return await campaigns.owned(session, user_id, batch_id)
    except NotFound:
        raise NotFound(NOT_FOUND) from None


async def _batch_object(session: AsyncSession, campaign: Campaign) -> dict[str, Any]:
    """A batch as Bland's `BatchObject` (and `batch_params`), with Callwright's state and counts."""
    settings = await campaigns.call_settings(session, campaign) if _has_settings(campaign) else {}
    agent = await session.get(Agent, campaign.agent_id) if campaign.agent_id else None
    voice = tts.find(str(settings.get("voice") or "")) or tts.default_voice()
    number = next((n for n, v in voice_ids().items() if v.name == voice.name), 1)
    return {
        "batch_id": campaign.id,
        "id": campaign.id,
        "campaign_id": campaign.id,
        "created_at": campaign.created_at,
        "label": campaign.name,
        "base_prompt": str(settings.get("prompt") or ""),
        "endpoint_code": "api",
        "call_params": {
            "reduce_latency": False,
            "voice_id": number,
            "language": str(settings.get("language") or languages.DEFAULT),
            "request_data": {},
            "max_duration": int(settings.get("max_duration") or 30),
            "wait_for_greeting": bool(settings.get("wait_for_greeting")),
        },
        "agent_id": agent.id if agent else None,
        "state": campaign.state,
        "counters": await campaigns.counters(session, campaign.id),
    }


def _has_settings(campaign: Campaign) -> bool:
    return bool(campaign.agent_id or campaign.call_settings)


@router.get("/batches", summary="List batches")
async def list_batches(caller: ApiKeyCaller, session: SessionDep) -> dict[str, Any]:
    """Every batch (campaign) of the key's owner, newest first."""
    rows = await campaign_repository.newest(session, caller.user.id, CALL_DATA_SHOWN)
    return {"status": "success", "batches": [await _batch_object(session, c) for c in rows]}


@router.get("/batches/{batch_id}", summary="Batch details")
async def batch_details(batch_id: str, caller: ApiKeyCaller, session: SessionDep) -> dict[str, Any]:
    """The batch's parameters, an analysis of its calls so far, and its calls (the first 1,000)."""
    campaign = await _owned(session, caller.user.id, batch_id[:36])
    calls = list(await campaign_repository.first_calls(session, campaign.id, CALL_DATA_SHOWN))
    return {
        "batch_params": await _batch_object(session, campaign),
        "analysis": await _analysis(session, campaign, calls),
        "call_data": [_call_data(call) for call in calls],
    }


def _call_data(call: Call) -> dict[str, Any]:
    return {
        "created_at": call.created_at,
        "to": call.to_number,
        "from": call.from_number,
        "completed": call.status in _TERMINAL,
        "call_id": call.id,
        "call_length": round((call.duration_seconds or 0) / 60, 2),
        "answered_by": call.answered_by,
        "outcome": call.end_reason,
    }


async def _analysis(session: AsyncSession, campaign: Campaign, calls: list[Call]) -> dict[str, Any]:
    total = await campaign_repository.call_count(session, campaign.id)
    done = [c for c in calls if c.status in _TERMINAL]
    seconds = [c.duration_seconds or 0 for c in done]
    nonzero = [s for s in seconds if s]
    queues = Counter("complete" if c.status in _TERMINAL else "queued" for c in calls)
    queues["call_error"] = sum(1 for c in done if c.end_reason == "failed")
    return {
        "total_calls": total,
        "completed_calls": len(done),
        "in_progress_calls": len(calls) - len(done),
        "queue_statuses": dict(queues),
        "call_lengths": {
            "average": round(sum(seconds) / len(seconds)) if seconds else 0,
            "average_nonzero": round(sum(nonzero) / len(nonzero)) if nonzero else 0,
            "summary": {
                label: sum(1 for s in seconds if low <= s / 60 < high)
                for label, low, high in _LENGTH_BUCKETS
            },
            "all": seconds,
        },
        "call_ids": [c.id for c in calls],
        "error_messages": [c.error for c in done if c.error],
        "endpoints": {"API": str(total)},
    }


@router.post("/batches/{batch_id}/stop", summary="Stop a batch")
async def stop_batch(
    batch_id: str, caller: ApiKeyCaller, session: SessionDep, events: CampaignEventsDep
) -> V1StopBatchOut:
    """No new calls are dialled; calls in progress finish."""
    campaign = await _owned(session, caller.user.id, batch_id[:36])
    left = (await campaigns.counters(session, campaign.id)).get("pending", 0)
    try:
        await campaigns.act(session, campaign, "cancel", events)
    except campaigns.CampaignStateError:
        raise AppError(ENDED, 400) from None
    return V1StopBatchOut(num_calls=left, batch_id=campaign.id)
