"""The call's state machine: dial after the commit, follow the carrier's status callbacks, stop
on request, and finish each call exactly once (what its end sets off is `calls.lifecycle`'s),
including the calls a fault cut short (the reconciler)."""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import dynamic_data
from callwright.calls import repository as calls
from callwright.calls.events import CallEvents
from callwright.calls.lifecycle import CallLife
from callwright.calls.outcomes import outcome_of, settled
from callwright.calls.recordings import salvage_recording, spooled
from callwright.calls.tasks import DIAL_JOB
from callwright.calls.transfers import COMPLETED as TRANSFER_COMPLETED
from callwright.calls.transfers import post_transfer_seconds
from callwright.compliance import do_not_call
from callwright.config import Settings
from callwright.kit.db import Database, on_commit
from callwright.kit.jobs import JobQueue
from callwright.kit.security import random_token, sha256_hex
from callwright.kit.storage import Store, StoreError, build_store
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.telephony.base import Carrier, CarrierError, DialRequest, StatusUpdate
from callwright.telephony.registry import SANDBOX, Carriers
from callwright.telephony.state import TERMINAL, CallOutcome, CallStatus
from callwright.voice_agent.tool_runner import Reach

log = logging.getLogger(__name__)

#: After max duration, how long to wait for a call's end before the reconciler closes it.
RECONCILE_GRACE = timedelta(minutes=2)
#: How long after the carrier reported a call's end its media may take to report its own (and
#: its recording's spool to stop growing) before the reconciler takes the host for dead.
MEDIA_GRACE = timedelta(seconds=20)
MEDIA_LOST = "The call's voice process stopped; the call was closed from what it had recorded."
#: How long after a call's media ended its final status may take to arrive before the
#: reconciler asks the carrier for it (the callback may have met our database down).
STATUS_GRACE = timedelta(seconds=20)
#: How a call cut short by a fault (its end never reported) ends.
CUT_BY_FAULT = CallOutcome.CUT_BY_FAULT
CUT_BY_FAULT_ERROR = "The call was cut off by a fault; it is billed up to its last activity."
#: Why a call failed when the carrier gives no reason.
NO_REASON = "the carrier could not connect it"

_STATUS_MESSAGES = {
    CallStatus.RINGING: "Ringing",
    CallStatus.NO_ANSWER: "No answer",
    CallStatus.BUSY: "Line busy",
    CallStatus.FAILED: "Call failed",
    CallStatus.CANCELED: "Call canceled",
}


class CallFlows:
    def __init__(
        self,
        settings: Settings,
        db: Database,
        carriers: Carriers,
        events: CallEvents,
        life: CallLife,
        jobs: JobQueue | None = None,
    ) -> None:
        #: Sends the scheduled calls' dial jobs; None: they are dialled here.
        self.jobs = jobs
        self.settings = settings
        self.db = db
        #: The install's carriers: a call is acted on through the one it was placed on.
        self.carriers = carriers
        self.events = events
        #: Told when a call is answered and when it is finalised (calls.lifecycle).
        self.life = life
        #: The local folder of live calls' recording spools (and of the recordings themselves
        #: when no S3 bucket is set).
        self.recordings_folder = settings.data_dir / "recordings"
        #: Where finished calls' recordings are kept: that folder, or the S3 bucket.
        self.store: Store = build_store(settings, self.recordings_folder)

    @property
    def carrier(self) -> Carrier:
        """The install's own carrier (the settings'), which every call but the lab's goes on."""
        return self.carriers.default

    def speed(self, carrier: str) -> float:
        """How much faster than real time a call on `carrier` runs: the sandbox's clock may run
        faster (the tests); a real carrier's is real time."""
        return self.settings.sandbox_speed if carrier == SANDBOX else 1.0

    # --- urls -----------------------------------------------------------------------------

    @property
    def media_url(self) -> str:
        """Where the install's own carrier opens a call's media stream."""
        return self.media_url_for(self.carrier.name)

    def media_url_for(self, carrier: str) -> str:
        """Where `carrier` opens a call's media stream: the sandbox beside a real carrier (the
        lab's calls) has a base of its own (`Settings.lab_media_base_url`)."""
        own = carrier == self.carrier.name
        base = self.settings.media_base_url if own else self.settings.lab_media_base_url
        base = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/api/v1/media/twilio"

    def status_callback_url(self, carrier: str | None = None) -> str:
        """Where `carrier` (None: the install's own) posts a call's status changes."""
        name = carrier or self.carrier.name
        return f"{self.settings.app_url}/api/v1/webhooks/{name}/status"

    # --- placing and ending ---------------------------------------------------------------

    async def stop(self, session: AsyncSession, call: Call) -> bool:
        """Hang up a live call, or cancel one not dialled yet. False when it has ended. A stop
        always wins: a call being dialled right now is hung up as soon as the dial returns (the
        dial job sees it stopped), or here when the dial returned first."""
        if call.status in TERMINAL:
            return False
        if not call.carrier_call_id:
            moved = await calls.move_status(
                session,
                call.id,
                CallStatus.CANCELED,
                {
                    "ended_at": utcnow(),
                    "end_reason": CallOutcome.STOPPED.value,
                    "duration_seconds": 0,
                },
                Call.carrier_call_id.is_(None),
            )
            if moved:
                call_id = call.id

                async def finish() -> None:
                    await self.finalize(call_id)

                on_commit(session, finish)
                return True
            await session.refresh(call)  # dialled (or ended) since it was read
            if call.status in TERMINAL or not call.carrier_call_id:
                return call.status not in TERMINAL
        assert call.carrier_call_id is not None
        # Claimed before the carrier is asked, so the end it reports (and anything the agent
        # says about it meanwhile) finds the call stopped; a carrier error rolls it back.
        await calls.claim_outcome(session, call.id, CallOutcome.STOPPED)
        await self.carriers.for_call(call).hang_up(call.carrier_call_id)
        await self.events.record(session, call, "Call stopped by the user", "call")
        return True

    async def _fetch_dynamic_data(self, snapshot: Call) -> None:
        """Bland's `dynamic_data`, just before the call rings (calls/dynamic_data.py): its
        answers fill the call's variables and texts; each request is an action line."""
        fetched = await dynamic_data.fetch(
            snapshot, Reach.of(self.settings), self.settings.secret_key
        )
        async for session in self.db.session():
            call = await calls.get(session, snapshot.id)
            if call is None:
                return
            dynamic_data.apply(call, fetched)
            for action in fetched.actions:
                await self.life.acted(session, call, action)

    async def _fail_before_ringing(self, call_id: str, reason: str) -> None:
        """End a claimed call that never rang: failed, with `reason` as its error."""
        async for session in self.db.session():
            await calls.move_status(
                session,
                call_id,
                CallStatus.FAILED,
                {"ended_at": utcnow(), "error": reason, "end_reason": CallOutcome.FAILED.value},
            )
            call = await calls.get(session, call_id)
            if call:
                await self.events.record(session, call, f"Call failed: {reason}", "error")
        await self.finalize(call_id)

    async def dial(self, call_id: str) -> None:
        token = random_token()
        async for session in self.db.session():
            # Taken once, with the secret its media stream must bring back (a stopped call, or
            # a repeated job, is not dialled).
            if not await calls.claim_dial(session, call_id, sha256_hex(token)):
                return
            call = await calls.get(session, call_id)
            assert call is not None
            # Listed since it was placed (a scheduled call, a queue that waited): not dialled.
            # A lab call rings a simulated callee, which no list binds.
            entry = (
                await do_not_call.listed(session, call.user_id, call.to_number)
                if call.kind != "lab"
                else None
            )
            carrier = self.carriers.for_call(call)
            request = DialRequest(
                call_id=call.id,
                to_number=call.to_number,
                from_number=call.from_number,
                media_url=self.media_url_for(carrier.name),
                status_callback_url=self.status_callback_url(carrier.name),
                media_token=token,
                callee=call.lab_callee,
            )
        if entry is not None:
            log.info("call %s not dialled: its number is on a do-not-call list", call_id)
            await self._fail_before_ringing(call_id, do_not_call.why_not(entry))
            return
        if call is not None and call.dynamic_data:
            await self._fetch_dynamic_data(call)
        try:
            carrier_call_id = await carrier.dial(request)
        except CarrierError as exc:
            log.warning("dialling call %s failed: %s", call_id, exc)
            await self._fail_before_ringing(call_id, str(exc))
            return
        async for session in self.db.session():
            live = await calls.attach_carrier_id(session, call_id, carrier_call_id)
        if live:
            log.info("call %s started: dialling %s", call_id, request.to_number)
        else:  # stopped while the carrier was dialling: it must not ring on
            log.info("call %s was stopped during its dial; hanging up", call_id)
            try:
                await carrier.hang_up(carrier_call_id)
            except CarrierError as exc:
                log.warning("hang-up of the stopped call %s failed: %s", call_id, exc)

    async def hang_up(self, call_id: str, outcome: CallOutcome | None = None) -> None:
        """End a live call from our side; `outcome` says why (first claim wins)."""
        async for session in self.db.session():
            if outcome is not None:
                await calls.claim_outcome(session, call_id, outcome)
            call = await calls.get(session, call_id)
        if call is None or call.status in TERMINAL or not call.carrier_call_id:
            if (
                call is not None
                and call.status == CallStatus.QUEUED.value
                and not call.carrier_call_id
            ):
                await self._apply(
                    call_id,
                    StatusUpdate(carrier_call_id="", status=CallStatus.CANCELED, reason="stopped"),
                )
            return
        await self.carriers.for_call(call).hang_up(call.carrier_call_id)

    # --- carrier status -------------------------------------------------------------------

    async def on_status(self, update: StatusUpdate, carrier: str | None = None) -> bool:
        """A status callback of `carrier` (None: the install's own). Idempotent: replays and
        late callbacks change nothing."""
        name = carrier or self.carrier.name
        async for session in self.db.session():
            call = await calls.by_carrier_id(session, name, update.carrier_call_id)
            if call is None:
                return False
            call_id = call.id
        await self._apply(call_id, update)
        return True

    async def _apply(self, call_id: str, update: StatusUpdate) -> None:
        at = update.at or utcnow()
        values: dict[str, Any] = {}
        if update.status is CallStatus.RINGING:
            values["ringing_at"] = at
        elif update.status is CallStatus.IN_PROGRESS:
            values["answered_at"] = at
            values["answered_by"] = calls.answered_unknown()
        elif update.status in TERMINAL:
            values["ended_at"] = at
            values["end_reason"] = calls.ended_outcome(update.status)
            if update.status is CallStatus.FAILED:
                values["error"] = calls.error_or(update.reason or NO_REASON)
        async for session in self.db.session():
            moved = await calls.move_status(session, call_id, update.status, values)
            if not moved:
                return
            call = await calls.get(session, call_id)  # not loaded before: read after the update
            assert call is not None
            if update.status in TERMINAL:
                call.duration_seconds = _duration(call, update)
            message = _STATUS_MESSAGES.get(update.status)
            if message:
                await self.events.record(session, call, message, "status", completed=False)
            if update.status is CallStatus.IN_PROGRESS:
                await self.life.started(session, call)
        if update.status in TERMINAL:
            await self.finalize(call_id)

    # --- waiting and finishing -----------------------------------------------------------

    async def wait_finalized(
        self, call_id: str, *, within: float | None = None, poll: float = 0.25
    ) -> Call:
        """Wait until the call's end has been processed; returns the call."""
        loop = asyncio.get_running_loop()
        deadline = None if within is None else loop.time() + within
        while True:
            async for session in self.db.session():
                call = await calls.get(session, call_id)
            if call is None:
                raise LookupError(call_id)
            if call.finalized_at is not None:
                return call
            if deadline is not None and loop.time() > deadline:
                raise TimeoutError(f"call {call_id} did not finish within {within} s")
            await asyncio.sleep(poll)

    async def finalize(self, call_id: str) -> None:
        """Once the call has ended and its media (if any) has stopped: its end told
        (`CallLife.ended`). Runs once per call whatever calls it (status webhook, media end,
        reconciler)."""
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is None or call.status not in TERMINAL:
                return
            if call.answered_at is not None and call.media_ended_at is None:
                return  # the recording is still being written; finished() comes back here
            if not await calls.mark_finalized(session, call_id, utcnow()):
                return
            # Who answered is known by now (the media's lines are all written).
            transferred = call.transfer_status == TRANSFER_COMPLETED
            outcome = settled(outcome_of(call.end_reason), call.answered_by, transferred)
            call.end_reason = outcome.value if outcome else call.end_reason
            call.post_transfer_duration = post_transfer_seconds(call)
            await self.life.ended(session, call, outcome)
            on_commit(
                session,
                partial(
                    _log_end,
                    call.id,
                    call.to_number,
                    outcome,
                    call.duration_seconds or 0,
                    call.error,
                ),
            )

    async def dial_due(self) -> int:
        """Send the dial job of each scheduled call whose time has come (the dial's claim makes
        a repeated one harmless). Answers how many were sent."""
        async for session in self.db.session():
            due = await calls.due(session, utcnow())
        for call_id in due:
            if self.jobs is not None:
                await self.jobs.send(DIAL_JOB, call_id)
            else:
                await self.dial(call_id)
        return len(due)

    async def reconcile(self) -> int:
        """Finish calls whose end never arrived (max duration plus a grace period, counted
        from the dial time of a scheduled call), and calls whose media host died (below)."""
        now = utcnow()
        finished = await self._ask_carrier(now)
        finished += await self._salvage_orphaned_media(now)
        async for session in self.db.session():
            stale = [
                c.id
                for c in await calls.overdue(session, now - RECONCILE_GRACE)
                if (c.start_at or c.queued_at) + timedelta(minutes=c.max_duration) + RECONCILE_GRACE
                < now
            ]
        for call_id in stale:
            async for session in self.db.session():
                call = await calls.get(session, call_id)
                carrier_call_id = call.carrier_call_id if call is not None else None
            if carrier_call_id and call is not None and call.status not in TERMINAL:
                # Its end may have come while our database was down: the carrier knows.
                await self._status_from_carrier(call_id, call.carrier, carrier_call_id)
            async for session in self.db.session():
                call = await calls.get(session, call_id)
                if call is None:
                    continue
                if call.status not in TERMINAL:
                    await self._cut_by_fault(session, call)
                if call.answered_at is not None and call.media_ended_at is None:
                    call.media_ended_at = call.ended_at or now
            await self.finalize(call_id)
            finished += 1
        return finished

    async def _ask_carrier(self, now: datetime) -> int:
        """Calls whose media ended `STATUS_GRACE` ago while their final status never came (the
        carrier's callback met our database down, and the carrier gave up): the carrier's own
        record ends them, with the seconds it bills."""
        async for session in self.db.session():
            unknown = await calls.status_unknown(session, now - STATUS_GRACE)
        ended = 0
        for call_id, carrier, carrier_call_id in unknown:
            ended += await self._status_from_carrier(call_id, carrier, carrier_call_id)
        return ended

    async def _status_from_carrier(self, call_id: str, carrier: str, carrier_call_id: str) -> int:
        """Apply the final status of the call that its carrier (by name) has, if any (1:
        applied)."""
        try:
            update = await self.carriers.placed_on(carrier).fetch(carrier_call_id)
        except CarrierError as exc:
            log.warning("reconciler could not read call %s from the carrier: %s", call_id, exc)
            return 0
        if update is None or update.status not in TERMINAL:
            return 0
        log.warning(
            "call %s: its final status never arrived; the carrier's record ends it", call_id
        )
        await self._apply(call_id, update)
        return 1

    async def _salvage_orphaned_media(self, now: datetime) -> int:
        """Calls the carrier ended while their media never reported its end: the process that
        hosted them died (`kill -9` of a voice process), or is about to report. Once the end is
        `MEDIA_GRACE` old and the recording's spool has not grown for as long, the spool becomes
        the call's recording and the call is finalised: billed for the seconds the carrier
        reported, its transcript as written line by line."""
        finished = 0
        async for session in self.db.session():
            orphans = await calls.without_media_end(session, now - MEDIA_GRACE)
        folder = self.recordings_folder
        for call_id in orphans:
            if any(
                now.timestamp() - f.stat().st_mtime < MEDIA_GRACE.total_seconds()
                for f in spooled(folder, call_id)
            ):
                continue  # still being recorded: its process lives
            try:
                name = await salvage_recording(self.store, folder, call_id)
            except StoreError as exc:
                log.error(
                    "call %s: its recording could not be stored, kept its spool: %s", call_id, exc
                )
                continue  # tried again on the next round
            async for session in self.db.session():
                call = await calls.get(session, call_id)
                if call is None or call.media_ended_at is not None:
                    continue
                call.media_ended_at = now
                call.recording_path = call.recording_path or name
                await self.events.record(session, call, MEDIA_LOST, "error")
            log.warning(
                "call %s: its media host stopped mid-call; finalised from its spool", call_id
            )
            await self.finalize(call_id)
            finished += 1
        return finished

    async def _cut_by_fault(self, session: AsyncSession, call: Call) -> None:
        """A call whose end never arrived (a process stopped mid-call): hang up what may still
        be up, and end it as failed at its last sign of life, which is what it is billed for."""
        if call.carrier_call_id:
            try:
                await self.carriers.for_call(call).hang_up(call.carrier_call_id)
            except CarrierError as exc:
                log.warning("reconciler could not hang up %s: %s", call.id, exc)
        seen = [t for t in (call.answered_at, await calls.last_activity(session, call.id)) if t]
        ended = max(seen) if seen else call.queued_at
        await calls.move_status(
            session,
            call.id,
            CallStatus.FAILED,
            {"ended_at": ended, "end_reason": CUT_BY_FAULT.value, "error": CUT_BY_FAULT_ERROR},
        )
        await session.refresh(call)
        call.duration_seconds = _duration(call, StatusUpdate("", CallStatus.FAILED))
        await self.events.record(session, call, CUT_BY_FAULT_ERROR, "error")


async def _log_end(
    call_id: str, number: str, outcome: CallOutcome | None, seconds: int, error: str | None
) -> None:
    """The terminal's one line for a call's end (after its commit): id, number, outcome, length."""
    why = f" ({error.rstrip('.')})" if outcome is CallOutcome.FAILED and error else ""
    ended = outcome.value if outcome else "ended"
    log.info(
        "call %s to %s ended: %s%s, %d:%02d", call_id, number, ended, why, *divmod(seconds, 60)
    )


def _duration(call: Call, update: StatusUpdate) -> int:
    if update.duration_seconds is not None:
        return update.duration_seconds
    if call.answered_at is None or call.ended_at is None:
        return 0
    return max(0, math.ceil((call.ended_at - call.answered_at).total_seconds()))
