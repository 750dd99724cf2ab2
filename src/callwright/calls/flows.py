"""The call choreography: dial after the commit, follow the carrier's status callbacks through
the state machine, feed the voice agent its plan and record what it reports, and finish each
call exactly once (events, recording; billing joins here)."""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.calls import repository as calls
from callwright.config import Settings
from callwright.kit.db import Database, on_commit
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.models import Call, TurnLatency
from callwright.models.call import new_call_id
from callwright.realtime.server import ADMIN_ROOM, Publisher, user_room
from callwright.speech.audio import mp3_bytes
from callwright.telephony.base import Carrier, CarrierError, DialRequest, StatusUpdate
from callwright.telephony.state import TERMINAL, CallStatus
from callwright.voice_agent.contract import CallPlan, Recording, TurnTiming

log = logging.getLogger(__name__)

CONNECTED = "Call connected"
CLOSING = "Closing call stream"
#: After max duration, how long to wait for a call's end before the reconciler closes it.
RECONCILE_GRACE = timedelta(minutes=2)
DIAL_JOB = "calls.dial"
RECONCILE_JOB = "calls.reconcile"

_STATUS_MESSAGES = {
    CallStatus.RINGING: "Ringing",
    CallStatus.NO_ANSWER: "No answer",
    CallStatus.BUSY: "Line busy",
    CallStatus.FAILED: "Call failed",
    CallStatus.CANCELED: "Call canceled",
}


class CallEngine:
    def __init__(
        self,
        settings: Settings,
        db: Database,
        carrier: Carrier,
        publish: Publisher,
        jobs: JobQueue,
    ) -> None:
        self.settings = settings
        self.db = db
        self.carrier = carrier
        self.publish = publish
        self.jobs = jobs
        self.billing = Billing(lambda room, event, data: self.publish(room, event, data))
        jobs.register(DIAL_JOB, self.dial)
        jobs.register(RECONCILE_JOB, self.reconcile)
        self.recordings = settings.data_dir / "recordings"
        #: Seconds in one "minute" of max duration (tests shorten it).
        self.seconds_per_minute = 60

    # --- urls -----------------------------------------------------------------------------

    @property
    def media_url(self) -> str:
        base = self.settings.app_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/api/v1/media/twilio"

    def status_callback_url(self) -> str:
        return f"{self.settings.app_url}/api/v1/webhooks/{self.carrier.name}/status"

    # --- placing and ending ---------------------------------------------------------------

    async def place(self, session: AsyncSession, user_id: int, call: Call) -> Call:
        """A user's call: hold its maximum cost (InsufficientBalance when the balance does not
        cover it), then store it queued; it is dialled after the commit."""
        call.id = new_call_id()
        call.user_id = user_id
        await self.billing.hold(session, user_id, call)
        return await self.create(session, call)

    async def stop(self, session: AsyncSession, call: Call) -> bool:
        """Hang up a live call, or cancel one not dialled yet. False when it has ended."""
        if call.status in TERMINAL:
            return False
        if call.carrier_call_id:
            await self.carrier.hang_up(call.carrier_call_id)
            await self._event(session, call, "Call stopped by the user", "call")
            return True
        moved = await calls.move_status(
            session,
            call.id,
            CallStatus.CANCELED,
            {"ended_at": utcnow(), "end_reason": "stopped", "duration_seconds": 0},
        )
        if moved:
            call_id = call.id

            async def finish() -> None:
                await self.finalize(call_id)

            on_commit(session, finish)
        return True

    async def create(self, session: AsyncSession, call: Call) -> Call:
        """Store a queued call; it is dialled once the request's transaction has committed."""
        call.carrier = self.carrier.name
        call.status = CallStatus.QUEUED.value
        call.queued_at = utcnow()
        await calls.add(session, call)
        call_id = call.id

        async def dial_later() -> None:
            await self.jobs.send(DIAL_JOB, call_id)

        on_commit(session, dial_later)
        return call

    async def dial(self, call_id: str) -> None:
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is None or call.status != CallStatus.QUEUED.value or call.carrier_call_id:
                return
            request = DialRequest(
                call_id=call.id,
                to_number=call.to_number,
                from_number=call.from_number,
                media_url=self.media_url,
                status_callback_url=self.status_callback_url(),
            )
        try:
            carrier_call_id = await self.carrier.dial(request)
        except CarrierError as exc:
            log.warning("dialling call %s failed: %s", call_id, exc)
            async for session in self.db.session():
                await calls.move_status(
                    session,
                    call_id,
                    CallStatus.FAILED,
                    {"ended_at": utcnow(), "error": str(exc), "end_reason": "carrier-error"},
                )
                call = await calls.get(session, call_id)
                if call:
                    await self._event(session, call, f"Call failed: {exc}", "error")
            await self.finalize(call_id)
            return
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is not None and call.carrier_call_id is None:
                call.carrier_call_id = carrier_call_id

    async def hang_up(self, call_id: str) -> None:
        async for session in self.db.session():
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
        await self.carrier.hang_up(call.carrier_call_id)

    # --- carrier status -------------------------------------------------------------------

    async def on_status(self, update: StatusUpdate) -> bool:
        """A status callback. Idempotent: replays and late callbacks change nothing."""
        async for session in self.db.session():
            call = await calls.by_carrier_id(session, self.carrier.name, update.carrier_call_id)
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
        elif update.status in TERMINAL:
            values["ended_at"] = at
            values["end_reason"] = update.reason or update.status.value
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
                await self._event(session, call, message, "status", completed=False)
        if update.status in TERMINAL:
            await self.finalize(call_id)

    # --- the voice agent's side -----------------------------------------------------------

    async def plan(self, call_id: str) -> CallPlan | None:
        async for session in self.db.session():
            call = await calls.get(session, call_id)
        if call is None or call.status in TERMINAL:
            return None
        return CallPlan(
            call_id=call.id,
            prompt=call.prompt,
            voice=call.voice,
            temperature=call.temperature,
            interruption_threshold_ms=call.interruption_threshold,
            background_audio=call.background_audio,
            max_duration_seconds=call.max_duration * self.seconds_per_minute,
            wait_for_greeting=call.wait_for_greeting,
            voicemail=self.settings.voicemail_action,
        )

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

    def hooks(self, call_id: str) -> MediaHooks:
        return MediaHooks(self, call_id)

    # --- the end ----------------------------------------------------------------------------

    async def finalize(self, call_id: str) -> None:
        """Once the call has ended and its media (if any) has stopped: the closing events.
        Runs once per call whatever calls it (status webhook, media end, reconciler)."""
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            if call is None or call.status not in TERMINAL:
                return
            if call.answered_at is not None and call.media_ended_at is None:
                return  # the recording is still being written; finished() comes back here
            if not await calls.mark_finalized(session, call_id, utcnow()):
                return
            seconds = call.duration_seconds or 0
            await self.billing.settle(session, call)
            await self._event(session, call, f"Call duration & price: {seconds}s", "call")
            await self._event(session, call, CLOSING, "call", completed=True)

    async def reconcile(self) -> int:
        """Finish calls whose end never arrived (max duration plus a grace period)."""
        now = utcnow()
        finished = 0
        async for session in self.db.session():
            stale = [
                c.id
                for c in await calls.overdue(session, now - RECONCILE_GRACE)
                if c.queued_at + timedelta(minutes=c.max_duration) + RECONCILE_GRACE < now
            ]
        for call_id in stale:
            async for session in self.db.session():
                call = await calls.get(session, call_id)
                if call is None:
                    continue
                if call.status not in TERMINAL:
                    if call.carrier_call_id:
                        try:
                            await self.carrier.hang_up(call.carrier_call_id)
                        except CarrierError as exc:
                            log.warning("reconciler could not hang up %s: %s", call_id, exc)
                    final = CallStatus.COMPLETED if call.answered_at else CallStatus.FAILED
                    await calls.move_status(
                        session, call_id, final, {"ended_at": now, "end_reason": "reconciled"}
                    )
                    await session.refresh(call)
                    call.duration_seconds = _duration(call, StatusUpdate("", final))
                if call.answered_at is not None and call.media_ended_at is None:
                    call.media_ended_at = now
            await self.finalize(call_id)
            finished += 1
        return finished

    # --- events ---------------------------------------------------------------------------

    async def _event(
        self,
        session: AsyncSession,
        call: Call,
        message: str,
        category: str,
        *,
        completed: bool = False,
        **extra: Any,
    ) -> None:
        at = utcnow()
        await calls.add_event(session, call.id, category, message, at)
        data = {
            "callId": call.id,
            "message": message,
            "category": category,
            "completed": completed,
            **extra,
        }
        rooms = [ADMIN_ROOM] + ([user_room(call.user_id)] if call.user_id is not None else [])

        async def send() -> None:
            for room in rooms:
                await self.publish(room, "webhook-event", data)

        on_commit(session, send)


class MediaHooks:
    """What the voice agent reports for one call, written down and published."""

    def __init__(self, engine: CallEngine, call_id: str) -> None:
        self.engine = engine
        self.call_id = call_id
        self._hung_up = False
        # Lines are numbered max(seq)+1: the callee's and the agent's lines can end at the same
        # moment, so they are written (and published) one at a time, in order.
        self._lines = asyncio.Lock()

    async def answered(self) -> None:
        async for session in self.engine.db.session():
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            if call.status != CallStatus.IN_PROGRESS.value:
                await calls.move_status(
                    session, self.call_id, CallStatus.IN_PROGRESS, {"answered_at": utcnow()}
                )
            await self.engine._event(session, call, CONNECTED, "call")

    async def line(self, speaker: Literal["assistant", "user"], text: str) -> None:
        async with self._lines:
            async for session in self.engine.db.session():
                call = await calls.get(session, self.call_id)
                if call is None:
                    return
                entry = await calls.add_line(session, self.call_id, speaker, text, utcnow())
                label = "Assistant" if speaker == "assistant" else "User"
                await self.engine._event(
                    session,
                    call,
                    f"{label}: {text}",
                    "call",
                    speaker=speaker,
                    text=text,
                    seq=entry.seq,
                )

    async def latency(self, timing: TurnTiming) -> None:
        async for session in self.engine.db.session():
            await calls.add_latency(
                session,
                TurnLatency(
                    call_id=self.call_id,
                    turn=timing.turn,
                    end_of_speech_ms=timing.end_of_speech_ms,
                    stt_ms=timing.stt_ms,
                    llm_ms=timing.llm_ms,
                    tts_ms=timing.tts_ms,
                    total_ms=timing.total_ms,
                ),
            )

    async def hang_up(self) -> None:
        if self._hung_up:
            return
        self._hung_up = True
        try:
            await self.engine.hang_up(self.call_id)
        except CarrierError as exc:
            log.warning("hang-up of %s failed: %s", self.call_id, exc)

    async def finished(self, recording: Recording | None) -> None:
        path: str | None = None
        if recording is not None and recording.seconds > 0:
            path = await asyncio.to_thread(
                _save_mp3, self.engine.recordings, self.call_id, recording
            )
        async for session in self.engine.db.session():
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            call.media_ended_at = utcnow()
            if path:
                call.recording_path = path
        await self.engine.finalize(self.call_id)


def _save_mp3(folder: Path, call_id: str, recording: Recording) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{call_id}.mp3"
    target.write_bytes(mp3_bytes(recording.stereo, recording.rate, 2, kbps=32))
    return target.name


def _duration(call: Call, update: StatusUpdate) -> int:
    if update.duration_seconds is not None:
        return update.duration_seconds
    if call.answered_at is None or call.ended_at is None:
        return 0
    return max(0, math.ceil((call.ended_at - call.answered_at).total_seconds()))
