"""A transfer's listening stream (docs/actions.md, "Transfer"): while the callee talks with the
person, the carrier forks the call's audio to us, one way, both tracks (Twilio's
`<Start><Stream track="both_tracks">`). We record it and transcribe it: the callee's track
("inbound") on the recording's callee channel and as the callee's lines, the person's
("outbound": what the callee hears) on the agent's channel, the side of the line the agent
held until the transfer, and as lines of speaker "person". Nothing is sent back.

Each track is placed on the stream's clock by its messages' `timestamp`, so the two stay in
step however the carrier batches them; each is cut into utterances by an energy VAD and each
utterance transcribed by the call's Whisper, as the call goes."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import time
from collections.abc import Awaitable

import numpy as np
from fastapi import WebSocket, WebSocketDisconnect

from callwright.speech import languages
from callwright.speech.audio import FRAME_SAMPLES, PHONE_RATE, ulaw_decode
from callwright.speech.vad import EnergyVAD
from callwright.voice_agent.contract import CallHooks, CallPlan, Speaker
from callwright.voice_agent.session import Engines

log = logging.getLogger(__name__)
#: How often (seconds of wall time) what was heard is handed to the hooks' spool.
SPOOL_EVERY_SECONDS = 1.0
#: Audio kept before the VAD's start, so an utterance's first sound is not clipped.
PRE_ROLL_FRAMES = 10
#: How often (seconds of wall time) the stream asks whether its transfer failed.
WATCH_EVERY_SECONDS = 0.2
#: An utterance this long is transcribed even if the speaker has not paused.
UTTERANCE_MAX_SECONDS = 20.0


class _Track:
    """One side of the listening stream: its audio on the stream's clock, and its utterances."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker
        self.audio = bytearray()
        self.spooled = 0
        self.vad = EnergyVAD()
        self._frame = np.zeros(0, dtype=np.int16)
        self._utterance: list[np.ndarray] = []
        self._recent: list[np.ndarray] = []
        self.started_at = 0.0

    def add(self, pcm: np.ndarray, timestamp_ms: int | None) -> list[tuple[np.ndarray, float]]:
        """Place `pcm` at `timestamp_ms` (silence fills a gap); the utterances it ended."""
        if timestamp_ms is not None:
            at = timestamp_ms * PHONE_RATE // 1000 * 2
            if at > len(self.audio):
                self.audio.extend(bytes(at - len(self.audio)))
        self.audio.extend(pcm.astype(np.int16).tobytes())
        done: list[tuple[np.ndarray, float]] = []
        self._frame = np.concatenate([self._frame, pcm])
        while len(self._frame) >= FRAME_SAMPLES:
            frame, self._frame = self._frame[:FRAME_SAMPLES], self._frame[FRAME_SAMPLES:]
            ended = self._feed(frame)
            if ended is not None:
                done.append(ended)
        return done

    def _feed(self, frame: np.ndarray) -> tuple[np.ndarray, float] | None:
        change = self.vad.feed(frame)
        if change == "start":
            self._utterance = [*self._recent, frame]
            self.started_at = time.time()
            return None
        if self.vad.speaking:
            self._utterance.append(frame)
            if len(self._utterance) * FRAME_SAMPLES >= UTTERANCE_MAX_SECONDS * PHONE_RATE:
                return self.flush()
            return None
        self._recent = [*self._recent, frame][-PRE_ROLL_FRAMES:]
        if change == "stop":
            return self.flush()
        return None

    def flush(self) -> tuple[np.ndarray, float] | None:
        """The utterance being heard, if any (at the stream's end, or when it ran long)."""
        if not self._utterance:
            return None
        pcm = np.concatenate(self._utterance)
        self._utterance = []
        return pcm, self.started_at

    def unspooled(self) -> bytes:
        new = bytes(self.audio[self.spooled :])
        self.spooled = len(self.audio)
        return new


class ListenSession:
    """One transfer's listening stream, until the carrier stops it (the call ended, or the
    agent came back after a failed transfer)."""

    def __init__(
        self, websocket: WebSocket, plan: CallPlan, hooks: CallHooks, engines: Engines
    ) -> None:
        self.websocket = websocket
        self.plan = plan
        self.hooks = hooks
        self.engines = engines
        self.whisper = languages.get(plan.language).whisper
        #: Twilio's track names: "inbound" is the callee, "outbound" what the callee hears.
        self.tracks = {"inbound": _Track("user"), "outbound": _Track("person")}
        self._writes: list[asyncio.Future[None]] = []
        self._lines = 0

    async def run(self) -> None:
        """Until the carrier stops the stream, or the transfer failed: the agent comes back on
        a stream of its own, so this one closes (Twilio ends a listening stream whose socket
        the app closes; the call goes on)."""
        tasks = [
            asyncio.create_task(self._receive()),
            asyncio.create_task(self._watch()),
            asyncio.create_task(self._spool_forever()),
        ]
        try:
            done, _ = await asyncio.wait(tasks[:2], return_when=asyncio.FIRST_COMPLETED)
            abandoned = tasks[1] in done and not tasks[1].exception()
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if abandoned:
            with contextlib.suppress(Exception):
                await self.websocket.close()
        await self.finish(abandoned=abandoned)

    async def _watch(self) -> None:
        """Returns once the transfer has failed (the agent is coming back)."""
        while True:
            if await self.hooks.transfer_failed():
                return
            await asyncio.sleep(WATCH_EVERY_SECONDS)

    async def _receive(self) -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = json.loads(await self.websocket.receive_text())
                event = message.get("event")
                if event == "stop":
                    return
                if event == "media":
                    self._heard(message.get("media") or {})

    def _heard(self, media: dict[str, object]) -> None:
        track = self.tracks.get(str(media.get("track", "")))
        payload = media.get("payload")
        if track is None or not isinstance(payload, str):
            return
        stamp = str(media.get("timestamp", ""))
        pcm = ulaw_decode(base64.b64decode(payload))
        for utterance, started in track.add(pcm, int(stamp) if stamp.isdigit() else None):
            self._write(self._transcribe(track.speaker, utterance, started))

    async def _transcribe(self, speaker: Speaker, pcm: np.ndarray, started: float) -> None:
        text = await asyncio.to_thread(
            self.engines.transcriber.transcribe, pcm, PHONE_RATE, self.whisper
        )
        if text.strip():
            self._lines += 1
            key = f"listen-{self._lines}"
            await self.hooks.line(speaker, text.strip(), key=key, at=started)

    def _write(self, report: Awaitable[None]) -> None:
        self._writes.append(asyncio.ensure_future(report))

    async def _spool_forever(self) -> None:
        while True:
            await asyncio.sleep(SPOOL_EVERY_SECONDS)
            await self._spool()

    async def _spool(self) -> None:
        callee = self.tracks["inbound"].unspooled()
        person = self.tracks["outbound"].unspooled()
        if (callee or person) and self.plan.record:
            await self.hooks.recorded(callee, person, PHONE_RATE)

    async def finish(self, *, abandoned: bool = False) -> None:
        """The last utterances transcribed (not after a failed transfer: what is being heard
        then is the agent back), what is left spooled, then the stream's end."""
        for track in self.tracks.values():
            if (utterance := track.flush()) is not None and not abandoned:
                self._write(self._transcribe(track.speaker, *utterance))
        for outcome in await asyncio.gather(*self._writes, return_exceptions=True):
            if isinstance(outcome, BaseException):
                log.error("a transferred call's line was not saved", exc_info=outcome)
        await self._spool()
        await self.hooks.finished(None)
