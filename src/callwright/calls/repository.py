"""Every query on calls, transcript entries, events and latencies."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Row,
    bindparam,
    case,
    func,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from callwright.billing.service import COST_PER_MINUTE_CENTS
from callwright.calls.outcomes import failed_sql, outcome_sql, successful_sql
from callwright.kit.pagination import one_statement_page, paged_rows, window, with_total
from callwright.kit.sqltime import LocalTime
from callwright.models import (
    Agent,
    Call,
    CallEvent,
    Campaign,
    LedgerEntry,
    TranscriptEntry,
    TurnLatency,
)
from callwright.telephony.state import (
    STATUS_OUTCOMES,
    TERMINAL,
    AnsweredBy,
    CallOutcome,
    CallStatus,
    predecessors,
)


async def get(session: AsyncSession, call_id: str) -> Call | None:
    return await session.get(Call, call_id)


async def by_carrier_id(session: AsyncSession, carrier: str, carrier_call_id: str) -> Call | None:
    return await session.scalar(
        select(Call).where(Call.carrier == carrier, Call.carrier_call_id == carrier_call_id)
    )


async def add(session: AsyncSession, call: Call) -> Call:
    session.add(call)
    await session.flush()
    return call


async def move_status(
    session: AsyncSession,
    call_id: str,
    status: CallStatus,
    values: dict[str, Any],
    *only_if: ColumnElement[bool],
) -> bool:
    """Apply `status` only from a state it may follow (an atomic, conditional UPDATE: replays and
    late, out-of-order callbacks change nothing), and only where `only_if` holds. True when it
    was applied."""
    allowed = predecessors(status)
    if not allowed:
        return False
    return await _update_one(
        session, call_id, values | {"status": status.value}, Call.status.in_(allowed), *only_if
    )


def ended_outcome(status: CallStatus) -> ColumnElement[str]:
    """The outcome a terminal status writes: the one claimed earlier (the user's stop, the
    agent's close, its time limit), else what the status means (`STATUS_OUTCOMES`)."""
    return func.coalesce(Call.end_reason, STATUS_OUTCOMES[status].value)


def answered_unknown() -> ColumnElement[str]:
    """answered_by at the answer: unknown until the callee is heard (kept if already known)."""
    return func.coalesce(Call.answered_by, AnsweredBy.UNKNOWN.value)


def error_or(reason: str) -> ColumnElement[str]:
    """The call's error, or `reason` when it has none."""
    return func.coalesce(Call.error, reason)


async def claim_outcome(session: AsyncSession, call_id: str, outcome: CallOutcome) -> bool:
    """Say how a live call is ending before asking the carrier to end it: the first claim wins
    (a stop and the agent's goodbye at the same moment), and the terminal status keeps it."""
    return await _update_one(
        session,
        call_id,
        {"end_reason": outcome.value},
        Call.end_reason.is_(None),
        Call.status.not_in([s.value for s in TERMINAL]),
    )


async def add_step(session: AsyncSession, call: Call, step: dict[str, Any]) -> None:
    """One more move of the call's flow in its `pathway_logs`."""
    call.pathway_logs = [*(call.pathway_logs or []), step]
    await session.flush()


async def set_answered_by(session: AsyncSession, call_id: str, who: AnsweredBy) -> bool:
    """Who answered, once known (the first callee turn decides; unknown until then)."""
    return await _update_one(
        session,
        call_id,
        {"answered_by": who.value},
        or_(Call.answered_by.is_(None), Call.answered_by == AnsweredBy.UNKNOWN.value),
    )


async def _update_one(
    session: AsyncSession, call_id: str, values: dict[str, Any], *only_if: ColumnElement[bool]
) -> bool:
    """One conditional UPDATE of a call: True when the row matched (and was changed)."""
    result = await session.execute(
        update(Call)
        .where(Call.id == call_id, *only_if)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def claim_dial(session: AsyncSession, call_id: str, media_token_hash: str) -> bool:
    """Take a queued call for dialling, with its media secret (once: a repeated or late dial
    job, or a call stopped before it, gets False)."""
    return await _update_one(
        session,
        call_id,
        {"media_token_hash": media_token_hash},
        Call.status == CallStatus.QUEUED.value,
        Call.carrier_call_id.is_(None),
        Call.media_token_hash.is_(None),
    )


async def attach_carrier_id(session: AsyncSession, call_id: str, carrier_call_id: str) -> bool:
    """Record the carrier's id of a dialled call, if it has not ended meanwhile (a stop during
    the dial). The id is written either way; True only when the call is still live."""
    live = await _update_one(
        session,
        call_id,
        {"carrier_call_id": carrier_call_id},
        Call.carrier_call_id.is_(None),
        Call.status.not_in([s.value for s in TERMINAL]),
    )
    if not live:
        await _update_one(
            session, call_id, {"carrier_call_id": carrier_call_id}, Call.carrier_call_id.is_(None)
        )
    return live


async def claim_media(session: AsyncSession, call_id: str, media_token_hash: str) -> bool:
    """Accept a media stream for a live call once: the secret matches and is spent."""
    return await _update_one(
        session,
        call_id,
        {"media_token_hash": None},
        Call.media_token_hash == media_token_hash,
        Call.status.not_in([s.value for s in TERMINAL]),
    )


async def last_activity(session: AsyncSession, call_id: str) -> datetime | None:
    """The newest event or transcript line of a call: the last sign that it was alive."""
    times = [
        await session.scalar(select(func.max(column)).where(owner == call_id))
        for column, owner in (
            (CallEvent.created_at, CallEvent.call_id),
            (TranscriptEntry.created_at, TranscriptEntry.call_id),
        )
    ]
    known = [t for t in times if t is not None]
    return max(known) if known else None


async def mark_finalized(session: AsyncSession, call_id: str, at: datetime) -> bool:
    """Claim the end-of-call work once (True for the one caller that gets it). The test call's
    visitor secret ends with it."""
    return await _update_one(
        session,
        call_id,
        {"finalized_at": at, "viewer_token_hash": None},
        Call.finalized_at.is_(None),
        Call.status.in_([s.value for s in TERMINAL]),
    )


async def watched(session: AsyncSession, call_ids: Collection[str]) -> Sequence[Call]:
    """The test calls among `call_ids` (what a visitor's socket may be watching)."""
    query = select(Call).where(Call.id.in_(list(call_ids)), Call.kind == "test")
    return (await session.scalars(query)).all()


async def add_line(
    session: AsyncSession, call_id: str, speaker: str, text: str, at: datetime
) -> TranscriptEntry:
    seq = (
        await session.scalar(
            select(func.max(TranscriptEntry.seq)).where(TranscriptEntry.call_id == call_id)
        )
    ) or 0
    entry = TranscriptEntry(call_id=call_id, seq=seq + 1, speaker=speaker, text=text, created_at=at)
    session.add(entry)
    await session.flush()
    return entry


async def transcript(session: AsyncSession, call_id: str) -> Sequence[TranscriptEntry]:
    return (await session.scalars(_TRANSCRIPT, {"call_id": call_id})).all()


async def transcript_lines(session: AsyncSession, call_id: str) -> Sequence[Row[*tuple[Any, ...]]]:
    """A call's transcript as plain rows (speaker, text, created_at), in order: for answers
    that only show it (see `_core`)."""
    return (await (await _core(session)).execute(_LINES, {"call_id": call_id})).all()


_BY_CALL = TranscriptEntry.call_id == bindparam("call_id")
#: Lines in the order they were spoken: each line's time is when it began (a callee's short
#: answer can be kept before the agent's long sentence it followed has finished playing).
_SPOKEN = (TranscriptEntry.created_at, TranscriptEntry.seq)
_TRANSCRIPT = select(TranscriptEntry).where(_BY_CALL).order_by(*_SPOKEN)
_LINES = (
    select(
        TranscriptEntry.speaker,
        TranscriptEntry.text,
        TranscriptEntry.created_at,
        TranscriptEntry.seq,
    )
    .where(_BY_CALL)
    .order_by(*_SPOKEN)
)


async def _core(session: AsyncSession) -> AsyncConnection:
    """The session's connection, for reads that build no ORM objects. A statement run there in
    Core skips the ORM's per-statement work (its compile state, loading, events): about 70 of
    the 145 microseconds of CPU an ORM read costs here, which is what a busy read endpoint has
    to spare. It is the same connection and transaction as the session's."""
    return await session.connection()


async def add_event(
    session: AsyncSession,
    call_id: str,
    category: str,
    message: str,
    at: datetime,
    action: dict[str, Any] | None = None,
) -> CallEvent:
    event = CallEvent(
        call_id=call_id, category=category, message=message, created_at=at, action=action
    )
    session.add(event)
    await session.flush()
    return event


async def events(session: AsyncSession, call_id: str) -> Sequence[CallEvent]:
    query = select(CallEvent).where(CallEvent.call_id == call_id).order_by(CallEvent.id)
    return (await session.scalars(query)).all()


async def first_event(session: AsyncSession, call_id: str, category: str) -> str | None:
    """The message of the call's first event of `category`, if it has one."""
    query = (
        select(CallEvent.message)
        .where(CallEvent.call_id == call_id, CallEvent.category == category)
        .order_by(CallEvent.id)
        .limit(1)
    )
    return await session.scalar(query)


async def add_latency(session: AsyncSession, row: TurnLatency) -> None:
    session.add(row)
    await session.flush()


async def latencies(session: AsyncSession, call_id: str) -> Sequence[TurnLatency]:
    query = select(TurnLatency).where(TurnLatency.call_id == call_id).order_by(TurnLatency.turn)
    return (await session.scalars(query)).all()


async def overdue(session: AsyncSession, before: datetime, limit: int = 50) -> Sequence[Call]:
    """Unfinished calls queued (a scheduled one: due) before `before` (their end never
    arrived)."""
    query = (
        select(Call)
        .where(Call.finalized_at.is_(None), func.coalesce(Call.start_at, Call.queued_at) < before)
        .order_by(Call.queued_at)
        .limit(limit)
    )
    return (await session.scalars(query)).all()


async def without_media_end(
    session: AsyncSession, ended_before: datetime, limit: int = 50
) -> list[str]:
    """Answered calls whose end the carrier reported before `ended_before` but whose media
    never reported its own end (the process that hosted it may have died)."""
    query = (
        select(Call.id)
        .where(
            Call.finalized_at.is_(None),
            Call.answered_at.is_not(None),
            Call.media_ended_at.is_(None),
            Call.status.in_([s.value for s in TERMINAL]),
            Call.ended_at < ended_before,
        )
        .order_by(Call.ended_at)
        .limit(limit)
    )
    return list((await session.scalars(query)).all())


async def status_unknown(
    session: AsyncSession, media_ended_before: datetime, limit: int = 50
) -> list[tuple[str, str, str]]:
    """(id, carrier, carrier call id) of calls whose media ended before `media_ended_before`
    while the carrier's final status never arrived (our database was down when it came)."""
    query = (
        select(Call.id, Call.carrier, Call.carrier_call_id)
        .where(
            Call.finalized_at.is_(None),
            Call.carrier_call_id.is_not(None),
            Call.status.not_in([s.value for s in TERMINAL]),
            Call.media_ended_at < media_ended_before,
        )
        .order_by(Call.media_ended_at)
        .limit(limit)
    )
    return [(i, carrier, str(sid)) for i, carrier, sid in (await session.execute(query)).all()]


async def has_line(
    session: AsyncSession, call_id: str, speaker: str, text: str, at: datetime
) -> bool:
    """Whether this line is written already (a write whose COMMIT was cut off may have landed)."""
    query = select(TranscriptEntry.id).where(
        TranscriptEntry.call_id == call_id,
        TranscriptEntry.speaker == speaker,
        TranscriptEntry.text == text,
        TranscriptEntry.created_at == at,
    )
    return (await session.scalar(query.limit(1))) is not None


async def due(session: AsyncSession, now: datetime, limit: int = 200) -> list[str]:
    """The scheduled calls whose time has come, not dialled nor being dialled (the partial
    index ix_calls_scheduled holds exactly the scheduled queued calls)."""
    query = (
        select(Call.id)
        .where(
            Call.start_at.is_not(None),
            # A literal, not a parameter: the planner matches it to the index's condition.
            Call.status == literal_column(f"'{CallStatus.QUEUED.value}'"),
            Call.start_at <= now,
            Call.carrier_call_id.is_(None),
            Call.media_token_hash.is_(None),
        )
        .order_by(Call.start_at)
        .limit(limit)
    )
    return list((await session.scalars(query)).all())


#: What a call-log row shows (`calls.endpoints._record`), read as plain rows: a page needs no
#: ORM objects (nor the prompt and the analysis).
LOG_COLUMNS = (
    Call.id,
    Call.from_number,
    Call.to_number,
    Call.created_at,
    Call.queued_at,
    Call.ended_at,
    Call.finalized_at,
    Call.status,
    Call.end_reason,
    Call.answered_by,
    Call.duration_seconds,
    Call.recording_path,
    Call.cost_cents,
    Call.max_duration,
    Call.voice,
)


#: What a call's details answer shows besides its log row.
#: A call's transfer (calls/transfers.py): where, when, how it ended, the two parts' seconds.
TRANSFER_COLUMNS = (
    Call.transfer_number,
    Call.transfer_list,
    Call.transfer_mode,
    Call.transferred_to,
    Call.transferred_at,
    Call.transfer_status,
    Call.pre_transfer_duration,
    Call.post_transfer_duration,
    Call.transfer_ended_by,
)
DETAIL_COLUMNS = (
    *LOG_COLUMNS,
    Call.user_id,
    Call.prompt,
    Call.error,
    Call.analysis,
    *TRANSFER_COLUMNS,
    Call.flow_id,
    Call.flow_version,
    Call.start_node_id,
    Call.pathway_logs,
)


async def live_for_user(session: AsyncSession, user_id: int) -> Sequence[Call]:
    """A user's calls that have not ended, oldest first (a live call is the user's until then)."""
    rows = await session.scalars(
        select(Call)
        .where(Call.user_id == user_id, Call.status.not_in([s.value for s in TERMINAL]))
        .order_by(Call.created_at, Call.id)
    )
    return rows.all()


async def details_row(session: AsyncSession, call_id: str) -> Row[*tuple[Any, ...]] | None:
    """A call's `DETAIL_COLUMNS` as a plain row (see `_core`), None when there is no such call."""
    return (await (await _core(session)).execute(_DETAILS, {"call_id": call_id})).first()


async def page_for_user(
    session: AsyncSession,
    user_id: int,
    *,
    page: int,
    per_page: int,
    outcome: CallOutcome | None = None,
    digits: str | None = None,
) -> tuple[Sequence[Row[*tuple[Any, ...]]], int]:
    """One page of a user's calls, newest first, and the total count, in one statement.
    With `outcome` (how the call ended) or `digits` (found anywhere in the From or To number),
    only the calls that match (`_filtered_page`).

    The page's ids are picked from the covering index `ix_calls_user_created` (user_id,
    created_at, id) and only those rows are read: skipping to page 70 no longer reads and sorts
    the 490 rows before it (1.7 ms -> 0.05 ms in SQLite at 500 calls per user). The count rides
    along on every row; only a page past the end asks for it on its own."""
    if outcome is not None or digits:
        return await _filtered_page(session, user_id, page, per_page, outcome, digits)
    return await one_statement_page(
        await _core(session),
        _USER_PAGE,
        _USER_COUNT,
        {"user_id": user_id},
        page=page,
        per_page=per_page,
    )


async def _filtered_page(
    session: AsyncSession,
    user_id: int,
    page: int,
    per_page: int,
    outcome: CallOutcome | None,
    digits: str | None,
) -> tuple[Sequence[Row[*tuple[Any, ...]]], int]:
    """A page of a user's calls that ended with `outcome` and whose From or To number holds
    `digits` (either filter optional), newest first, and how many match."""
    where: list[ColumnElement[bool]] = [Call.user_id == user_id]
    if outcome is not None:
        where.append(Call.end_reason == outcome.value)
    if digits:
        where.append(
            or_(
                Call.to_number.contains(digits, autoescape=True),
                Call.from_number.contains(digits, autoescape=True),
            )
        )
    query = select(*LOG_COLUMNS).where(*where).order_by(*_NEWEST_FIRST)
    return await paged_rows(await _core(session), query, page=page, per_page=per_page)


async def page_view(
    session: AsyncSession, call_id: str
) -> tuple[Call, str | None, str | None] | None:
    """A call with the names of the agent and the campaign it came from (None: none, or
    deleted since), or None when there is no such call."""
    query = (
        select(Call, Agent.name, Campaign.name)
        .outerjoin(Agent, Agent.id == Call.agent_id)
        .outerjoin(Campaign, Campaign.id == Call.campaign_id)
        .where(Call.id == call_id)
    )
    row = (await session.execute(query)).first()
    return (row[0], row[1], row[2]) if row else None


async def ledger_for_call(session: AsyncSession, call_id: str) -> Sequence[LedgerEntry]:
    """The balance movements of one call (its hold, charge and release), oldest first."""
    query = select(LedgerEntry).where(LedgerEntry.call_id == call_id).order_by(LedgerEntry.id)
    return (await session.scalars(query)).all()


# The hot reads are built once: SQLAlchemy then memoises their cache keys too.
_DETAILS = select(*DETAIL_COLUMNS).where(Call.id == bindparam("call_id"))
_USER_COUNT = select(func.count()).where(Call.user_id == bindparam("user_id"))
_NEWEST_FIRST = (Call.created_at.desc(), Call.id.desc())
_USER_PAGE = with_total(
    select(*LOG_COLUMNS)
    .where(
        Call.id.in_(
            window(
                select(Call.id).where(Call.user_id == bindparam("user_id")).order_by(*_NEWEST_FIRST)
            ).scalar_subquery()
        )
    )
    .order_by(*_NEWEST_FIRST),
    _USER_COUNT,
)
_USAGE = select(func.count(), func.coalesce(func.sum(Call.duration_seconds), 0)).where(
    Call.user_id == bindparam("user_id")
)


async def usage(session: AsyncSession, user_id: int) -> tuple[int, int]:
    """(number of calls, total seconds) for a user, in SQL."""
    row = (await session.execute(_USAGE, {"user_id": user_id})).one()
    return int(row[0]), int(row[1] or 0)


async def by_weekday(session: AsyncSession, user_id: int, offset_minutes: int) -> list[Any]:
    """Per weekday (0 = Monday) of the caller's local time: calls, total seconds, successful,
    failed (by `outcomes.successful_sql` and `failed_sql`: a stopped, busy, voicemail or failed
    call is never successful), calls with a positive duration, and the cost of the full duration
    in cents (rounded-up minutes x 49). All computed in SQL."""
    weekday = LocalTime(session, Call.created_at, offset_minutes).weekday()
    seconds = func.coalesce(Call.duration_seconds, 0)
    minutes_up = (seconds + 59) // 60  # ceil(seconds / 60)
    query = (
        select(
            weekday.label("weekday"),
            func.count(),
            func.sum(seconds),
            func.sum(case((successful_sql(Call.end_reason, Call.status), 1), else_=0)),
            func.sum(case((failed_sql(Call.end_reason, Call.status), 1), else_=0)),
            func.sum(case((seconds > 0, 1), else_=0)),
            func.sum(minutes_up * COST_PER_MINUTE_CENTS),
        )
        .where(Call.user_id == user_id)
        .group_by(weekday)
    )
    return list((await session.execute(query)).all())


async def failed_by_weekday(session: AsyncSession, user_id: int, offset_minutes: int) -> list[Any]:
    """(weekday, outcome, calls) of a user's failed calls, so each outcome has its own bar."""
    weekday = LocalTime(session, Call.created_at, offset_minutes).weekday()
    outcome = outcome_sql(Call.end_reason, Call.status)
    query = (
        select(weekday, outcome, func.count())
        .where(Call.user_id == user_id, failed_sql(Call.end_reason, Call.status))
        .group_by(weekday, outcome)
    )
    return list((await session.execute(query)).all())


# --- transfers (calls/transfers.py) -------------------------------------------------------

#: A transfer under way: a second one waits for its result.
TRANSFER_DIALING = "dialing"


async def start_transfer(session: AsyncSession, call_id: str, values: dict[str, Any]) -> bool:
    """Mark a live call as being transferred (with `values`: where, when, the listening
    stream's secret), unless a transfer is under way or one reached its person already."""
    return await _update_one(
        session,
        call_id,
        {"transfer_status": TRANSFER_DIALING, **values},
        Call.status == CallStatus.IN_PROGRESS.value,
        or_(
            Call.transfer_status.is_(None),
            Call.transfer_status.not_in([TRANSFER_DIALING, "completed"]),
        ),
    )


async def claim_listen(session: AsyncSession, call_id: str, listen_token_hash: str) -> bool:
    """Accept a transfer's listening stream once: its own secret matches and is spent."""
    return await _update_one(
        session,
        call_id,
        {"listen_token_hash": None},
        Call.listen_token_hash == listen_token_hash,
        Call.status.not_in([s.value for s in TERMINAL]),
    )


async def end_transfer(session: AsyncSession, call_id: str, values: dict[str, Any]) -> bool:
    """Write a transfer's result (`values`), once: only while it is under way."""
    return await _update_one(session, call_id, values, Call.transfer_status == TRANSFER_DIALING)


async def set_media_token(session: AsyncSession, call_id: str, media_token_hash: str) -> bool:
    """A new single-use secret for the live call's next media stream (the agent back after a
    failed transfer)."""
    return await _update_one(
        session,
        call_id,
        {"media_token_hash": media_token_hash},
        Call.status.not_in([s.value for s in TERMINAL]),
    )
