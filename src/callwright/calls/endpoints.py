"""The signed-in user's calls (spec section 7): send, stop, details, transcript, history,
stats, by-weekday analysis, recordings, reports and the post-call analysis. A user reaches only
their own calls (another user's id answers 404, another user's stats 403); admins reach all."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from sqlalchemy import Row

from callwright import analysis as analysing
from callwright.auth.deps import AdminUser, CurrentUser
from callwright.auth.schemas import Message
from callwright.calls import page as pages
from callwright.calls import repository as calls
from callwright.calls.builder import CallRequest, FlowChoice, build_order
from callwright.calls.deps import CallsDep
from callwright.calls.outcomes import outcome_of
from callwright.calls.schemas import (
    AnalysisByDayOut,
    AnalysisOut,
    AnalyzeIn,
    AnalyzeOut,
    CallDetails,
    CallDetailsOut,
    CallOwner,
    CallPage,
    CallPageOut,
    CallRecord,
    CallsPage,
    CallTransferOut,
    LatencyOut,
    LiveCall,
    LiveCallsOut,
    ReportIn,
    SendCallIn,
    SendCallOut,
    StatsData,
    StatsOut,
    TranscriptOut,
    WeekdayStats,
    play_url,
)
from callwright.kit.bounds import PageRequest, PathId, page_params
from callwright.kit.db import SessionDep
from callwright.kit.deps import SettingsDep
from callwright.kit.errors import AppError, Forbidden, NotFound, ValidationFailed, or_404
from callwright.kit.money import dollars
from callwright.kit.sqltime import WEEKDAYS, TzOffset
from callwright.kit.storage import Store, StoreError
from callwright.models import Call, CallReport, TranscriptEntry, User
from callwright.realtime.events import TranscriptLine, TurnLatencyOut
from callwright.telephony.state import TERMINAL, CallOutcome

log = logging.getLogger(__name__)
#: A recording kept in storage that does not answer now (an S3 bucket out of reach).
RECORDING_UNAVAILABLE = "The recording cannot be read from storage right now. Please try again."
router = APIRouter(tags=["calls"])


async def _owned(session: SessionDep, user: User, call_id: str) -> Call:
    call = await calls.get(session, call_id)
    if call is None or not _may_see(user, call.user_id):
        raise NotFound("Call not found.")
    return call


def _may_see(user: User, owner_id: int | None) -> bool:
    """A user sees what is theirs; an admin sees everything."""
    return owner_id == user.id or user.is_admin


def _check_user(user: User, user_id: int) -> None:
    if not _may_see(user, user_id):
        raise Forbidden("You can only see your own calls.")


def _line(entry: TranscriptEntry | Row[*tuple[Any, ...]]) -> TranscriptLine:
    return TranscriptLine(
        user=entry.speaker, text=entry.text, created_at=entry.created_at, seq=entry.seq
    )


async def _owned_row(session: SessionDep, user: User, call_id: str) -> Row[*tuple[Any, ...]]:
    """`_owned` for answers that only show a call: its `calls.DETAIL_COLUMNS` as a plain row."""
    row = await calls.details_row(session, call_id)
    if row is None or not _may_see(user, row.user_id):
        raise NotFound("Call not found.")
    return row


def _record(call: Call | Row[*tuple[Any, ...]]) -> dict[str, object]:
    """A call-log row from a call or a row of `calls.LOG_COLUMNS`."""
    length = 0
    if call.ended_at is not None:
        length = max(0, int((call.ended_at - call.queued_at).total_seconds()))
    return {
        "call_id": call.id,
        "from": call.from_number,
        "to": call.to_number,
        "created_at": call.created_at,
        "status": call.status,
        "outcome": outcome_of(call.end_reason),
        "answered_by": call.answered_by,
        "corrected_duration": call.duration_seconds or 0,
        "call_length": length,
        "record_url": play_url(call),
        "cost": dollars(call.cost_cents) if call.cost_cents is not None else None,
        "max_duration": call.max_duration,
        "voice": call.voice,
        "completed": call.finalized_at is not None,
    }


#: SendCallIn's fields by the names of a call's settings (CallOrder's).
_SEND_CALL_SETTINGS = {
    "prompt": "prompt",
    "voice": "voice",
    "language": "language",
    "temperature": "temperature",
    "interruption_threshold": "interruption_threshold",
    "background_audio": "background_audio",
    "max_duration": "max_duration",
    "waitGreeting": "wait_for_greeting",
    "first_sentence": "first_sentence",
    "voicemail_action": "voicemail_action",
    "voicemail_message": "voicemail_message",
    "disclosure": "disclosure",
    "transfer_number": "transfer_number",
    "transfer_mode": "transfer_mode",
}


@router.post("/send-call")
async def send_call(
    body: SendCallIn, user: CurrentUser, session: SessionDep, domain: CallsDep
) -> SendCallOut:
    """Place a call. From an agent (`agentId`), the agent's settings fill in every field the
    request did not send; `{{variables}}` are filled from `variables` (one missing: 422)."""
    if body.userId != user.id:
        raise Forbidden("You can only place calls from your own account.")
    # From an agent only the fields the client sent override it (the others have defaults).
    sent = body.model_fields_set if body.agentId else set(_SEND_CALL_SETTINGS)
    service = domain.service
    order = await build_order(
        session,
        CallRequest(
            kind="dashboard",
            to_number=body.phone,
            user_id=user.id,
            agent_id=body.agentId,
            settings={
                setting: getattr(body, field)
                for field, setting in _SEND_CALL_SETTINGS.items()
                if field in sent
            },
            variables=body.variables,
            start_at=_scheduled(body.start_at, service.clock()),
            flow=FlowChoice(body.flow_id, body.flow_version, body.start_node_id or None)
            if body.flow_id
            else None,
            no_flow=body.flow_id == "",
        ),
    )
    call = await service.place(session, order)
    return SendCallOut(
        callId=call.id,
        from_=call.from_number,
        balance=dollars(user.balance_cents),
        scheduled_for=call.start_at,
        notice=await service.notice(session, call),
    )


#: How far ahead Send Call schedules a call ("Call when the window opens").
SCHEDULE_AHEAD_MAX = timedelta(days=30)


def _scheduled(start_at: datetime | None, now: datetime) -> datetime | None:
    """Send Call's `start_at` in UTC: in the future, at most 30 days ahead."""
    if start_at is None:
        return None
    if start_at <= now:
        raise ValidationFailed({"start_at": ["The start time must be in the future."]})
    if start_at - now > SCHEDULE_AHEAD_MAX:
        raise ValidationFailed({"start_at": ["A call can be scheduled up to 30 days ahead."]})
    return start_at.astimezone(UTC)


@router.post("/stop-call/{call_id}")
async def stop_call(
    call_id: str, user: CurrentUser, session: SessionDep, domain: CallsDep
) -> Message:
    await domain.stop(session, await _owned(session, user, call_id))
    return Message(message="Call stopped successfully")


async def _details(session: SessionDep, call: Call | Row[*tuple[Any, ...]]) -> CallDetails:
    lines = await calls.transcript_lines(session, call.id)
    stored = analysing.Analysis.from_json(call.analysis) if call.analysis else None
    return CallDetails.model_validate(
        _record(call)
        | {
            "prompt": call.prompt,
            "error": call.error,
            "transfer": {name: getattr(call, name) for name in CallTransferOut.model_fields},
            "transcripts": [_line(e) for e in lines],
            "latencies": await _latencies(session, call.id),
            "flow_id": call.flow_id,
            "flow_version": call.flow_version,
            "start_node_id": call.start_node_id,
            "pathway_logs": call.pathway_logs,
            "analysis": AnalysisOut.model_validate(stored, from_attributes=True)
            if stored
            else None,
        }
    )


@router.get("/call-details/{call_id}")
async def call_details(call_id: str, user: CurrentUser, session: SessionDep) -> CallDetailsOut:
    call = await _owned_row(session, user, call_id)
    return CallDetailsOut(data=await _details(session, call))


async def _page(session: SessionDep, call_id: str, viewer: User) -> CallPage:
    """Everything the call's page shows; another user's call (or none) is a 404. The admin's
    view names the owner."""
    found = await calls.page_view(session, call_id)
    if found is None or not _may_see(viewer, found[0].user_id):
        raise NotFound("Call not found.")
    call, agent_name, campaign_name = found
    events = await calls.events(session, call.id)
    owner = None
    if viewer.is_admin and call.user_id is not None:
        user = await session.get(User, call.user_id)
        owner = CallOwner(id=user.id, name=user.name, email=user.email) if user else None
    details = await _details(session, call)
    return CallPage.model_validate(
        details.model_dump(by_alias=True)
        | {
            "kind": call.kind,
            "settings": pages.settings_of(call, agent_name, campaign_name),
            "events": pages.events_of(events),
            "times": pages.times_of(call, events),
            "billing": pages.billing_of(call, await calls.ledger_for_call(session, call.id)),
            "owner": owner,
            "flow_graph": call.flow_graph,
        }
    )


@router.get("/call/{call_id}/page")
async def call_page(call_id: str, user: CurrentUser, session: SessionDep) -> CallPageOut:
    """Everything a call's page shows (`/dashboard/calls/{id}`): the details (record,
    transcript, latency, analysis) with the settings it was placed with, its events, the
    times that place the transcript on the recording and its cost through the billing rule.
    The owner's (an admin may read any)."""
    return CallPageOut(data=await _page(session, call_id, user))


@router.get("/admin/calls/{call_id}", tags=["admin"])
async def admin_call_page(call_id: str, admin: AdminUser, session: SessionDep) -> CallPageOut:
    """Any call's page for the admin (`/admin/calls/{id}`), with the user who placed it."""
    return CallPageOut(data=await _page(session, call_id, admin))


@router.get("/call/{call_id}/transcript")
async def call_transcript(call_id: str, user: CurrentUser, session: SessionDep) -> TranscriptOut:
    call = await _owned_row(session, user, call_id)
    return TranscriptOut(data=[_line(e) for e in await calls.transcript_lines(session, call.id)])


async def _latencies(session: SessionDep, call_id: str) -> list[TurnLatencyOut]:
    return [TurnLatencyOut.model_validate(row) for row in await calls.latencies(session, call_id)]


@router.get("/call/{call_id}/latency")
async def call_latency(call_id: str, user: CurrentUser, session: SessionDep) -> LatencyOut:
    """The call's per-reply latency (what the `turn-latency` socket event sent live)."""
    call = await _owned_row(session, user, call_id)
    return LatencyOut(data=await _latencies(session, call.id))


@router.get("/user/{user_id}/calls")
async def user_calls(
    user_id: PathId,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
    outcome: Annotated[CallOutcome | None, Query(description="Only calls that ended so.")] = None,
    q: Annotated[
        str | None,
        Query(max_length=40, description="Digits found in the From or To number."),
    ] = None,
) -> CallsPage:
    """A user's calls, newest first; `outcome` and `q` (a number, or part of one: only its
    digits count, so "+1 (555) 123" finds +15551230000) narrow them."""
    _check_user(user, user_id)
    rows, total = await calls.page_for_user(
        session,
        user_id,
        page=paging.page,
        per_page=paging.per_page,
        outcome=outcome,
        digits=_number_digits(q),
    )
    return CallsPage(
        data=[CallRecord.model_validate(_record(c)) for c in rows],
        pagination=paging.pagination(total),
    )


_NUMBER_SEARCH = re.compile(r"^[0-9+()\-.\s]*$")


def _number_digits(q: str | None) -> str | None:
    """The digits of a number search (None: no search); anything but a number is a 422."""
    if q is None or not q.strip():
        return None
    if not _NUMBER_SEARCH.match(q):
        raise ValidationFailed(
            {"q": ["Search by phone number: digits, spaces, +, -, dots and brackets only."]}
        )
    return re.sub(r"\D", "", q) or None


@router.get("/user/{user_id}/live-calls")
async def user_live_calls(user_id: PathId, user: CurrentUser, session: SessionDep) -> LiveCallsOut:
    """The user's calls still going on (queued, ringing or connected), with their transcript
    so far: Send Call and the dashboard pick them up on load, from any tab."""
    _check_user(user, user_id)
    live = []
    for call in await calls.live_for_user(session, user_id):
        lines = await calls.transcript_lines(session, call.id)
        live.append(
            LiveCall.model_validate(
                {
                    "call_id": call.id,
                    "status": call.status,
                    "to": call.to_number,
                    "prompt": call.prompt,
                    "voice": call.voice,
                    "language": call.language,
                    "temperature": call.temperature,
                    "interruption_threshold": call.interruption_threshold,
                    "background_audio": call.background_audio,
                    "max_duration": call.max_duration,
                    "wait_for_greeting": call.wait_for_greeting,
                    "created_at": call.created_at,
                    "answered_at": call.answered_at,
                    "transcripts": [_line(e) for e in lines],
                }
            )
        )
    return LiveCallsOut(data=live)


@router.get("/user/{user_id}/stats")
async def user_stats(user_id: PathId, user: CurrentUser, session: SessionDep) -> StatsOut:
    _check_user(user, user_id)
    owner = or_404(
        user if user.id == user_id else await session.get(User, user_id), "User not found."
    )
    count, seconds = await calls.usage(session, user_id)
    return StatsOut(
        data=StatsData(
            name=owner.name,
            balance=dollars(owner.balance_cents),
            totalCalls=count,
            totalMinutesUsed=round(seconds / 60, 2),
        )
    )


@router.get("/user/{user_id}/analysis")
async def user_analysis(
    user_id: PathId,
    user: CurrentUser,
    session: SessionDep,
    tz_offset: TzOffset = 0,
) -> AnalysisByDayOut:
    """The six Call Analysis charts' figures, by weekday (Monday first), computed in SQL."""
    _check_user(user, user_id)
    rows = {int(r[0]): r for r in await calls.by_weekday(session, user_id, tz_offset)}
    failed_by: dict[int, dict[CallOutcome, int]] = {}
    for index, outcome, number in await calls.failed_by_weekday(session, user_id, tz_offset):
        counts = failed_by.setdefault(int(index), {})
        key = outcome_of(outcome) or CallOutcome.FAILED
        counts[key] = counts.get(key, 0) + int(number)
    out = []
    for index, day in enumerate(WEEKDAYS):
        row = rows.get(index)
        count, seconds, ok, failed, positive, cents = (
            (int(v or 0) for v in row[1:]) if row else (0, 0, 0, 0, 0, 0)
        )
        out.append(
            WeekdayStats(
                day=day,
                totalCalls=count,
                totalDuration=seconds,
                successfulCalls=ok,
                failedCalls=failed,
                failedByOutcome=failed_by.get(index, {}),
                averageDuration=round(seconds / positive, 2) if positive else 0,
                usedBalance=dollars(cents),
            )
        )
    return AnalysisByDayOut(data=out)


async def recording_response(
    call: Call, request: Request, store: Store, disposition: str
) -> Response:
    """The call's MP3 from the recordings' store, a folder or an S3 bucket (404 when there is
    none). Range requests are answered with 206 and the bytes asked for, so players can seek."""
    try:
        response = (
            await store.response(
                call.recording_path or "",
                request.headers.get("range"),
                media_type="audio/mpeg",
                filename=f"recording_{call.id}.mp3",
                disposition=disposition,
                if_range=request.headers.get("if-range"),
            )
            if call.recording_path
            else None
        )
    except StoreError as exc:
        log.error("recording of %s: %s", call.id, exc)
        raise AppError(RECORDING_UNAVAILABLE, 503) from exc
    if response is None:
        raise NotFound("This call has no recording.")
    return response


@router.get("/download-recording/{call_id}", response_class=FileResponse)
async def download_recording(
    call_id: str, user: CurrentUser, session: SessionDep, request: Request, domain: CallsDep
) -> Response:
    return await recording_response(
        await _owned(session, user, call_id), request, domain.media.store, "attachment"
    )


@router.get("/play-recording/{call_id}", response_class=FileResponse)
async def play_recording(
    call_id: str, user: CurrentUser, session: SessionDep, request: Request, domain: CallsDep
) -> Response:
    """Inline audio; honours Range requests so the player can seek."""
    return await recording_response(
        await _owned(session, user, call_id), request, domain.media.store, "inline"
    )


@router.post("/call/{call_id}/report", status_code=201)
async def report_call(
    call_id: str, body: ReportIn, user: CurrentUser, session: SessionDep
) -> Message:
    call = await _owned(session, user, call_id)
    session.add(CallReport(call_id=call.id, user_id=user.id, reason=body.reason))
    await session.flush()
    return Message(message="Call reported successfully")


@router.post("/analyze-call/{call_id}")
async def analyze_call(
    call_id: str,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    body: AnalyzeIn | None = None,
) -> AnalyzeOut:
    call = await _owned(session, user, call_id)
    if call.status not in TERMINAL:
        raise AppError("The call is still in progress; analyse it once it has ended.", 409)
    if call.analysis and not (body and body.refresh):
        result = analysing.Analysis.from_json(call.analysis)
    else:
        lines = await calls.transcript(session, call.id)
        result = await analysing.analyze(call, lines, analysing.AnalysisLLM.from_settings(settings))
        call.analysis = result.to_json()
        await session.flush()
    return AnalyzeOut(data=AnalysisOut.model_validate(result, from_attributes=True))
