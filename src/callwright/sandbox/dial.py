"""`<Dial>` on the sandbox network: a child leg rings the number, whose persona answers (or is
busy, or does not answer within the Dial's `timeout`), hears the `<Number url>` whisper, then
talks with the callee until it hangs up.

As at Twilio: the callee hears ringback while the target rings and while the target hears the
whisper (the TwiML that the signed POST to `<Number url>` answers, played to that party only);
then both are joined, and the listening forks get the callee as the inbound track and the
person as the outbound one. The two talk in their own voices at the network's pace: the target
says its `hello` and its `lines`, the callee its `joined` lines between them, and the target
hangs up after its last. The leg keeps what the person heard as the whisper and who said what.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from callwright.kit.time import utcnow
from callwright.sandbox import twiml
from callwright.sandbox.callee import Segment
from callwright.sandbox.line import (
    API_VERSION,
    FRAME,
    SILENCE,
    Line,
    Wire,
    callback,
    frames_of,
    ringback,
    silence,
)
from callwright.sandbox.numbers import Persona, persona_for
from callwright.sandbox.rest import call_resource
from callwright.speech import tts

log = logging.getLogger(__name__)

#: The voices of the network's own speech (`<Say>`) and of the transfer target.
NETWORK_VOICE = "angus"
PERSON_VOICE = "sarah"
#: A callee without lines of its own for a transfer says these.
JOINED_LINES = ("Hello, yes?", "Okay, thank you.")
TURN_GAP = 0.4  # seconds of quiet between two lines of the joined conversation


def voice(name: str) -> tts.Voice:
    return tts.find(name) or tts.default_voice()


async def speech(name: str, text: str) -> list[bytes]:
    """`text` said in voice `name`, as 20 ms mu-law frames."""
    return frames_of(await asyncio.to_thread(tts.synthesize, voice(name), text))


@dataclass
class DialLeg:
    """The child call a `<Dial>` placed (Twilio lists it as a call with `parent_call_sid`)."""

    sid: str
    parent_sid: str
    to: str
    from_: str
    persona: Persona
    status: str = "ringing"
    #: The Dial's outcome as the action URL gets it: completed | busy | no-answer | failed |
    #: canceled.
    dial_status: str = ""
    #: Whether the person was joined with the callee (Twilio's DialBridged).
    bridged: bool = False
    created: datetime = field(default_factory=utcnow)
    answered: datetime | None = None
    ended: datetime | None = None
    #: Seconds from the person's answer to the end of the leg (DialCallDuration).
    duration: int = 0
    #: What the person heard before being joined: the `<Say>`s of the whisper TwiML.
    whisper: list[str] = field(default_factory=list)
    #: The joined conversation, "callee" and "person" lines, in seconds from the join.
    script: list[Segment] = field(default_factory=list)
    #: When they were joined, in seconds of the parent call's line (Line.played).
    joined_at: float = 0.0
    error: str = ""

    def resource(self, account_sid: str) -> dict[str, Any]:
        return call_resource(
            account_sid,
            sid=self.sid,
            parent=self.parent_sid,
            to=self.to,
            from_=self.from_,
            status=self.status,
            direction="outbound-dial",
            times=(self.created, self.answered, self.ended),
            duration=self.duration if self.ended else None,
        )


@dataclass
class Dialer:
    """One `<Dial>` of a parent call."""

    wire: Wire
    line: Line
    parent_sid: str
    parent_from: str
    callee: Persona
    callee_voice: str
    #: Set when the parent call hangs up or is moved to other TwiML: the Dial stops.
    interrupted: asyncio.Event

    async def run(self, verb: twiml.Dial) -> DialLeg:
        number = verb.numbers[0]  # the sandbox rings the first <Number> of a Dial
        leg = DialLeg(
            sid="CA" + secrets.token_hex(16),
            parent_sid=self.parent_sid,
            to=number.number,
            from_=verb.caller_id or self.parent_from,
            persona=persona_for(number.number),
        )
        played = 0
        if await self._ring(leg, verb.timeout):
            leg.status, leg.answered = "in-progress", utcnow()
            played = await self._whisper(leg, number)
            if not leg.dial_status and not self.interrupted.is_set():
                played += await self._talk(leg)
            leg.dial_status = leg.dial_status or (
                "canceled" if not leg.bridged and self.interrupted.is_set() else "completed"
            )
            leg.duration = max(1, math.ceil(played * FRAME))
        # The child call's own status: completed once answered, else the Dial's outcome.
        leg.status = "completed" if leg.dial_status == "completed" else leg.dial_status
        leg.ended = utcnow()
        return leg

    async def _ring(self, leg: DialLeg, dial_timeout: int) -> bool:
        """Ring the target; True once it answers, else the leg's dial_status says why not."""
        p = leg.persona
        if p.kind == "failed":
            leg.dial_status = "failed"
            return False
        ring = (
            float(dial_timeout)
            if p.kind == "no-answer"
            else min(p.ring_seconds, float(dial_timeout))
        )
        frames = ringback(ring)
        played = await self.line.play([(SILENCE, f) for f in frames], self.interrupted)
        if played < len(frames):
            leg.dial_status = "canceled"
            return False
        if p.kind in ("busy", "no-answer"):
            leg.dial_status = p.kind
            return False
        if p.ring_seconds >= dial_timeout:
            leg.dial_status = "no-answer"
            return False
        return True

    async def _whisper(self, leg: DialLeg, number: twiml.Number) -> int:
        """The `<Number url>` TwiML, played to the person only (the callee hears ringback);
        the frames it took."""
        if not number.url:
            return 0
        form = {
            "AccountSid": self.wire.account_sid,
            "ApiVersion": API_VERSION,
            "CallSid": leg.sid,
            "ParentCallSid": leg.parent_sid,
            "CallStatus": "in-progress",
            "Direction": "outbound-dial",
            "From": leg.from_,
            "To": leg.to,
            "Caller": leg.from_,
            "Called": leg.to,
        }
        try:
            response = await callback(self.wire, number.url, number.method, form)
            response.raise_for_status()
            verbs = twiml.parse(response.text)
        except (httpx.HTTPError, twiml.TwimlError) as exc:
            # Twilio tells the person "an application error has occurred" and hangs up the leg.
            log.warning("sandbox whisper %s failed: %s", number.url, exc)
            leg.error, leg.dial_status = f"whisper: {exc}", "failed"
            return 0
        played = 0
        for verb in verbs:
            if isinstance(verb, twiml.Hangup):  # the person declines: never joined
                leg.dial_status = "completed"
                break
            frames = await self._whisper_frames(leg, verb)
            played += await self.line.play(
                [(SILENCE, f) for f in ringback(len(frames) * FRAME)], self.interrupted
            )
        return played

    async def _whisper_frames(self, leg: DialLeg, verb: twiml.Verb) -> list[bytes]:
        if isinstance(verb, twiml.Say) and verb.text:
            leg.whisper.extend([verb.text] * verb.loop)
            return (await speech(NETWORK_VOICE, verb.text)) * verb.loop
        if isinstance(verb, twiml.Pause):
            return silence(verb.length)
        return []

    async def _talk(self, leg: DialLeg) -> int:
        """The callee and the person talk; the person hangs up after its last line. The
        frames it took."""
        leg.bridged, leg.joined_at = True, self.line.played
        turns = _turns(leg.persona, self.callee)
        frames: list[tuple[bytes, bytes]] = []
        gap = silence(TURN_GAP)
        for speaker, text in turns:
            said = await speech(PERSON_VOICE if speaker == "person" else self.callee_voice, text)
            start = len(frames) * FRAME
            leg.script.append(Segment(speaker, start, start + len(said) * FRAME, text))
            frames += [(SILENCE, f) if speaker == "person" else (f, SILENCE) for f in said]
            frames += [(g, g) for g in gap]
        played = await self.line.play(frames, self.interrupted)
        leg.script = [s for s in leg.script if s.start < played * FRAME]
        return played


def _turns(person: Persona, callee: Persona) -> list[tuple[Any, str]]:
    """Who says what once joined: the person first, then in turn; the person's last line is
    the last."""
    said = [person.hello, *person.lines] if person.kind == "person" else [person.hello]
    replies = list(callee.joined or JOINED_LINES)
    turns: list[tuple[Any, str]] = []
    for i, line in enumerate(said):
        turns.append(("person", line))
        if i < len(said) - 1 and i < len(replies):
            turns.append(("callee", replies[i]))
    return turns
