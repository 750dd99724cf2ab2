"""TwiML as the sandbox network reads it: the verbs of Twilio's voice TwiML that a call's
transfer needs, parsed safely into plain values.

`<Say>`, `<Play loop digits>` (a WAV or MP3 URL, or keys as DTMF tones), `<Pause length>`, `<Hangup/>`, `<Start><Stream track=...>` (a listening fork),
`<Connect><Stream>` (a bidirectional stream), `<Dial action method timeout callerId>` with a
number as text or `<Number url method>` nouns, and `<Redirect>`. A document that is not
well-formed XML, or that holds a verb the sandbox does not run, is refused with Twilio's error
code (12100 "Document parse failure", 12200 "Schema validation warning"); a bad number in a
`<Dial>` with 13223 ("Dial: Invalid phone number format").

The XML is parsed without a DTD: a document that declares one (entities, external references:
the expansion attacks) is refused before the parser sees it, and documents are size-capped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

#: Twilio refuses TwiML documents over 64 KB.
MAX_BYTES = 64 * 1024
DIAL_TIMEOUT = (5, 600, 30)  # min, max, default (seconds)
TRACKS = ("inbound_track", "outbound_track", "both_tracks")
_NUMBER = re.compile(r"^\+?[0-9]{3,15}$")
#: `<Play digits>`: the keys, and `w` for a half-second wait.
_DIGITS = re.compile(r"^[0-9*#wW]+$")
#: `<Play loop="0">` repeats until the call moves on; the sandbox stops after this many.
PLAY_LOOP_CAP = 100


class TwimlError(ValueError):
    """A TwiML document Twilio would refuse: `code` is Twilio's error code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Stream:
    url: str
    parameters: dict[str, str]
    #: For `<Start><Stream>`: which audio is forked (Twilio's default: the callee's only).
    track: str = "inbound_track"
    name: str = ""

    @property
    def tracks(self) -> list[str]:
        """The `tracks` of the stream's `start` message."""
        return {
            "inbound_track": ["inbound"],
            "outbound_track": ["outbound"],
            "both_tracks": ["inbound", "outbound"],
        }[self.track]


@dataclass(frozen=True)
class Say:
    text: str
    voice: str = ""
    loop: int = 1


@dataclass(frozen=True)
class Play:
    #: The audio's URL (WAV or MP3), or empty when `digits` is given.
    url: str = ""
    loop: int = 1
    digits: str = ""


@dataclass(frozen=True)
class Pause:
    length: float = 1.0


@dataclass(frozen=True)
class Hangup:
    pass


@dataclass(frozen=True)
class Start:
    stream: Stream


@dataclass(frozen=True)
class Connect:
    stream: Stream


@dataclass(frozen=True)
class Number:
    number: str
    #: Twilio fetches TwiML from it once the number answers, and plays it to that party only.
    url: str = ""
    method: str = "POST"


@dataclass(frozen=True)
class Dial:
    numbers: tuple[Number, ...]
    action: str = ""
    method: str = "POST"
    timeout: int = DIAL_TIMEOUT[2]
    caller_id: str = ""


@dataclass(frozen=True)
class Redirect:
    url: str
    method: str = "POST"


Verb = Say | Play | Pause | Hangup | Start | Connect | Dial | Redirect


def parse(document: str) -> list[Verb]:
    """The verbs of a `<Response>` document, in order; TwimlError when Twilio would refuse it."""
    root = _root(document)
    return [_verb(element) for element in root]


def _root(document: str) -> ET.Element:
    if len(document.encode()) > MAX_BYTES:
        raise TwimlError(12100, "Document parse failure: the document is over 64 KB")
    if re.search(r"<!\s*(DOCTYPE|ENTITY)", document, re.IGNORECASE):
        raise TwimlError(12100, "Document parse failure: DTDs and entities are not allowed")
    try:
        root = ET.fromstring(document)  # noqa: S314 - no DTD can reach it (checked above)
    except ET.ParseError as exc:
        raise TwimlError(12100, f"Document parse failure: {exc}") from exc
    if root.tag != "Response":
        raise TwimlError(12100, "Document parse failure: the root element must be <Response>")
    return root


def _verb(element: ET.Element) -> Verb:
    tag = element.tag
    if tag == "Say":
        loop = _integer(element.get("loop"), 1)
        return Say((element.text or "").strip(), element.get("voice", ""), max(1, loop))
    if tag == "Play":
        return _play(element)
    if tag == "Pause":
        return Pause(float(max(1, _integer(element.get("length"), 1))))
    if tag == "Hangup":
        return Hangup()
    if tag in ("Start", "Connect"):
        stream = element.find("Stream")
        if stream is None or len(element) != 1:
            raise TwimlError(12200, f"Schema validation warning: <{tag}> takes one <Stream>")
        return Start(_stream(stream)) if tag == "Start" else Connect(_stream(stream, fork=False))
    if tag == "Dial":
        return _dial(element)
    if tag == "Redirect":
        return Redirect((element.text or "").strip(), _method(element.get("method")))
    raise TwimlError(12200, f"Schema validation warning: the sandbox does not run <{tag}>")


def _play(element: ET.Element) -> Play:
    url, digits = (element.text or "").strip(), element.get("digits", "")
    loop = _integer(element.get("loop"), 1)
    loop = PLAY_LOOP_CAP if loop == 0 else min(PLAY_LOOP_CAP, max(1, loop))
    if digits:
        if not _DIGITS.match(digits):
            raise TwimlError(12200, f"Schema validation warning: <Play digits='{digits}'>")
        return Play(digits=digits.lower())
    if not url.startswith(("http://", "https://")):
        raise TwimlError(12200, "Schema validation warning: <Play> takes an http(s) URL")
    return Play(url, loop)


def _stream(element: ET.Element, *, fork: bool = True) -> Stream:
    url = element.get("url", "")
    if not url.startswith(("ws://", "wss://")):
        raise TwimlError(12100, "Document parse failure: <Stream url> must be a ws(s):// URL")
    track = element.get("track", "inbound_track") if fork else "inbound_track"
    if track not in TRACKS:
        raise TwimlError(12200, f"Schema validation warning: <Stream track='{track}'>")
    parameters = {
        p.get("name", ""): p.get("value", "") for p in element.findall("Parameter") if p.get("name")
    }
    return Stream(url, parameters, track, element.get("name", ""))


def _dial(element: ET.Element) -> Dial:
    numbers = [
        Number(_number((n.text or "").strip()), n.get("url", ""), _method(n.get("method")))
        for n in element.findall("Number")
    ]
    if not numbers and (element.text or "").strip():
        numbers = [Number(_number((element.text or "").strip()))]
    if not numbers:
        raise TwimlError(13223, "Dial: Invalid phone number format (no number to dial)")
    low, high, default = DIAL_TIMEOUT
    return Dial(
        numbers=tuple(numbers),
        action=element.get("action", ""),
        method=_method(element.get("method")),
        timeout=min(high, max(low, _integer(element.get("timeout"), default))),
        caller_id=element.get("callerId", ""),
    )


def _number(text: str) -> str:
    digits = re.sub(r"[\s().-]", "", text)
    if not _NUMBER.match(digits):
        raise TwimlError(13223, f"Dial: Invalid phone number format ({text!r})")
    if not digits.startswith("+"):
        digits = "+1" + digits if len(digits) == 10 else "+" + digits
    return digits


def _method(value: str | None) -> str:
    method = (value or "POST").upper()
    if method not in ("GET", "POST"):
        raise TwimlError(12200, f"Schema validation warning: method '{value}'")
    return method


def _integer(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default
