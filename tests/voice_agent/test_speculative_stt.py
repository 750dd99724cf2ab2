"""WhisperSTTService starts transcribing once the callee has been quiet for a moment and uses
that guess when the VAD stops; speech after the snapshot drops the guess."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

import numpy as np
from pipecat.frames.frames import (
    InputAudioRawFrame,
    TranscriptionFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.pipeline.task import PipelineParams
from pipecat.tests.utils import run_test

from callwright.speech.audio import tone
from callwright.speech.stt import Transcriber
from callwright.voice_agent.services import SPECULATE_AFTER_SECS, WhisperSTTService

RATE = 8000
FRAME = RATE // 50  # 20 ms


class CountingTranscriber:
    """Stands in for Whisper: answers with how many samples it was given."""

    def __init__(self, in_flight: int = 0) -> None:
        self.calls: list[int] = []
        self._lock = threading.Lock()
        #: Other calls' transcriptions running on the shared model.
        self.in_flight = in_flight

    def transcribe(self, pcm: Any, rate: int, language: str = "en") -> str:
        with self._lock:
            self.calls.append(len(pcm))
        return f"samples {len(pcm)}"


def _frames(seconds: float, loud: bool) -> list[InputAudioRawFrame]:
    n = round(seconds * 50)
    pcm = tone(440, seconds, RATE, amplitude=0.3) if loud else np.zeros(n * FRAME, dtype=np.int16)
    return [
        InputAudioRawFrame(pcm[i * FRAME : (i + 1) * FRAME].tobytes(), RATE, 1) for i in range(n)
    ]


async def _run(
    frames: list[Any], busy: int = 0
) -> tuple[WhisperSTTService, CountingTranscriber, list[str]]:
    fake = CountingTranscriber(busy)
    stt = WhisperSTTService(cast(Transcriber, fake))
    down, _ = await run_test(
        stt,
        frames_to_send=frames,
        pipeline_params=PipelineParams(audio_in_sample_rate=RATE),
    )
    texts = [f.text for f in down if isinstance(f, TranscriptionFrame)]
    return stt, fake, texts


async def test_the_guess_made_in_the_silence_is_used() -> None:
    frames = [
        VADUserStartedSpeakingFrame(),
        *_frames(0.6, loud=True),
        *_frames(0.3, loud=False),
        VADUserStoppedSpeakingFrame(),
    ]
    stt, fake, texts = await _run(frames)
    assert stt.guesses_used == 1
    assert stt.guesses_dropped == 0
    assert len(fake.calls) == 1  # no second transcription of the same segment
    assert texts == [f"samples {fake.calls[0]}"]


async def test_no_guess_while_another_call_holds_the_model() -> None:
    """With several calls at once a guess would queue ahead of another call's transcription:
    while the shared model is busy the segment waits for the VAD stop and is transcribed once."""
    frames = [
        VADUserStartedSpeakingFrame(),
        *_frames(0.6, loud=True),
        *_frames(0.3, loud=False),
        VADUserStoppedSpeakingFrame(),
    ]
    stt, fake, texts = await _run(frames, busy=1)
    assert (stt.guesses_used, stt.guesses_dropped) == (0, 0)
    assert len(fake.calls) == 1
    assert texts == [f"samples {fake.calls[0]}"]


async def test_speech_after_the_snapshot_drops_the_guess() -> None:
    frames = [
        VADUserStartedSpeakingFrame(),
        *_frames(0.4, loud=True),
        # A pause inside the sentence: a guess starts...
        *_frames(SPECULATE_AFTER_SECS + 0.04, loud=False),
        *_frames(0.4, loud=True),  # ... and the callee goes on
        *_frames(SPECULATE_AFTER_SECS - 0.06, loud=False),  # a shorter one starts none
        *_frames(0.3, loud=True),
        *_frames(0.3, loud=False),
        VADUserStoppedSpeakingFrame(),
    ]
    stt, fake, texts = await _run(frames)
    assert stt.guesses_dropped == 1
    assert stt.transcriptions == 2  # the dropped guess and the last pause's, used: none more
    # The used transcript covers the whole segment, longer than the dropped guess.
    assert len(texts) == 1
    used = int(texts[0].split()[1])
    assert used == max(fake.calls)
    assert min(fake.calls) < used


class SlowTranscriber(CountingTranscriber):
    """Whisper on a busy machine: each transcription takes a while."""

    def transcribe(self, pcm: Any, rate: int, language: str = "en") -> str:
        time.sleep(0.3)
        return super().transcribe(pcm, rate)


async def test_words_that_land_late_go_with_the_rest_of_the_turn() -> None:
    """Two segments back to back while Whisper runs behind: one transcript with both, so the
    turn is not closed on the first half (and the second half does not open a turn of its own)."""
    segment = [*_frames(0.4, loud=True), *_frames(0.3, loud=False)]
    frames = [
        VADUserStartedSpeakingFrame(),
        *segment,
        VADUserStoppedSpeakingFrame(),
        VADUserStartedSpeakingFrame(),
        *segment,
        VADUserStoppedSpeakingFrame(),
    ]
    fake = SlowTranscriber()
    stt = WhisperSTTService(cast(Transcriber, fake))
    down, _ = await run_test(
        stt, frames_to_send=frames, pipeline_params=PipelineParams(audio_in_sample_rate=RATE)
    )
    texts = [f.text for f in down if isinstance(f, TranscriptionFrame)]
    assert len(fake.calls) == 2
    assert texts == [" ".join(f"samples {n}" for n in fake.calls)]
