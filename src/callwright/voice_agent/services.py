"""Pipecat services around our offline engines (callwright.speech)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import numpy as np
from pipecat.frames.frames import ErrorFrame, Frame, TranscriptionFrame
from pipecat.services.settings import STTSettings, TTSSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.services.tts_service import TTSService
from pipecat.transcriptions.language import Language
from pipecat.utils.time import time_now_iso8601

from callwright.speech import tts
from callwright.speech.stt import Transcriber


class WhisperSTTService(SegmentedSTTService):
    """Transcribes each VAD segment with the shared Whisper base model.

    Pipecat's own WhisperSTTService hands the phone-rate samples to Whisper as if they were
    16 kHz (so the audio plays twice too fast and the words come out wrong); this one resamples.
    """

    def __init__(self, transcriber: Transcriber, **kwargs: Any) -> None:
        super().__init__(settings=STTSettings(model="whisper-base", language=Language.EN), **kwargs)
        self._transcriber = transcriber

    @property
    def wants_wav_segments(self) -> bool:
        return False

    def can_generate_metrics(self) -> bool:
        return True

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame, None]:
        await self.start_processing_metrics()
        pcm = np.frombuffer(audio, dtype=np.int16)
        try:
            text = await asyncio.to_thread(self._transcriber.transcribe, pcm, self.sample_rate)
        except Exception as exc:
            yield ErrorFrame(f"transcription failed: {exc}")
            return
        finally:
            await self.stop_processing_metrics()
        if text:
            yield TranscriptionFrame(text, "callee", time_now_iso8601(), Language.EN)


class LocalTTSService(TTSService):
    """Speaks with a catalogue voice (Piper, flite or espeak-ng), sentence by sentence."""

    def __init__(self, voice: tts.Voice, **kwargs: Any) -> None:
        super().__init__(
            settings=TTSSettings(model=voice.engine, voice=voice.name, language=Language.EN),
            **kwargs,
        )
        self._voice = voice

    def can_generate_metrics(self) -> bool:
        return True

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        rate = self.sample_rate

        async def chunks() -> AsyncIterator[bytes]:
            pcm = await asyncio.to_thread(tts.synthesize, self._voice, text, rate)
            yield pcm.tobytes()

        try:
            await self.start_tts_usage_metrics(text)
            async for frame in self._stream_audio_frames_from_iterator(
                chunks(), in_sample_rate=rate, context_id=context_id
            ):
                await self.stop_ttfb_metrics()
                yield frame
        except Exception as exc:
            yield ErrorFrame(f"speech synthesis failed: {exc}")
        finally:
            await self.stop_ttfb_metrics()
