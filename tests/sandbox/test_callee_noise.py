"""A callee's noise bed (`Callee.noise`, sandbox/noise.py) is in every frame it sends: its
silences carry it, and a clean callee's silence is silence."""

from __future__ import annotations

import base64
import json
from typing import Any

from callwright.sandbox.callee import SimulatedCallee, _Conversation
from callwright.sandbox.numbers import Persona
from callwright.speech.audio import rms, ulaw_decode


class Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


async def _silence_sent(noise: str) -> float:
    """The level of a second of the callee's silence, as sent on the stream."""
    callee = SimulatedCallee(
        Persona("person", "a callee on a street", noise=noise),
        call_sid="CA1",
        account_sid="AC1",
        stream_url="ws://127.0.0.1:9/media",
        parameters={},
    )
    socket, talk = Socket(), _Conversation(lines=[])
    for tick in range(50):
        await callee._speak(socket, talk, tick * 0.02)
    frames = [base64.b64decode(m["media"]["payload"]) for m in socket.sent]
    assert len(frames) == 50
    return float(rms(ulaw_decode(b"".join(frames))))


async def test_the_noise_is_under_the_callees_silence() -> None:
    assert await _silence_sent("none") == 0.0
    for kind in ("office", "street", "cafe"):
        assert 30 < await _silence_sent(kind) < 250, kind
