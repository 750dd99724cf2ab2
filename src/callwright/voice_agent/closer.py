"""Hang up once the goodbye has been heard."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from pipecat.frames.frames import (
    BotStoppedSpeakingFrame,
    Frame,
    InputTransportMessageFrame,
    InterruptionFrame,
    OutputTransportMessageFrame,
    TTSAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.transfer import TransferFrame


class CallCloser(FrameProcessor):
    """Sits just before the output transport. After the final reply it waits until the output
    has sent every byte, puts a Twilio `mark` behind it and hangs up when the carrier echoes the
    mark (the goodbye has played; it is never clipped). New audio after a mark needs a new mark."""

    def __init__(
        self,
        hang_up: Callable[[], Awaitable[None]],
        *,
        stream_sid: str,
        on_reopened: Callable[[], None] | None = None,
        fallback_seconds: float = 15.0,
        transfer: Callable[[TransferFrame], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__()
        self._hang_up = hang_up
        #: A transfer's last line heard: hand the call over instead of hanging up.
        self._transfer = transfer
        self._final: FinalReplyFrame | None = None
        self._on_reopened = on_reopened or (lambda: None)
        self.stream_sid = stream_sid
        self._fallback = fallback_seconds
        self.closing = False
        self._mark: str | None = None
        self._marks = 0
        self._done = False
        self._fallback_task: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, FinalReplyFrame):
            self._final = frame
            self.closing = True
            self._arm_fallback()
            await self._send_mark()  # if nothing else is queued, this one ends the call
            return
        if isinstance(frame, InterruptionFrame) and self.closing and not self._done:
            # The callee talked over the goodbye: the call goes on, and the brain answers again.
            self.closing = False
            self._mark = None
            if self._fallback_task is not None:
                await self.cancel_task(self._fallback_task)
                self._fallback_task = None
            self._on_reopened()
        if isinstance(frame, TTSAudioRawFrame) and self._mark is not None:
            self._mark = None  # more audio after the mark: wait for the next one
        if isinstance(frame, BotStoppedSpeakingFrame) and self.closing and self._mark is None:
            await self._send_mark()
        if isinstance(frame, InputTransportMessageFrame) and frame.message.get("event") == "mark":
            name = frame.message.get("mark", {}).get("name")
            if self.closing and name == self._mark:
                await self._finish()
            return
        await self.push_frame(frame, direction)

    async def _send_mark(self) -> None:
        self._marks += 1
        self._mark = f"goodbye-{self._marks}"
        await self.push_frame(
            OutputTransportMessageFrame(
                message={
                    "event": "mark",
                    "streamSid": self.stream_sid,
                    "mark": {"name": self._mark},
                }
            )
        )

    def _arm_fallback(self) -> None:
        async def fallback() -> None:
            await asyncio.sleep(self._fallback)
            await self._finish()

        if self._fallback_task is None:
            self._fallback_task = self.create_task(fallback())

    @property
    def played_out(self) -> bool:
        """The goodbye was heard to its end (the call is being hung up by the agent)."""
        return self._done

    async def cleanup(self) -> None:
        if self._fallback_task is not None:
            await self.cancel_task(self._fallback_task)
            self._fallback_task = None
        await super().cleanup()

    async def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        if isinstance(self._final, TransferFrame) and self._transfer is not None:
            await self._transfer(self._final)
            return
        await self._hang_up()

    async def reopen(self) -> None:
        """The call goes on after all (a transfer the carrier refused): listen again."""
        self._done = self.closing = False
        self._mark = self._final = None
        task, self._fallback_task = self._fallback_task, None
        if task is not None and task is not asyncio.current_task():
            await self.cancel_task(task)
