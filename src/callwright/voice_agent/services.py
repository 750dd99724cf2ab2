"""Pipecat services around our offline engines (callwright.speech)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import numpy as np
from pipecat.audio.vad.silero import SileroVADAnalyzer
from pipecat.audio.vad.vad_analyzer import VADState
from pipecat.frames.frames import (
    ErrorFrame,
    Frame,
    InputAudioRawFrame,
    TranscriptionFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.settings import STTSettings, TTSSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.services.tts_service import TTSService
from pipecat.transcriptions.language import Language
from pipecat.utils.text.base_text_aggregator import BaseTextAggregator
from pipecat.utils.time import time_now_iso8601

from callwright.speech import languages, stt_queue, tts, tts_queue
from callwright.speech.audio import rms, trim_end
from callwright.speech.stt import Transcriber
from callwright.speech.vad import EnergyVAD
from callwright.voice_agent.frames import SpeechStartFrame
from callwright.voice_agent.sentences import SentenceAggregator

#: Quiet (by energy) this long inside a VAD segment starts a speculative transcription. At
#: 0.12 s the pauses inside a sentence started guesses that were then dropped (half of all
#: Whisper runs); 0.2 s keeps the latency and drops fewer (docs/performance.md, "Concurrent
#: calls").
SPECULATE_AFTER_SECS = 0.2
FRAME_SECS = 0.02
#: How long after the VAD stop the turn may wait for the segment's transcript. Pipecat's
#: default (1.0 s, minus the VAD's 0.3 s) is about one Whisper run on a small CPU, so a busy
#: machine closed turns before their last words were transcribed, and the late words then
#: opened a turn of their own that talked over the agent. The wait ends as soon as the
#: transcript arrives, so this only bounds the slow case.
TRANSCRIPT_WAIT_SECS = 3.0
#: The quiet kept after a reply's opening clause said on its own (a comma's pause; Piper ends
#: every chunk with about 0.25 s, and the rest's own start adds 0.05 s).
CLAUSE_PAUSE_SECS = 0.1


class WhisperSTTService(SegmentedSTTService):
    """Transcribes each VAD segment with the shared Whisper base model.

    Pipecat's own WhisperSTTService hands the phone-rate samples to Whisper as if they were
    16 kHz (so the audio plays twice too fast and the words come out wrong); this one resamples.

    Whisper takes about 0.3 s a segment on the 2-core box (a window fitted to the segment, see
    speech/stt.py), and the VAD waits 0.3 s of silence before it calls the segment over. So as
    soon as the audio has been quiet (by energy) for 0.2 s, the segment so far is transcribed
    speculatively; when the VAD then stops and no speech came after the snapshot, that result
    is used and the wait overlaps the silence window. If the callee speaks again the guess is
    dropped and the whole segment is transcribed as usual.
    A guess starts only while the process's model is idle: with several calls at once it
    would otherwise hold up the other calls' real transcriptions.
    """

    def __init__(
        self, transcriber: Transcriber, language: str = languages.DEFAULT, **kwargs: Any
    ) -> None:
        #: What Whisper is told the callee speaks (its code: "en", "es"...).
        self._whisper_language = languages.get(language).whisper
        self._language = Language(self._whisper_language)
        super().__init__(
            settings=STTSettings(model="whisper-base", language=self._language),
            ttfs_p99_latency=TRANSCRIPT_WAIT_SECS,
            **kwargs,
        )
        self._transcriber = transcriber
        self.transcription_queue = stt_queue.queue_for(transcriber)
        quiet_frames = max(1, round(SPECULATE_AFTER_SECS / FRAME_SECS))
        self._energy = EnergyVAD(start_frames=2, stop_frames=quiet_frames)
        #: The transcription started in the current pause (dropped when the callee goes on).
        self._guess: asyncio.Future[str] | None = None
        # One entry per queued segment, in queue order: its guess, or None.
        self._guesses: deque[asyncio.Future[str] | None] = deque()
        #: Words of earlier segments waiting for the segment still being spoken or transcribed.
        self._held = ""
        self.guesses_used = 0
        self.guesses_dropped = 0
        #: Whisper runs for this call, guesses included.
        self.transcriptions = 0

    @property
    def wants_wav_segments(self) -> bool:
        return False

    def can_generate_metrics(self) -> bool:
        return True

    def _transcribe_later(self, audio: bytes, *, guess: bool = False) -> asyncio.Future[str]:
        pcm = np.frombuffer(audio, dtype=np.int16)
        self.transcriptions += 1
        # The process's one queue (speech/stt_queue.py): other calls' waiting segments are
        # transcribed in the same run, a guess only when no real segment waits.
        task = asyncio.wrap_future(
            self.transcription_queue.submit(
                pcm, self.sample_rate, self._whisper_language, guess=guess
            )
        )
        # A dropped guess is never awaited: retrieve its exception so none goes unreported.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    async def process_audio_frame(
        self, frame: InputAudioRawFrame, direction: FrameDirection
    ) -> None:
        await super().process_audio_frame(frame, direction)
        pcm = np.frombuffer(frame.audio, dtype=np.int16)
        step = round(frame.sample_rate * FRAME_SECS)  # the energy VAD counts 20 ms frames
        for at in range(0, len(pcm), step):
            self._feed(self._energy.feed(pcm[at : at + step]))

    def _feed(self, change: str | None) -> None:
        if change == "start" and self._guess is not None:
            self._guess = None  # the callee went on: the snapshot missed words
            self.guesses_dropped += 1
        elif (
            change == "stop"
            and self._user_speaking
            and self.is_usable
            and not self.transcription_queue.busy
        ):
            # Only on an idle model: with several calls at once, a guess (most pauses are
            # inside a sentence, and their guesses are dropped) would queue ahead of another
            # call's real transcription and delay it.
            snapshot = bytes(self._audio_buffer) + self._trailing_silence()
            self._guess = self._transcribe_later(snapshot, guess=True)

    async def _handle_user_started_speaking(self, frame: VADUserStartedSpeakingFrame) -> None:
        self._guess = None
        await super()._handle_user_started_speaking(frame)

    async def _handle_user_stopped_speaking(self, frame: VADUserStoppedSpeakingFrame) -> None:
        guess, self._guess = self._guess, None
        if self.is_usable:
            self._guesses.append(guess)
        await super()._handle_user_stopped_speaking(frame)

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame, None]:
        await self.start_processing_metrics()
        guess = self._guesses.popleft() if self._guesses else None
        try:
            if guess is not None:
                self.guesses_used += 1
                text = await guess
            else:
                text = await self._transcribe_later(audio)
        except Exception as exc:
            yield ErrorFrame(f"transcription failed: {exc}")
            return
        finally:
            await self.stop_processing_metrics()
        # Pipecat closes the turn on a segment's (final) transcript once the VAD has stopped. When
        # Whisper runs behind (a busy CPU), an earlier segment's words can land after the callee
        # has already said more: sending them alone would close the turn without the rest, and
        # the rest would then open a turn of its own over the agent's reply. So while the callee
        # is still talking or later segments wait, the words are held and go with the last one.
        self._held = f"{self._held} {text}".strip()
        if self._held and not (self._user_speaking or self._guesses):
            held, self._held = self._held, ""
            yield TranscriptionFrame(held, "callee", time_now_iso8601(), self._language)


class InlineSileroVAD(SileroVADAnalyzer):
    """Silero VAD run on the event loop. Pipecat hands every 20 ms frame to a thread pool and
    back (50 thread hops a second a call, each costing more than the model's run on 8 kHz
    audio, about 0.1 ms, which only happens every 32 ms): inline the same analysis costs less
    CPU and no latency (docs/performance.md, "Concurrent calls")."""

    #: A window quieter than this (RMS of 16-bit samples, about -60 dBFS: under a phone
    #: line's own noise, far under speech) while nobody speaks is not given to the model.
    SILENT_RMS = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._resting = False
        #: Windows scored by the model, and skipped as silence.
        self.windows_scored = 0
        self.windows_skipped = 0

    async def analyze_audio(self, buffer: bytes) -> VADState:
        return self._run_analyzer(buffer)

    def voice_confidence(self, buffer: bytes) -> float:
        """The model's confidence, but 0 without running it for a silent window while the
        VAD is quiet: the callee is listening (about half of a call), and the answer there is
        no speech whatever the model says (it could not start speech on its own: Pipecat also
        asks for a volume far above this). The model's memory is cleared when it rests, as
        Pipecat clears it itself after a quiet stretch, so it starts fresh on the next sound."""
        if (
            self._vad_state == VADState.QUIET
            and rms(np.frombuffer(buffer, dtype=np.int16)) < self.SILENT_RMS
        ):
            if not self._resting:
                self._model.reset_states()
                self._resting = True
            self.windows_skipped += 1
            return 0.0
        self._resting = False
        self.windows_scored += 1
        return float(np.ravel(super().voice_confidence(buffer))[0])


class LocalTTSService(TTSService):
    """Speaks with a catalogue voice (Piper, flite or espeak-ng), sentence by sentence (where
    sentences end: `sentences.SentenceAggregator` unless another aggregator is given)."""

    def __init__(
        self,
        voice: tts.Voice,
        *,
        text_aggregator: BaseTextAggregator | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            settings=TTSSettings(
                model=voice.engine,
                voice=voice.name,
                language=Language(languages.get(voice.language).whisper),
            ),
            **kwargs,
        )
        # Pipecat 1.14's TTSService takes no aggregator argument; this attribute is its splitter.
        # A reply's opening clause ("Sure,") is said on its own: its first audio comes sooner.
        self._text_aggregator = text_aggregator or SentenceAggregator(  # type: ignore[assignment]
            first_clause=True
        )
        self._voice = voice
        #: Sentences spoken on this call, and of those, how many the speech cache held.
        self.sentences = 0
        self.from_cache = 0
        #: The reply whose sentences are being said (Pipecat's context id for one reply).
        self._replying: str | None = None
        #: Whether the chunk just said was a reply's opening clause (`sentences.clause_end`).
        self._clause_said = False

    def can_generate_metrics(self) -> bool:
        return True

    async def _synthesize(self, text: str, rate: int, *, first: bool) -> tuple[np.ndarray, bool]:
        """The sentence's audio: from the speech cache at once, else through the process's
        synthesis queue (speech/tts_queue.py), a reply's first sentence ahead of the rest."""
        if tts.cache_key(self._voice, text, rate) in tts.speech_cache:
            return await asyncio.to_thread(tts.synthesize_cached, self._voice, text, rate)
        queued = tts_queue.synthesis_queue().submit(
            tts.synthesize_cached, self._voice, text, rate, first=first
        )
        pcm, cached = await asyncio.wrap_future(queued)
        return pcm, cached

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        rate = self.sample_rate
        try:
            await self.start_tts_usage_metrics(text)
            # A reply's first sentence goes ahead of the others, both its parts when its
            # opening clause was said apart (the rest is due as soon as the clause has played).
            first = context_id != self._replying or self._clause_said
            pcm, cached = await self._synthesize(text, rate, first=first)
            self._clause_said = context_id != self._replying and text.rstrip().endswith(",")
            if self._clause_said:
                # The voice ends each chunk with about 0.25 s of quiet, a sentence's pause: a
                # comma's is shorter (the rest of the sentence follows at once).
                pcm = trim_end(pcm, round(CLAUSE_PAUSE_SECS * rate))
            self._replying = context_id
            self.sentences += 1
            self.from_cache += cached
            # Ahead of the audio, through the output transport: the live captions learn when
            # this sentence starts playing and how long it lasts.
            yield SpeechStartFrame(text=text, seconds=len(pcm) / rate)

            async def chunks() -> AsyncIterator[bytes]:
                yield pcm.tobytes()

            async for frame in self._stream_audio_frames_from_iterator(
                chunks(), in_sample_rate=rate, context_id=context_id
            ):
                await self.stop_ttfb_metrics()
                yield frame
        except Exception as exc:
            yield ErrorFrame(f"speech synthesis failed: {exc}")
        finally:
            await self.stop_ttfb_metrics()
