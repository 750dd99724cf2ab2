"""The call side of the voice agent's seams (`voice_agent.contract`): which media streams may
join which call (`CallMedia`), and what the agent reports during one (`MediaHooks`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents.tools import spec as tool_spec
from callwright.calls import repository as calls
from callwright.calls.events import CONNECTED, CallEvents
from callwright.calls.flows import CallFlows
from callwright.calls.latency import live_latency
from callwright.calls.recordings import (
    Track,
    align_spool,
    drop_spool,
    save_recording,
    spool_path,
    spooled_recording,
)
from callwright.calls.transfers import CallTransfers, resume_follows
from callwright.compliance import disclosure, do_not_call
from callwright.compliance.calling_hours import callee_today
from callwright.config import Settings
from callwright.kit.db import Database, unreachable
from callwright.kit.security import sha256_hex
from callwright.kit.storage import Store, StoreError
from callwright.kit.time import utcnow
from callwright.models import Call, TurnLatency
from callwright.realtime.events import CallAction, CaptionEvent, FlowNodeChange, WebhookEvent
from callwright.telephony.base import CarrierError
from callwright.telephony.state import TERMINAL, AnsweredBy, CallOutcome, CallStatus
from callwright.voice_agent.contract import (
    ActionReport,
    AgentEnding,
    Answerer,
    CallHooks,
    CallPlan,
    Leg,
    Recording,
    Speaker,
    TransferStarted,
    TurnTiming,
)
from callwright.voice_agent.flow_graph import FlowGraph, FlowState, Step

log = logging.getLogger(__name__)
#: The media streams a call may have (voice_agent.contract.CallPlan.leg).
LEGS: tuple[Leg, ...] = ("agent", "listen", "resume")
#: How each speaker's line reads in the call's events.
LABELS = {"assistant": "Assistant", "user": "User", "person": "Person"}

SECONDS_PER_MINUTE = 60
OPTED_OUT = "The callee asked not to be called again: the number is on the do-not-call list."
#: A lab call's opt-out: its callee is simulated, so no list takes its number (the number would
#: then bind the sandbox's other calls to it).
OPTED_OUT_LAB = "The callee asked not to be called again (a lab call: no list takes its number)."
#: The callee's words kept as an opt-out's evidence, at most.
EVIDENCE_MAX = 1000


def voicemail_action(call_action: str, settings: Settings) -> Literal["message", "hangup"]:
    """What the agent does on voicemail: the call's choice, except that an operator who set
    CALLWRIGHT_VOICEMAIL_ACTION=hangup leaves no message on any call."""
    if call_action == "hangup" or settings.voicemail_action == "hangup":
        return "hangup"
    return "message"


def step_line(step: Step) -> str:
    """How a flow's step reads in the call's events."""
    return f"Flow: {step.node_name}" + (f" ({step.reason})" if step.reason else "")


def _flow_plan(call: Call, leg: Leg) -> dict[str, Any]:
    """The plan's flow: the call's pinned graph and start node; for the agent back after a
    transfer, where the flow stood (the last step's node, the variables captured so far)."""
    if not call.flow_graph:
        return {}
    graph = FlowGraph.model_validate(call.flow_graph)
    state = None
    steps = call.pathway_logs or []
    node_ids = {n.id for n in graph.nodes}
    if leg == "resume" and steps and steps[-1].get("node_id") in node_ids:
        variables = {k: "" if v is None else str(v) for k, v in (call.variables or {}).items()}
        for step in steps:
            variables.update(step.get("captured") or {})
        state = FlowState(node_id=steps[-1]["node_id"], variables=variables)
    return {"flow": graph, "flow_start_node_id": call.start_node_id, "flow_state": state}


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")


class CallMedia:
    """Admits the carrier's media streams (implements `voice_agent.contract.MediaCalls`)."""

    def __init__(
        self, settings: Settings, db: Database, flows: CallFlows, events: CallEvents
    ) -> None:
        self.db = db
        self.flows = flows
        self.events = events
        #: The live calls' recording spools (this process's local disk).
        self.recordings = flows.recordings_folder

    def verify(self, headers: Mapping[str, str]) -> bool:
        """The upgrade request carries the signature of one of the install's carriers over
        the media URL that carrier is given (beside a real carrier, the sandbox of the lab's
        calls signs its own); the stream's single-use secret then names the call."""
        flows = self.flows
        return any(
            carrier.verify_media_connection(flows.media_url_for(carrier.name), headers)
            for carrier in flows.carriers
        )

    async def claim(self, call_id: str, token: str, leg: str = "agent") -> CallPlan | None:
        """The plan for a media stream that brought the call's secret; None (refuse it) when
        the secret is wrong or spent (a second connection), or the call has ended. A
        transfer's listening stream (`leg` "listen") brings its own secret; the agent's stream
        and the agent's return after a failed transfer ("resume") the call's media secret."""
        if not call_id or not token or leg not in LEGS:
            return None
        claim = calls.claim_listen if leg == "listen" else calls.claim_media
        async for session in self.db.session():
            if not await claim(session, call_id, sha256_hex(token)):
                return None
        return await self.plan(call_id, leg)

    async def plan(self, call_id: str, leg: Leg = "agent") -> CallPlan | None:
        async for session in self.db.session():
            call = await calls.get(session, call_id)
            history = await calls.transcript_lines(session, call_id) if leg == "resume" else []
        if call is None or call.status in TERMINAL:
            return None
        departments = tuple(call.transfer_list or {})
        return CallPlan(
            call_id=call.id,
            prompt=call.prompt,
            voice=call.voice,
            temperature=call.temperature,
            interruption_threshold_ms=call.interruption_threshold,
            background_audio=call.background_audio,
            max_duration_seconds=self._time_left(call),
            wait_for_greeting=call.wait_for_greeting,
            voicemail=voicemail_action(call.voicemail_action, self.flows.settings),
            first_sentence=call.first_sentence or None,
            voicemail_message=call.voicemail_message or None,
            disclosure=disclosure.spoken(call.disclosure, recorded=call.record),
            language=call.language,
            can_transfer=bool(call.transfer_number or departments),
            transfer_departments=departments,
            leg=leg,
            history=tuple((line.speaker, line.text) for line in history),
            transfer_result=call.transfer_status if leg == "resume" else None,
            precall_dtmf_sequence=call.precall_dtmf_sequence or "",
            tools=tuple(tool_spec(t, self.flows.settings.secret_key) for t in call.tools or ()),
            variables=dict(call.variables or {}),
            record=call.record,
            today=callee_today(call.to_number, utcnow()),
            speed=self.flows.speed(call.carrier),
            **_flow_plan(call, leg),
        )

    def _time_left(self, call: Call) -> float:
        """The call's time limit in seconds; what is left of it for the agent back after a
        transfer (on the call's clock)."""
        limit = call.max_duration * SECONDS_PER_MINUTE
        if call.transfer_status is None or call.answered_at is None:
            return limit
        spent = (utcnow() - call.answered_at).total_seconds() * self.flows.speed(call.carrier)
        return max(1.0, limit - spent)

    @property
    def store(self) -> Store:
        """Where finished calls' recordings are kept (a folder or an S3 bucket)."""
        return self.flows.store

    def hooks(self, call_id: str, leg: Leg = "agent") -> MediaHooks:
        return MediaHooks(self, call_id, leg)


class MediaHooks(CallHooks):
    """What the voice agent reports for one call, written down and published."""

    def __init__(self, media: CallMedia, call_id: str, leg: Leg = "agent") -> None:
        self.leg = leg
        #: This stream handed the call to a person: its end is not the call's.
        self._handed_over = False
        self.db = media.db
        self.flows = media.flows
        self.events = media.events
        self.recordings = media.recordings
        self.store = media.store
        self.call_id = call_id
        self._hung_up = False
        self._owner_id: int | None = None
        self._owner_known = False
        self._answerer: Answerer | None = None
        #: The carrier's id of the call (known from its answer): the agent can still hang up
        #: while the database is down.
        self._carrier_call_id: str | None = None
        #: The name of the carrier the call was placed on (known with its id).
        self._carrier = ""
        #: Why the agent ended the call, when the database was down as it did (written with the
        #: media's end, before the reconciler reads the end from the carrier).
        self._ending: CallOutcome | None = None
        # Lines are numbered max(seq)+1: the callee's and the agent's lines can end at the same
        # moment, so they are written (and published) one at a time, in order.
        self._lines = asyncio.Lock()

    async def answered(self) -> None:
        async def write(session: AsyncSession) -> None:
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            self._carrier_call_id = call.carrier_call_id
            self._carrier = call.carrier
            started = False
            if call.status != CallStatus.IN_PROGRESS.value:
                started = await calls.move_status(
                    session,
                    self.call_id,
                    CallStatus.IN_PROGRESS,
                    {"answered_at": utcnow(), "answered_by": calls.answered_unknown()},
                )
            await self.events.record(session, call, CONNECTED, "call")
            if started:
                await session.refresh(call)
                await self.flows.life.started(session, call)

        await self.db.persist(write, what=f"call {self.call_id} answered")

    async def _owner(self) -> int | None:
        if not self._owner_known:
            async for session in self.db.session():
                call = await calls.get(session, self.call_id)
                self._owner_id = call.user_id if call is not None else None
            self._owner_known = True
        return self._owner_id

    async def caption(self, speaker: Speaker, text: str, *, key: str, at: float) -> None:
        async with self._lines:
            await self.events.caption(
                await self._owner(),
                CaptionEvent(
                    call_id=self.call_id,
                    speaker=speaker,
                    key=key,
                    text=text,
                    at=_iso(at),
                    final=False,
                ),
            )

    async def answered_by(self, who: Answerer) -> None:
        # In line with the transcript lines, so the callee's line that told is labelled by it.
        async def write(session: AsyncSession) -> None:
            await calls.set_answered_by(session, self.call_id, AnsweredBy(who))

        async with self._lines:
            self._answerer = who
            await self.db.persist(write, what=f"call {self.call_id} answered by")

    async def opted_out(self, heard: str) -> None:
        """The callee asked not to be called again: their number joins the owner's do-not-call
        list (the global list for the landing page's test call, which has no owner), with this
        call and their words as the evidence (docs/compliance.md). A lab call's callee is
        simulated: its events say so, and no list takes the number."""

        async def write(session: AsyncSession) -> None:
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            if call.kind == "lab":
                await self.events.record(session, call, OPTED_OUT_LAB, "call")
                return
            _, created = await do_not_call.add(
                session,
                user_id=call.user_id,
                phone=call.to_number,
                source="opt-out",
                call_id=call.id,
                evidence=heard[:EVIDENCE_MAX],
            )
            if created:
                await self.events.record(session, call, OPTED_OUT, "call")

        async with self._lines:
            await self.db.persist(write, what=f"call {self.call_id} opt-out")

    async def line(self, speaker: Speaker, text: str, *, key: str, at: float) -> None:
        """A final transcript line: written and published, tried again while the database is
        unreachable (a restart) so that no line is lost, and never written twice."""
        started = datetime.fromtimestamp(at, UTC)
        tries = 0

        async def write(session: AsyncSession) -> None:
            nonlocal tries
            tries += 1
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            if tries > 1 and await calls.has_line(session, self.call_id, speaker, text, started):
                return  # an earlier try's COMMIT landed before its connection was cut
            entry = await calls.add_line(session, self.call_id, speaker, text, started)
            label = LABELS[speaker]
            event = WebhookEvent(
                call_id=call.id,
                message=f"{label}: {text}",
                category="call",
                completed=False,
                speaker=speaker,
                text=text,
                seq=entry.seq,
                key=key,
                at=_iso(at),
                final=True,
            )
            # A voicemail's greeting stays the callee's line, marked as the voicemail's.
            if speaker == "user" and self._answerer == "voicemail":
                event.answered_by = AnsweredBy.VOICEMAIL
            await self.events.keep(session, call, event)

        async with self._lines:
            await self.db.persist(write, what=f"call {self.call_id} transcript line")

    async def latency(self, timing: TurnTiming) -> None:
        """A reply's latency: a measurement, dropped (logged) while the database is down."""
        try:
            async for session in self.db.session():
                call = await calls.get(session, self.call_id)
                if call is None:
                    return
                row = TurnLatency(call_id=self.call_id, **asdict(timing))
                await calls.add_latency(session, row)
                self.events.announce(session, call, live_latency(row))
        except Exception as exc:
            if not unreachable(exc):
                raise
            log.warning("call %s: a turn's latency not kept (database unreachable)", self.call_id)

    async def action(self, report: ActionReport) -> None:
        """An in-call action: its line in the call's events (in order with the transcript),
        live, and the `call.action` webhook (calls.lifecycle `acted`)."""
        action = CallAction(
            kind=report.kind,
            name=report.name,
            status=report.status,
            summary=report.summary,
            arguments=dict(report.arguments),
            result=report.result,
            latency_ms=report.latency_ms,
        )

        async def write(session: AsyncSession) -> None:
            call = await calls.get(session, self.call_id)
            if call is not None:
                await self.flows.life.acted(session, call, action)

        async with self._lines:
            await self.db.persist(write, what=f"call {self.call_id} action")

    async def step(self, step: Step) -> None:
        """A move of the call's flow: kept in its `pathway_logs`, and its node change as the
        call's event (category "flow"), live."""
        change = FlowNodeChange.model_validate(step.model_dump())

        async def write(session: AsyncSession) -> None:
            call = await calls.get(session, self.call_id)
            if call is None:
                return
            await calls.add_step(session, call, step.model_dump(mode="json"))
            event = WebhookEvent(
                call_id=call.id,
                message=step_line(step),
                category="flow",
                completed=False,
                step=change,
            )
            await self.events.keep(session, call, event)

        async with self._lines:
            await self.db.persist(write, what=f"call {self.call_id} flow step")

    async def hang_up(self, ending: AgentEnding = "completed") -> None:
        if self._hung_up:
            return
        self._hung_up = True
        outcome = CallOutcome(ending)
        try:
            await self.flows.hang_up(self.call_id, outcome)
        except CarrierError as exc:
            log.warning("hang-up of %s failed: %s", self.call_id, exc)
        except Exception as exc:
            if not unreachable(exc) or self._carrier_call_id is None:
                raise
            # The database is down: the call ends now all the same (it would otherwise go on
            # until the callee hangs up), and why it ended is written with the media's end.
            log.warning("call %s: database unreachable; hanging up at the carrier", self.call_id)
            self._ending = outcome
            try:
                carrier = self.flows.carriers.placed_on(self._carrier)
                await carrier.hang_up(self._carrier_call_id)
            except CarrierError as carrier_exc:
                log.warning("hang-up of %s failed: %s", self.call_id, carrier_exc)

    async def transfer(
        self,
        department: str | None,
        summary: str,
        *,
        number: str | None = None,
        mode: str | None = None,
    ) -> TransferStarted:
        """Hand the callee to a person (calls/transfers.py); when the carrier took the call,
        this stream's end is no longer the call's."""
        # Set before the carrier is asked: it may stop this stream before it answers.
        self._handed_over = True
        started = await CallTransfers(self.flows).start(
            self.call_id, department, summary, number=number, mode=mode
        )
        self._handed_over = started.ok
        return started

    async def recorded(self, callee: bytes, agent: bytes, rate: int) -> None:
        # Written at once (no await before it), so slices land in the order they came.
        slices: tuple[tuple[Track, bytes], ...] = (("callee", callee), ("agent", agent))
        for track, audio in slices:
            spool = spool_path(self.recordings, self.call_id, rate, track)
            spool.parent.mkdir(parents=True, exist_ok=True)
            with spool.open("ab") as out:
                out.write(audio)

    async def finished(self, recording: Recording | None) -> None:
        # When the media ended: taken before the MP3 is encoded (seconds on a busy machine), as
        # the call's page places the transcript on the recording from it (calls/page.py).
        ended = utcnow()
        if await self._call_goes_on():
            # The call goes on on another stream (docs/actions.md, "Transfer"): what this one
            # recorded stays in the spool, its two tracks made even, for the next to follow.
            await asyncio.to_thread(align_spool, self.recordings, self.call_id)
            return
        if self.leg != "agent":
            # A transferred call's recording is its streams' one after another: the spool's.
            recording = await asyncio.to_thread(spooled_recording, self.recordings, self.call_id)
        path: str | None = None
        if recording is not None and recording.seconds > 0:
            try:
                path = await save_recording(self.store, self.call_id, recording)
            except StoreError as exc:
                # The spool stays: the reconciler stores the recording from it and finalises
                # the call (on this machine, or one that shares its spool folder).
                log.error("call %s: its recording could not be stored: %s", self.call_id, exc)
                return
        drop_spool(self.recordings, self.call_id)

        async def write(session: AsyncSession) -> bool:
            if self._ending is not None:
                await calls.claim_outcome(session, self.call_id, self._ending)
            call = await calls.get(session, self.call_id)
            if call is None:
                return False
            call.media_ended_at = ended
            if path:
                call.recording_path = path
            return True

        # Tried again while the database is down: the spool is gone, and without its media's
        # end the call would wait for the reconciler and lose its recording.
        if await self.db.persist(write, what=f"call {self.call_id} media end"):
            await self.flows.finalize(self.call_id)

    async def _call_goes_on(self) -> bool:
        """Whether this stream's end is not the call's: it handed the call to a person, or it
        is a transfer's listening stream and the agent comes back after a failed transfer."""
        if self._handed_over:
            return True
        return self.leg == "listen" and await self.transfer_failed()

    async def transfer_failed(self) -> bool:
        async for session in self.db.session():
            call = await calls.get(session, self.call_id)
        return call is not None and resume_follows(call)
