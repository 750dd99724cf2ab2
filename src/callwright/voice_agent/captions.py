"""Live captions: each side's words reach the call's watchers when they are spoken.

The agent's side: the TTS puts a `SpeechStartFrame` (a sentence and its audio's length) in front
of each sentence's audio. `AgentCaptions` sits after the output transport, so a sentence's frame
reaches it when that sentence's first audio goes to the carrier. The output sends audio ahead of
the carrier's clock (it buffers and plays at 1x), so a sentence is heard when it is sent or when
the sentence before it has finished playing, whichever is later; its words are revealed across
its length, in proportion to their characters. A barge-in (InterruptionFrame: the carrier's
buffer is cleared) stops the reveal where the callee cut in, and the turn's line is what was
heard. At the end of the call (EndFrame: the closer waited until the last audio was heard)
everything sent counts as heard.

The callee's side: `CalleeCaptions` sits after the STT and shows each transcript as soon as it
is ready; the turn's final line follows when the user turn closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    InterruptionFrame,
    LLMFullResponseEndFrame,
    TranscriptionFrame,
    VADUserStartedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from callwright.voice_agent.frames import SpeechStartFrame

#: (key, text so far, started at (epoch seconds), final). The key names one line of one side.
#: Called inline: it must not block (the session hands the report to a task of its own).
CaptionSink = Callable[[str, str, float, bool], None]

_WORD = re.compile(r"\S+")


@dataclass
class _Sentence:
    words: list[str]
    #: When each word starts being heard (loop time).
    times: list[float]


@dataclass
class _Turn:
    key: str
    sentences: list[_Sentence] = field(default_factory=list)
    heard: list[str] = field(default_factory=list)
    #: Epoch time the first word was heard.
    started: float | None = None
    #: Loop time at which the turn's last sentence has been heard.
    heard_until: float = 0.0
    #: The reply's end has passed the output (no more sentences are coming).
    complete: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.heard)

    def all_text(self) -> str:
        return " ".join(w for s in self.sentences for w in s.words)

    def heard_by(self, now: float) -> str:
        """The words heard by `now` (loop time), whether or not their captions went out yet."""
        return " ".join(
            w for s in self.sentences for w, t in zip(s.words, s.times, strict=True) if t <= now
        )

    def next_word(self) -> tuple[str, float] | None:
        """The next word not heard yet, and when it is heard."""
        index = len(self.heard)
        for sentence in self.sentences:
            if index < len(sentence.words):
                return sentence.words[index], sentence.times[index]
            index -= len(sentence.words)
        return None


def word_times(text: str, start: float, seconds: float) -> _Sentence:
    """The sentence's words and when each starts, spread over its audio by character count."""
    words = _WORD.findall(text)
    total = sum(len(w) + 1 for w in words) or 1
    times, before = [], 0
    for word in words:
        times.append(start + seconds * before / total)
        before += len(word) + 1
    return _Sentence(words, times)


class AgentCaptions(FrameProcessor):
    """Reveals the agent's words as the callee hears them (after the output transport)."""

    def __init__(
        self,
        sink: CaptionSink,
        *,
        speed: float = 1.0,
        played_out: Callable[[], bool] = lambda: False,
        prefix: str = "a",
    ) -> None:
        super().__init__()
        self._sink = sink
        #: Whether, when the pipeline ends, all the audio sent has been heard (the closer saw
        #: the carrier echo its mark); otherwise (the callee hung up) only what was heard counts.
        self._played_out = played_out
        self._speed = max(speed, 0.001)
        self._prefix = prefix
        self._count = 0
        #: Turns not fully heard yet, oldest first (only the last may still grow).
        self._open: list[_Turn] = []
        #: Loop time at which everything sent so far has been heard.
        self._heard_until = 0.0
        self._reveal: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if direction is FrameDirection.DOWNSTREAM:
            if isinstance(frame, SpeechStartFrame):
                self._add_sentence(frame)
            elif isinstance(frame, LLMFullResponseEndFrame) and self._open:
                self._open[-1].complete = True
                self._wake.set()
            elif isinstance(frame, (InterruptionFrame, CancelFrame)):
                await self._close(heard_only=True)
            elif isinstance(frame, EndFrame):
                await self._close(heard_only=not self._played_out())
        await self.push_frame(frame, direction)

    def _add_sentence(self, frame: SpeechStartFrame) -> None:
        now = asyncio.get_running_loop().time()
        start = max(now, self._heard_until)
        seconds = frame.seconds / self._speed
        self._heard_until = start + seconds
        if not self._open or self._open[-1].complete:
            self._count += 1
            self._open.append(_Turn(key=f"{self._prefix}{self._count}"))
        turn = self._open[-1]
        turn.sentences.append(word_times(frame.text, start, seconds))
        turn.heard_until = self._heard_until
        if self._reveal is None or self._reveal.done():
            self._reveal = asyncio.create_task(self._run_reveal())
        self._wake.set()

    async def _run_reveal(self) -> None:
        """Publish each open turn's words as their time comes; a turn is final once its reply
        is complete and its last sentence has been heard."""
        loop = asyncio.get_running_loop()
        while self._open:
            turn = self._open[0]
            upcoming = turn.next_word()
            if upcoming is not None:
                word, at = upcoming
                await asyncio.sleep(max(0.0, at - loop.time()))
                if turn.started is None:
                    turn.started = time.time()
                turn.heard.append(word)
                self._sink(turn.key, turn.text, turn.started, False)
            elif turn.complete:
                await asyncio.sleep(max(0.0, turn.heard_until - loop.time()))
                self._open.pop(0)
                self._publish_final(turn, turn.text)
            else:
                self._wake.clear()
                await self._wake.wait()

    async def _close(self, *, heard_only: bool) -> None:
        """A barge-in or the call's end: what was heard (or, when the closer saw the goodbye
        played out, all that was sent) is each open turn's line."""
        if self._reveal is not None:
            self._reveal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reveal
            self._reveal = None
        turns, self._open = self._open, []
        self._heard_until = 0.0
        now = asyncio.get_running_loop().time()
        for turn in turns:
            self._publish_final(turn, turn.heard_by(now) if heard_only else turn.all_text())

    def _publish_final(self, turn: _Turn, text: str) -> None:
        if text:
            self._sink(turn.key, text, turn.started or time.time(), True)


class CalleeCaptions(FrameProcessor):
    """Shows the callee's words as soon as they are transcribed (after the STT). The turn's
    final line is published by `close_turn` when the user turn ends."""

    def __init__(self, sink: CaptionSink, *, prefix: str = "u") -> None:
        super().__init__()
        self._sink = sink
        self._prefix = prefix
        self._turns = 0
        self._parts: list[str] = []
        self._started: float | None = None

    @property
    def key(self) -> str:
        return f"{self._prefix}{self._turns + 1}"

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, VADUserStartedSpeakingFrame) and not self._parts:
            self._started = time.time()  # the line begins when the callee does
        elif isinstance(frame, TranscriptionFrame) and frame.text.strip():
            if self._started is None:
                self._started = time.time()
            self._parts.append(frame.text.strip())
            self._sink(self.key, " ".join(self._parts), self._started, False)
        await self.push_frame(frame, direction)

    def close_turn(self, text: str) -> None:
        """The user turn ended with this text: publish it as the line's final form."""
        key, started = self.key, self._started or time.time()
        self._turns += 1
        self._parts, self._started = [], None
        if text:
            self._sink(key, text, started, True)
