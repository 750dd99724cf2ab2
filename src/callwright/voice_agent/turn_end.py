"""When the callee's turn is over: a complete sentence ends it after a short silence, an
unfinished one ("My number is five five five, ...", "I'm busy now, but") keeps it open.

Two signals, both offline:

- Pipecat's smart-turn v3 model (`smart-turn-v3.2-cpu.onnx`, shipped in the pipecat-ai
  package): it hears the last 8 s of the callee's audio (prosody and words) and gives the
  probability that the turn is complete. About 0.06 CPU s a run on this box, one run per
  pause the VAD reports, on its own thread.
- The transcript Whisper made of the turn so far: a line that trails off ("...", a comma, a
  dash) or ends on a word that cannot end a sentence ("for", "and", "the", "um") is unfinished.

The turn ends at the VAD stop (0.3 s of silence) once the transcript is in, plus a pause that
depends on the verdict: none when both signals say complete, a short one when the model is
unsure, and a long one when either says unfinished (the callee is given time to go on; if they
do not, the turn ends anyway). Figures: docs/performance.md, "Faster turns (issue 31)".

`CALLWRIGHT_TURN_END=fixed` keeps the fixed pause this replaced (0.4 s after every VAD stop),
for comparison (benchmarks/early_turns.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from pipecat.frames.frames import (
    Frame,
    InputAudioRawFrame,
    TranscriptionFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.turns.types import ProcessFrameResult
from pipecat.turns.user_stop.base_user_turn_stop_strategy import BaseUserTurnStopStrategy

from callwright.speech.vad import EnergyVAD

log = logging.getLogger(__name__)
#: The model is given at most this much of the turn (it was trained on 8 s windows).
MODEL_WINDOW_SECS = 8.0
#: Audio kept from before the VAD started (the start of the first word).
PRE_SPEECH_SECS = 0.5


@dataclass(frozen=True)
class TurnEndParams:
    """Pauses after the VAD stop (seconds), by verdict, and the model's thresholds."""

    #: Both signals say the turn is complete.
    complete_pause: float = 0.0
    #: The words are complete but the model is unsure (probability under `sure`).
    unsure_pause: float = 0.2
    #: The words read finished but the model is sure they are not.
    doubt_pause: float = 0.8
    #: The words trail off (or have no end mark and the model says unfinished): the callee
    #: has this long to go on.
    incomplete_pause: float = 1.2
    #: The model's probability at or above which it is sure the turn is complete ...
    sure: float = 0.5
    #: ... and under which it is sure it is not. On the sandbox's flite voices (a synthetic
    #: prosody) it scored unfinished lines 0.006-0.01 but also some complete ones 0.01-0.3,
    #: which is why the model alone holds a turn less long than unfinished words do.
    unfinished: float = 0.05
    #: Silero confirms speech that resumes after a pause late (0.2-0.7 s on the sandbox's
    #: voices): sound on the line (by energy) after the VAD stop holds the end until this long
    #: after the last of it, so the VAD can say whether the callee goes on.
    resume_wait: float = 0.5
    #: How long after the VAD stop the turn waits for this stretch's transcript (Whisper's
    #: slow case; the old strategy's safety net: TRANSCRIPT_WAIT_SECS less the VAD's 0.3 s).
    transcript_wait: float = 2.7


def mode() -> str:
    """ "smart" (the default) or "fixed" (`CALLWRIGHT_TURN_END`)."""
    return "fixed" if os.environ.get("CALLWRIGHT_TURN_END", "").lower() == "fixed" else "smart"


# The words -----------------------------------------------------------------------------

#: Words a statement does not end on: articles, conjunctions, possessives, fillers and the
#: prepositions that need what follows ("Go on.", "I'd love to." and "What for?" do end).
CONTINUATIONS = frozenset(
    {"a", "an", "the", "and", "but", "or", "because", "if", "than", "my", "your", "our"}
    | {"their", "his", "her", "um", "uh", "er", "erm", "hmm", "of", "at", "from", "with", "into"}
    | {"is", "are"}
)
_TRAILING = ("...", "\u2026", ",", "-", "\u2014", ":", ";")


def words_complete(text: str) -> bool | None:
    """Whether a transcript reads as a finished turn: False when it trails off or ends on a
    word a statement does not end on, True when it ends as a sentence (Whisper punctuates),
    None when it cannot tell (no words, or none of Whisper's end marks)."""
    text = text.strip()
    if not text or text.endswith(_TRAILING):
        return False if text else None
    if text.endswith("?"):
        return True  # a question waits for an answer
    words = re.findall(r"[a-z0-9']+", text.lower())
    if words and words[-1] in CONTINUATIONS:
        return False
    return True if text.endswith((".", "!")) else None


# The model -----------------------------------------------------------------------------


class SmartTurnModel:
    """Pipecat's smart-turn v3 ONNX model, loaded once per process, one thread a run."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self._analyzer: Any = None
        self._lock = threading.Lock()
        #: Runs and their CPU seconds (the thread's own time), for the benchmarks.
        self.runs = 0
        self.cpu_seconds = 0.0

    def load(self) -> Any:
        """The model in memory (a warm-up loads it before the first call needs it)."""
        with self._lock:
            if self._analyzer is None:
                from pipecat.audio.turn.smart_turn.local_smart_turn_v3 import (
                    LocalSmartTurnAnalyzerV3,
                )

                analyzer = LocalSmartTurnAnalyzerV3(cpu_count=1)
                analyzer.set_sample_rate(self.rate)
                self._analyzer = analyzer
            return self._analyzer

    def probability(self, pcm: np.ndarray) -> float:
        """Blocking: the probability that the turn in `pcm` (int16 at `rate`) is complete."""
        analyzer = self.load()
        started = time.thread_time()
        audio = pcm.astype(np.float32) / 32768.0
        # Pinned Pipecat: the analyzer's model run itself (resampling, the 8 s window, Whisper
        # features, the ONNX session), without its per-stream buffering, which we do.
        result = analyzer._predict_endpoint(audio)
        with self._lock:
            self.runs += 1
            self.cpu_seconds += time.thread_time() - started
        return float(result["probability"])


_models: dict[int, SmartTurnModel] = {}


def smart_turn(rate: int) -> SmartTurnModel:
    """The process's model for audio at `rate`."""
    if rate not in _models:
        _models[rate] = SmartTurnModel(rate)
    return _models[rate]


# The verdict ---------------------------------------------------------------------------


def pause_after(words: bool | None, probability: float | None, params: TurnEndParams) -> float:
    """How long after the VAD stop the turn ends, given what the words and the model say
    (None: that signal cannot tell). Unfinished words always hold the turn; the model alone
    holds it less long, since it misjudges some of the sandbox's synthetic voices."""
    if words is False:
        return params.incomplete_pause
    if probability is None:
        return params.complete_pause if words else params.unsure_pause
    if probability < params.unfinished:
        return params.doubt_pause if words else params.incomplete_pause
    if probability < params.sure:
        return params.unsure_pause
    return params.complete_pause


class TurnEndStrategy(BaseUserTurnStopStrategy):
    """Ends the callee's turn by `pause_after` once the VAD has stopped and the transcript is
    in. Speech again before then cancels it (the turn goes on, its words kept)."""

    def __init__(
        self,
        rate: int,
        params: TurnEndParams | None = None,
        model: SmartTurnModel | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.params = params or TurnEndParams()
        self.model = model or smart_turn(rate)
        self._rate = rate
        self._audio: deque[bytes] = deque()
        self._audio_bytes = 0
        self._text = ""
        self._transcribed = asyncio.Event()
        self._speaking = False
        self._in_turn = False
        self._energy = EnergyVAD(start_frames=2, stop_frames=5)
        #: When the line last had speech by energy (time.monotonic()).
        self._voice_at = 0.0
        self._verdict: asyncio.Task[None] | None = None
        #: Each verdict: (the pause chosen, what the words said, the model's probability).
        self.verdicts: list[tuple[float, bool | None, float | None]] = []

    async def handle_user_turn_started(self) -> None:
        self._in_turn = True
        await self._cancel()

    async def handle_user_turn_stopped(self) -> None:
        self._text = ""
        self._transcribed.clear()
        self._in_turn = False
        await self._cancel()

    async def cleanup(self) -> None:
        await super().cleanup()
        await self._cancel()

    async def process_frame(self, frame: Frame) -> ProcessFrameResult:
        if isinstance(frame, InputAudioRawFrame):
            self._keep(frame.audio)
        elif isinstance(frame, VADUserStartedSpeakingFrame):
            self._speaking = True
            self._in_turn = True
            self._transcribed.clear()  # this stretch of speech brings its own transcript
            await self._cancel()
        elif isinstance(frame, VADUserStoppedSpeakingFrame):
            self._speaking = False
            await self._cancel()
            self._verdict = self.task_manager.create_task(
                self._judge(time.monotonic(), self._turn_audio()), f"{self}::judge"
            )
        elif isinstance(frame, TranscriptionFrame):
            self._text = f"{self._text} {frame.text}".strip()
            self._transcribed.set()
            if not self._speaking and self._verdict is None:
                # Words without a VAD stop (Pipecat's fallback case): judge them on their own.
                self._verdict = self.task_manager.create_task(
                    self._judge(time.monotonic(), None), f"{self}::judge"
                )
        return ProcessFrameResult.CONTINUE

    def _keep(self, audio: bytes) -> None:
        """The turn's audio, and PRE_SPEECH_SECS of it before the turn starts; and when the
        line last carried speech, by energy."""
        pcm = np.frombuffer(audio, dtype=np.int16)
        step = self._rate // 50  # the energy VAD counts 20 ms frames
        for at in range(0, len(pcm), step):
            self._energy.feed(pcm[at : at + step])
            if self._energy.speaking:
                self._voice_at = time.monotonic()
        self._audio.append(audio)
        self._audio_bytes += len(audio)
        keep = (MODEL_WINDOW_SECS if self._in_turn else PRE_SPEECH_SECS) * self._rate * 2
        while self._audio and self._audio_bytes - len(self._audio[0]) >= keep:
            self._audio_bytes -= len(self._audio.popleft())

    def _turn_audio(self) -> np.ndarray:
        return np.frombuffer(b"".join(self._audio), dtype=np.int16)

    async def _judge(self, stopped_at: float, audio: np.ndarray | None) -> None:
        """The model runs while the transcript is awaited; then the pause, then the end."""
        heard = None
        if audio is not None and len(audio):
            heard = asyncio.ensure_future(asyncio.to_thread(self.model.probability, audio))
            heard.add_done_callback(lambda t: t.cancelled() or t.exception())
        try:
            with contextlib.suppress(TimeoutError):
                # The transcript gates the end, as with Pipecat's own strategies: words that
                # came after the turn ended would open a turn of their own over the reply.
                await asyncio.wait_for(self._transcribed.wait(), self.params.transcript_wait)
            probability = await heard if heard is not None else None
            words = words_complete(self._text)
            pause = pause_after(words, probability, self.params)
            self.verdicts.append((pause, words, probability))
            log.debug(
                "turn end in %.1f s: words %s, model %s: %r", pause, words, probability, self._text
            )
            await asyncio.sleep(max(0.0, stopped_at + pause - time.monotonic()))
            while self._voice_at > stopped_at and not self._speaking:
                # The callee may be going on: the VAD's start (which cancels this) decides.
                wait = self._voice_at + self.params.resume_wait - time.monotonic()
                if wait <= 0:
                    break
                await asyncio.sleep(wait)
        except asyncio.CancelledError:
            return
        self._verdict = None
        log.debug(
            "  ended %.2f s after the VAD stop (voice %.2f s after it)",
            time.monotonic() - stopped_at,
            self._voice_at - stopped_at,
        )
        if not self._speaking and self._text:
            await self.trigger_user_turn_stopped()

    async def _cancel(self) -> None:
        task, self._verdict = self._verdict, None
        if task is not None and task is not asyncio.current_task():
            await self.task_manager.cancel_task(task)
