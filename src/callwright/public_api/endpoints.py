"""The `/v1` call API in Bland's dialect, authenticated only by API keys (`ApiKeyCaller`). A key
acts for its owner alone: another user's call id answers 404, like an unknown one. Placing a
call goes through the same `CallService.place` as the dashboard's Send Call (the balance hold,
the dial after commit, `call.queued`)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel

from callwright.calls import repository as calls
from callwright.calls.deps import CallsDep
from callwright.developers import service as developers
from callwright.developers.keys import ApiKeyCaller
from callwright.developers.ssrf import private_targets
from callwright.kit.db import SessionDep
from callwright.kit.deps import LimiterDep, SettingsDep
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.kit.storage import Store, StoreError
from callwright.models import Call
from callwright.public_api import repository, serialize
from callwright.public_api.repository import CallFilter
from callwright.public_api.schemas import (
    SEND_CALL_EXAMPLES,
    V1CallDetail,
    V1CallsList,
    V1Error,
    V1ListedCall,
    V1RecordingOut,
    V1SendCallIn,
    V1SendCallOut,
    V1StopOut,
    V1Voice,
    V1VoicesList,
)
from callwright.public_api.service import (
    find_voice,
    order_for,
    refuse_unsupported,
    voice_ids,
)
from callwright.speech.audio import mp3_to_wav

log = logging.getLogger(__name__)
TAG = "Call API (v1)"
#: Calls a list answers when no `limit` is given, and at most.
LIST_DEFAULT = 100
LIST_MAX = 1000
INDEX_MAX = 10_000_000
#: Bland's per-number rule: one call to the same number every 10 seconds (per account).
SAME_NUMBER_SECONDS = 10
SAME_NUMBER = "Calls can only be sent every 10 seconds to the same number."
CALL_NOT_FOUND = "Call not found."
NOT_FOUND_RESPONSE: dict[int | str, dict[str, Any]] = {
    404: {"model": V1Error, "description": "No such call among the key owner's calls."}
}
AUTH_RESPONSES: dict[int | str, dict[str, Any]] = {
    # Also keeps FastAPI from listing a 422: /v1 answers invalid parameters with 400.
    "4XX": {"model": V1Error, "description": "Every error, in Bland's shape."},
    401: {"model": V1Error, "description": "Missing, unknown or revoked API key."},
    429: {"model": V1Error, "description": "The key's rate limit (with Retry-After)."},
}

router = APIRouter(prefix="/v1", tags=[TAG], responses=AUTH_RESPONSES)


async def _owned(session: SessionDep, caller: ApiKeyCaller, call_id: str) -> Call:
    call = await repository.owned_call(session, caller.user.id, call_id)
    if call is None:
        raise NotFound(CALL_NOT_FOUND)
    return call


@router.post(
    "/calls",
    summary="Send a call",
    responses={
        400: {"model": V1Error, "description": "Invalid parameters (a bad number, ...)."},
        402: {"model": V1Error, "description": "Insufficient balance."},
        404: {"model": V1Error, "description": "`agent_id` is not one of yours."},
    },
)
async def send_call(
    body: Annotated[V1SendCallIn, Body(openapi_examples=SEND_CALL_EXAMPLES)],
    request: Request,
    caller: ApiKeyCaller,
    session: SessionDep,
    domain: CallsDep,
    settings: SettingsDep,
    limiter: LimiterDep,
) -> V1SendCallOut:
    """Place an AI phone call (or schedule it with `start_time`). The maximum duration's price
    is held from the balance until the call ends; the call is dialled once queued. Every field
    of Bland's is honoured or refused with a 400 naming it (docs/api.md); so is an unknown key."""
    refuse_unsupported(body, request.headers)
    order = await order_for(session, caller.user.id, caller.key_id, body, settings)
    notice = None
    if body.webhook:
        rule = private_targets(settings)
        notice = await developers.url_notice(body.webhook, rule, "webhook")
    same_number = ("v1-same-number", f"{caller.user.id}:{order.to_number}", 1, SAME_NUMBER_SECONDS)
    await limiter.hit(*same_number, SAME_NUMBER)
    service = domain.service
    try:
        call = await service.place(session, order)
    except Exception:
        # A refused call (the balance, the do-not-call list, the calling hours) places nothing:
        # it does not start the number's 10 seconds, so the corrected retry goes through. The
        # window held only this attempt (the hit above refuses a second), so clearing it
        # undoes just that.
        await limiter.clear(*same_number)
        raise
    said = (await service.notice(session, call), notice)
    return V1SendCallOut(call_id=call.id, notice=" ".join(n for n in said if n) or None)


def _day(value: str | None, field: str) -> datetime | None:
    """A `YYYY-MM-DD` (the day's start, UTC) or an ISO 8601 time."""
    if not value:
        return None
    try:
        if len(value) == 10:
            return datetime.combine(date.fromisoformat(value), time(), UTC)
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValidationFailed({field: ["Use YYYY-MM-DD or an ISO 8601 time."]}) from exc
    return at if at.tzinfo else at.replace(tzinfo=UTC)


@router.get("/calls", summary="List calls")
async def list_calls(
    caller: ApiKeyCaller,
    session: SessionDep,
    to_number: Annotated[str | None, Query(max_length=40)] = None,
    from_number: Annotated[str | None, Query(max_length=40)] = None,
    start_date: Annotated[
        str | None, Query(max_length=40, description="YYYY-MM-DD or ISO 8601, inclusive.")
    ] = None,
    end_date: Annotated[
        str | None,
        Query(max_length=40, description="YYYY-MM-DD (the whole day) or ISO 8601, inclusive."),
    ] = None,
    completed: bool | None = None,
    answered_by: Annotated[str | None, Query(max_length=16)] = None,
    batch_id: Annotated[
        str | None, Query(max_length=64, description="Accepted; no call is in a batch yet.")
    ] = None,
    campaign_id: Annotated[
        str | None, Query(max_length=64, description="Accepted; no call is in a campaign yet.")
    ] = None,
    from_: Annotated[
        int | None, Query(alias="from", ge=0, le=INDEX_MAX, description="First index, inclusive.")
    ] = None,
    to: Annotated[
        int | None, Query(ge=0, le=INDEX_MAX, description="Last index, exclusive.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_MAX)] = LIST_DEFAULT,
    ascending: bool = False,
) -> V1CallsList:
    """Your calls, newest first (`ascending=true`: oldest first). `from`/`to` pick a range of
    the sorted list, `limit` caps it (default 100, at most 1000); `count` is how many match."""
    end = _day(end_date, "end_date")
    if end is not None and end_date and len(end_date) == 10:
        end += timedelta(days=1)
    elif end is not None:
        end += timedelta(microseconds=1)
    skip = from_ or 0
    size = limit if to is None else max(0, min(limit, to - skip))
    if batch_id or campaign_id or size == 0:
        return V1CallsList(count=0, calls=[])
    rows, total = await repository.list_calls(
        session,
        caller.user.id,
        CallFilter(
            to_number=to_number.strip() if to_number else None,
            from_number=from_number.strip() if from_number else None,
            created_from=_day(start_date, "start_date"),
            created_before=end,
            completed=completed,
            answered_by=answered_by,
        ),
        skip=skip,
        size=size,
        ascending=ascending,
    )
    return V1CallsList(
        count=total, calls=[V1ListedCall.model_validate(serialize.listed(c)) for c in rows]
    )


@router.get("/calls/{call_id}", summary="Call details", responses=NOT_FOUND_RESPONSE)
async def call_details(
    call_id: str, caller: ApiKeyCaller, session: SessionDep, settings: SettingsDep
) -> V1CallDetail:
    """Everything about a call: status, who answered and who hung up, length, price, the
    transcript, the recording's URL, the analysis, your metadata and variables."""
    call = await _owned(session, caller, call_id)
    lines = await calls.transcript(session, call.id)
    return V1CallDetail.model_validate(serialize.detail(call, lines, settings.app_url))


@router.post(
    "/calls/{call_id}/stop",
    summary="Stop a call",
    responses={
        **NOT_FOUND_RESPONSE,
        400: {"model": V1Error, "description": "The call has already ended."},
    },
)
async def stop_call(
    call_id: str, caller: ApiKeyCaller, session: SessionDep, domain: CallsDep
) -> V1StopOut:
    """Hang up a live call, or cancel a queued or scheduled one (its hold is released)."""
    await domain.stop(session, await _owned(session, caller, call_id), ended_status=400)
    return V1StopOut()


@router.get(
    "/calls/{call_id}/recording",
    summary="Recording URL",
    responses=NOT_FOUND_RESPONSE,
)
async def call_recording(
    call_id: str, caller: ApiKeyCaller, session: SessionDep, settings: SettingsDep
) -> V1RecordingOut:
    """Where the call's recording is (`GET /v1/recordings/{call_id}` with your key)."""
    call = await _owned(session, caller, call_id)
    url = serialize.recording_url(call, settings.app_url)
    if url is None:
        raise NotFound("CALL_RECORDING_NOT_FOUND")
    return V1RecordingOut(url=url)


def _wants_mp3(request: Request) -> bool:
    """MP3 when asked for (`Accept: audio/mpeg`, or Bland's `content-type: audio/mpeg`)."""
    asked = f"{request.headers.get('accept', '')},{request.headers.get('content-type', '')}"
    return "audio/mpeg" in asked or "audio/mp3" in asked


async def _wav_of(store: Store, mp3: str) -> str | None:
    """The recording as WAV, made once next to the MP3 in the recordings' store (again when
    the MP3 is newer); None when there is no MP3."""
    wav = str(Path(mp3).with_suffix(".wav"))
    made, source = await store.stat(wav), await store.stat(mp3)
    if source is None:
        return None
    if made is None or made.modified < source.modified:
        await store.put(wav, await asyncio.to_thread(mp3_to_wav, await store.read(mp3)))
    return wav


@router.get(
    "/recordings/{call_id}",
    summary="Recording audio",
    response_class=FileResponse,
    responses={
        200: {
            "content": {"audio/wav": {}, "audio/mpeg": {}},
            "description": "WAV by default; MP3 with `Accept: audio/mpeg`.",
        },
        **NOT_FOUND_RESPONSE,
    },
)
async def recording_audio(
    call_id: str, caller: ApiKeyCaller, session: SessionDep, request: Request, domain: CallsDep
) -> Response:
    """The call's recording (stereo: the agent left, the callee right). Range requests work."""
    call = await _owned(session, caller, call_id)
    store = domain.media.store
    response: Response | None = None
    try:
        if call.recording_path and _wants_mp3(request):
            name: str | None = call.recording_path
            media_type, filename = "audio/mpeg", f"{call.id}.mp3"
        else:
            name = await _wav_of(store, call.recording_path) if call.recording_path else None
            media_type, filename = "audio/wav", f"{call.id}.wav"
        if name is not None:
            response = await store.response(
                name,
                request.headers.get("range"),
                media_type=media_type,
                filename=filename,
                if_range=request.headers.get("if-range"),
            )
    except StoreError as exc:
        log.error("recording of %s: %s", call.id, exc)
        raise AppError("CALL_RECORDING_UNAVAILABLE", 503) from exc
    if response is None:
        raise NotFound("CALL_RECORDING_NOT_FOUND")
    return response


@router.get("/voices", summary="List voices")
async def list_voices(_caller: ApiKeyCaller) -> V1VoicesList:
    """The voices this server speaks. Send `voice` as the name (or the numeric `voice_id`)."""
    return V1VoicesList(
        voices=[
            V1Voice(
                voice_id=number,
                name=voice.name,
                description=voice.description,
                tags=[voice.gender, voice.engine, "english"],
            )
            for number, voice in voice_ids().items()
        ]
    )


#: A built-in voice was never created by anyone: its `created_at` is the Unix epoch.
BUILT_IN = datetime(1970, 1, 1, tzinfo=UTC)
VOICE_NOT_FOUND = "Voice not found."


class V1RetrievedVoice(BaseModel):
    """Bland's `RetrievedVoice`, for a built-in voice (the numbers and names of `GET /v1/voices`)."""

    voice_preset_id: str
    voice_id: int
    voice_name: str
    description: str
    reduce_latency: bool = True
    interruption_threshold: int | None = None
    language: str
    voice_settings: dict[str, str]
    editable: bool = False
    public: bool = True
    created_at: datetime = BUILT_IN


class V1VoiceOut(BaseModel):
    voice: V1RetrievedVoice


@router.get("/voices/{voice_id}", summary="Voice details", responses={404: {"model": V1Error}})
async def voice_details(
    voice_id: Annotated[str, PathParam(max_length=64)], _caller: ApiKeyCaller
) -> V1VoiceOut:
    """One voice of `GET /v1/voices`, by its number or its name."""
    voice = find_voice(voice_id)
    if voice is None:
        raise NotFound(VOICE_NOT_FOUND)
    number = next(n for n, v in voice_ids().items() if v.name == voice.name)
    return V1VoiceOut(
        voice=V1RetrievedVoice(
            voice_preset_id=str(number),
            voice_id=number,
            voice_name=voice.name,
            description=voice.description,
            language=voice.language,
            voice_settings={"engine": voice.engine, "gender": voice.gender},
        )
    )
