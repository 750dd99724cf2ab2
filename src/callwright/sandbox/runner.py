"""A sandbox call's TwiML, run verb by verb once the callee answers, as Twilio runs it.

`<Connect><Stream>` puts the callee on a bidirectional stream (the agent) until the app closes
it (the next verb runs), the callee hangs up, or a call update moves the call: then the stream
gets `stop` and closes, and the new TwiML runs. `<Start><Stream>` opens a listening fork that
hears the rest of the call. `<Dial>` rings a number (sandbox/dial.py) and, with an `action`,
POSTs the outcome there and runs the TwiML it answers instead of the rest of the document.
`<Say>` is spoken to the callee, `<Pause>` waits, `<Hangup/>` ends the call, `<Redirect>`
fetches the next document; a document that runs out ends the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import email.utils
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import httpx

from callwright.sandbox import twiml
from callwright.sandbox.callee import CalleeReport, Segment, SimulatedCallee, callee_voice_for
from callwright.sandbox.dial import NETWORK_VOICE, Dialer, DialLeg, speech
from callwright.sandbox.keys import tones
from callwright.sandbox.line import (
    API_VERSION,
    FRAME,
    SILENCE,
    Fork,
    Line,
    Wire,
    callback,
    frames_of,
    silence,
)
from callwright.sandbox.numbers import Persona
from callwright.speech.audio import phone_audio
from callwright.telephony import signature

if TYPE_CHECKING:
    from callwright.sandbox.network import SandboxCall

log = logging.getLogger(__name__)

#: What a verb leaves the document to do: go on, end the call, or run other TwiML instead.
Next = Literal["next", "end"] | list[twiml.Verb]
FAILED_TRANSFER = ("busy", "no-answer", "failed", "canceled")


class CallRunner:
    def __init__(self, wire: Wire, call: SandboxCall) -> None:
        self.wire = wire
        self.call = call
        self.line = Line(wire)
        #: The callee's lines still to say with the agent.
        self.lines = list(call.persona.lines)
        self.callee_voice = ""
        self.last_dial = ""

    @property
    def clock(self) -> float:
        """Call time since the answer (seconds): the streams' and the line's."""
        return sum(s.duration for s in self.call.sessions) + self.line.played

    async def run(self) -> None:
        """The call's TwiML to its end (a hang-up, a `<Hangup/>`, the document's end)."""
        verbs: list[twiml.Verb] | None
        if self.call.url is not None:  # created with Url: Twilio asks it for the TwiML now
            verbs = await self._fetch(*self.call.url)
        else:
            verbs = twiml.parse(self.call.twiml)
        try:
            while verbs is not None:
                verbs = await self._document(verbs)
        finally:
            await self.line.close()
            self.call.forks = [fork.report for fork in self.line.forks]

    async def _document(self, verbs: list[twiml.Verb]) -> list[twiml.Verb] | None:
        """Run `verbs` in order: the TwiML that replaces them, or None when the call ends."""
        for verb in verbs:
            if self.call.hangup_requested.is_set():
                return None
            step = await self._verb(verb)
            if self.call.pending is not None:
                return await self._take_update()
            if step == "end":
                return None
            if isinstance(step, list):
                return step
        self.call.hung_up_by = self.call.hung_up_by or "agent"
        return None  # the document ran out: Twilio hangs up

    async def _take_update(self) -> list[twiml.Verb] | None:
        """The TwiML of a call update (or its Url's answer), which now runs instead."""
        pending, self.call.pending = self.call.pending, None
        self.call.break_in.clear()
        if isinstance(pending, list):
            return pending
        assert pending is not None
        return await self._fetch(pending[0], pending[1])

    async def _verb(self, verb: twiml.Verb) -> Next:
        if isinstance(verb, twiml.Connect):
            return await self._connect(verb.stream)
        if isinstance(verb, twiml.Start):
            fork = Fork(self.wire, verb.stream, self.call.sid)
            await fork.open()
            self.line.forks.append(fork)
            return "next"
        if isinstance(verb, twiml.Dial):
            return await self._dial(verb)
        if isinstance(verb, twiml.Say):
            await self._say(verb)
            return "next"
        if isinstance(verb, twiml.Play):
            await self._play(verb)
            return "next"
        if isinstance(verb, twiml.Pause):
            await self.line.play([(SILENCE, f) for f in silence(verb.length)], self.call.break_in)
            return "next"
        if isinstance(verb, twiml.Redirect):
            return await self._fetch(verb.url, verb.method) or "end"
        self.call.hung_up_by = "agent"  # <Hangup/>
        return "end"

    # --- the verbs ------------------------------------------------------------------------

    async def _connect(self, stream: twiml.Stream) -> Next:
        """A bidirectional stream: the callee talks with whoever is at its URL."""
        self.callee_voice = (
            self.callee_voice
            or self.call.persona.voice
            or callee_voice_for(stream.parameters.get("agentVoice", ""))
        )
        callee = SimulatedCallee(
            self._persona_now(),
            call_sid=self.call.sid,
            account_sid=self.wire.account_sid,
            stream_url=stream.url,
            parameters=stream.parameters,
            speed=self.wire.speed,
            voice_name=self.callee_voice,
            # Twilio signs the websocket upgrade with the account's auth token.
            headers={"X-Twilio-Signature": signature.compute(self.wire.auth_token, stream.url)},
            tap=self.line.tap,
            writer=self.wire.writer,
            ears=self.wire.ears,
        )
        self.call.callee = callee
        if self.call.hangup_requested.is_set():
            callee.hang_up_from_network()
        report = await self._session(callee)
        if report.redirected:
            return "next"  # _document takes the update
        self.call.hung_up_by = report.hung_up_by
        if report.hung_up_by == "callee" or self.call.hangup_requested.is_set():
            return "end"
        return "next"  # the app closed the stream: Twilio goes on with the next verb

    async def _session(self, callee: SimulatedCallee) -> CalleeReport:
        start = self.clock
        mover = asyncio.create_task(self._leave_on_update(callee))
        try:
            report = await callee.run()
        finally:
            mover.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await mover
        self.call.sessions.append(report)
        self.call.report = self.call.report or report
        self.lines = list(report.unsaid)
        self.call.said += [
            dataclasses.replace(s, start=s.start + start, end=s.end + start)
            for s in report.segments
        ]
        return report

    async def _leave_on_update(self, callee: SimulatedCallee) -> None:
        await self.call.break_in.wait()
        if self.call.pending is not None:
            callee.leave()

    def _persona_now(self) -> Persona:
        """The callee as it is now: after a transfer that failed, with its lines for then."""
        persona = self.call.persona
        if self.last_dial in FAILED_TRANSFER and persona.resumed:
            self.last_dial = ""
            self.lines = list(persona.resumed)
            return dataclasses.replace(
                persona, lines=persona.resumed, hello="Hello? Are you still there?"
            )
        return dataclasses.replace(persona, lines=tuple(self.lines))

    async def _say(self, verb: twiml.Say) -> None:
        if not verb.text:
            return
        await self._out((await speech(NETWORK_VOICE, verb.text)) * verb.loop, verb.text)

    async def _play(self, verb: twiml.Play) -> None:
        """`<Play>`: the audio at its URL (fetched once, WAV or MP3) or keys as DTMF tones,
        played to the callee. Audio that cannot be fetched or read is skipped (Twilio's 11200
        or 12300 in its debugger) and the document goes on."""
        if verb.digits:
            await self._out(frames_of(tones(verb.digits)), f"[keys {verb.digits}]")
            return
        try:
            response = await self.wire.http.get(verb.url)
            response.raise_for_status()
            pcm = await asyncio.to_thread(phone_audio, response.content)
        except httpx.HTTPError as exc:
            self.call.errors.append(f"11200 {verb.url}: {exc}")
            return
        except ValueError as exc:
            self.call.errors.append(f"12300 {verb.url}: {exc}")
            return
        await self._out(frames_of(pcm) * verb.loop, f"[played {verb.url}]")

    async def _out(self, frames: list[bytes], text: str) -> None:
        """Play `frames` to the callee on the line; what was played is the network's line."""
        start = self.clock
        played = await self.line.play([(SILENCE, f) for f in frames], self.call.break_in)
        self.call.said.append(Segment("network", start, start + played * FRAME, text))

    async def _dial(self, verb: twiml.Dial) -> Next:
        dialer = Dialer(
            wire=self.wire,
            line=self.line,
            parent_sid=self.call.sid,
            parent_from=self.call.from_,
            callee=self.call.persona,
            callee_voice=self.callee_voice or self.call.persona.voice or callee_voice_for(""),
            interrupted=self.call.break_in,
        )
        leg = await dialer.run(verb)
        self.call.legs.append(leg)
        self.last_dial = leg.dial_status
        joined = self.clock - self.line.played + leg.joined_at  # the join, in call time
        self.call.said += [
            dataclasses.replace(s, start=s.start + joined, end=s.end + joined) for s in leg.script
        ]
        if self.call.pending is not None:
            return "next"  # moved elsewhere: Twilio does not request the action
        if not verb.action:
            return "end" if self.call.hangup_requested.is_set() else "next"
        verbs = await self._fetch(verb.action, verb.method, _dial_fields(leg))
        if self.call.hangup_requested.is_set():
            return "end"  # the action was told; what it answers no longer runs
        return verbs if verbs is not None else "end"

    async def _fetch(
        self, url: str, method: str, extra: dict[str, str] | None = None
    ) -> list[twiml.Verb] | None:
        """Twilio's TwiML request (signed, the call's fields): its verbs, or None when it
        fails (Twilio says "an application error has occurred" and hangs up)."""
        form = self._fields() | (extra or {})
        try:
            response = await callback(self.wire, url, method, form)
            response.raise_for_status()
            return twiml.parse(response.text)
        except (httpx.HTTPError, twiml.TwimlError) as exc:
            log.warning("sandbox call %s: TwiML from %s failed: %s", self.call.sid, url, exc)
            self.call.errors.append(f"{url}: {exc}")
            self.call.hung_up_by = "agent"
            return None

    def _fields(self) -> dict[str, str]:
        call = self.call
        return {
            "AccountSid": self.wire.account_sid,
            "ApiVersion": API_VERSION,
            "CallSid": call.sid,
            "CallStatus": "completed" if call.hangup_requested.is_set() else "in-progress",
            "Called": call.to,
            "Caller": call.from_,
            "Direction": "outbound-api",
            "From": call.from_,
            "To": call.to,
            "Timestamp": email.utils.format_datetime(datetime.now(UTC)),
        }


def _dial_fields(leg: DialLeg) -> dict[str, str]:
    fields = {
        "DialCallStatus": leg.dial_status,
        "DialCallSid": leg.sid,
        "DialBridged": "true" if leg.bridged else "false",
    }
    if leg.answered is not None:
        fields["DialCallDuration"] = str(leg.duration)
    return fields
