"""The offline engines really speak and really listen (slower tests: a few seconds)."""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from callwright.speech import stt, tts
from callwright.speech.audio import PHONE_RATE, tone
from callwright.speech.stt import FITTED_MAX_SECS, MIN_WINDOW_SECS, Transcriber
from callwright.speech.vad import EnergyVAD


def test_catalogue_lists_installed_engines_with_joe_first() -> None:
    names = [v.name for v in tts.catalogue()]
    assert names[0] == "joe"
    assert {"sarah", "tanner-british"} <= set(names)
    assert all(v.description for v in tts.catalogue())


@pytest.fixture(scope="module")
def transcriber(tmp_path_factory: pytest.TempPathFactory) -> Transcriber:
    return Transcriber(tmp_path_factory.mktemp("models") / "whisper-base")


@pytest.mark.parametrize("voice", ["joe", "sarah"])
def test_speech_synthesised_then_transcribed(voice: str, transcriber: Transcriber) -> None:
    pcm = tts.synthesize(
        tts.find(voice) or tts.default_voice(), "Could we move the appointment to Friday morning?"
    )
    assert 1.5 < len(pcm) / PHONE_RATE < 6
    text = transcriber.transcribe(pcm, PHONE_RATE).lower()
    # Piper samples its prosody noise at random, so the exact words vary between runs
    # ("friday morning" once came back as "friday, maureen"): the key words must be heard and
    # the whole sentence must read close to what was said.
    assert "appointment" in text
    assert "friday" in text
    said = "could we move the appointment to friday morning?"
    assert SequenceMatcher(None, said, text).ratio() > 0.8, text


class _FixedWindowCalls:
    """Counts the segments handed to faster-whisper's own (30 s window) transcription."""

    def __init__(self, transcriber: Transcriber) -> None:
        self.model = transcriber.load()
        self.inner = self.model.transcribe
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.inner(*args, **kwargs)


@pytest.fixture
def fixed_window(transcriber: Transcriber, monkeypatch: pytest.MonkeyPatch) -> _FixedWindowCalls:
    calls = _FixedWindowCalls(transcriber)
    monkeypatch.setattr(calls.model, "transcribe", calls)
    return calls


def _spoken(*sentences: str) -> np.ndarray:
    """The callee's voice, with the pre-roll and trailing silence a VAD segment carries."""
    pcm = tts.synthesize(tts.find("kal") or tts.default_voice(), " ".join(sentences))
    gap = np.zeros(PHONE_RATE // 2, np.int16)
    return np.concatenate([gap, pcm, gap])


def _words(text: str) -> list[str]:
    return [w.strip(".,?!").lower() for w in text.split()]


def _similarity(said: list[str], heard: list[str]) -> float:
    return SequenceMatcher(None, said, heard, autojunk=False).ratio()


def test_a_short_utterance_is_heard_in_a_fitted_window(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls
) -> None:
    pcm = _spoken("Hello, yes, this is me.")
    assert len(pcm) / PHONE_RATE < MIN_WINDOW_SECS
    assert _words(transcriber.transcribe(pcm, PHONE_RATE)) == ["hello", "yes", "this", "is", "me"]
    assert fixed_window.calls == 0


class _Rejecting:
    """`stt._judged`, but the first `times` fitted results are taken as wrong (a decoder loop or
    a lost decoder, as on flite kal's "Hi, who is this?")."""

    def __init__(self, times: int) -> None:
        self.times = times
        self.judged = stt._judged

    def __call__(self, tokenizer: Any, result: Any) -> str | None:
        if self.times > 0:
            self.times -= 1
            return None
        return self.judged(tokenizer, result)


def test_a_rejected_greedy_result_is_decoded_again_with_a_beam_not_in_the_30_s_window(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stt, "_judged", _Rejecting(1))
    retries = transcriber.beam_retries
    pcm = _spoken("Hello, yes, this is me.")
    assert _words(transcriber.transcribe(pcm, PHONE_RATE)) == ["hello", "yes", "this", "is", "me"]
    assert transcriber.beam_retries == retries + 1
    assert fixed_window.calls == 0  # the 30 s window's four-times-dearer encoder is not run


def test_a_batch_retries_only_its_rejected_segments(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stt, "_judged", _Rejecting(1))  # the batch's first segment
    retries = transcriber.beam_retries
    texts = transcriber.transcribe_batch(
        [_spoken("Hello, yes, this is me."), _spoken("No thanks, I am not interested.")],
        PHONE_RATE,
    )
    assert [_words(t) for t in texts] == [
        ["hello", "yes", "this", "is", "me"],
        ["no", "thanks", "i", "am", "not", "interested"],
    ]
    assert transcriber.beam_retries == retries + 1
    assert fixed_window.calls == 0


def test_a_result_the_beam_also_gets_wrong_takes_the_30_s_window(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stt, "_judged", _Rejecting(2))  # greedy, then the beam
    pcm = _spoken("Hello, yes, this is me.")
    assert _words(transcriber.transcribe(pcm, PHONE_RATE)) == ["hello", "yes", "this", "is", "me"]
    assert fixed_window.calls == 1


def test_without_the_beam_retry_a_rejected_result_takes_the_30_s_window(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The retry turned off (retry_beam_size 1) to show what it saves; its default is above.
    monkeypatch.setattr(transcriber, "retry_beam_size", 1)
    monkeypatch.setattr(stt, "_judged", _Rejecting(1))
    retries = transcriber.beam_retries
    pcm = _spoken("Hello, yes, this is me.")
    assert _words(transcriber.transcribe(pcm, PHONE_RATE)) == ["hello", "yes", "this", "is", "me"]
    assert (transcriber.beam_retries, fixed_window.calls) == (retries, 1)


LONG = (
    "I already spoke to the office about it last week.",
    "She said the cleaning could wait until after the holidays.",
    "So I would rather not book anything before January.",
    "Please call me again in the new year and we can find a time.",
)
#: More words, none repeated (Whisper takes a repeated passage for a decoding loop).
LONGER = (
    *LONG,
    "My husband usually handles the appointments for both of us.",
    "He is travelling for work until the middle of next month.",
    "If you send a letter with the available dates, we will look at it together.",
    "The mornings are better for me because I pick up the children at three.",
    "Also, could you tell me whether the insurance still covers two visits a year?",
    "Last time the receptionist was not sure and I paid the full price.",
    "I would like to avoid that happening again.",
    "Thank you for calling, and have a good evening.",
)


def test_a_segment_longer_than_the_smallest_window_is_heard_whole(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls
) -> None:
    pcm = _spoken(*LONG)
    assert MIN_WINDOW_SECS + 2 < len(pcm) / PHONE_RATE < FITTED_MAX_SECS
    text = transcriber.transcribe(pcm, PHONE_RATE)
    assert _similarity(_words(" ".join(LONG)), _words(text)) > 0.85, text
    # Whole: from the first sentence to the last.
    assert "last week" in text
    assert "find a time" in text
    assert fixed_window.calls == 0


def test_a_segment_over_the_fitted_limit_takes_the_30_s_windows_and_is_heard_whole(
    transcriber: Transcriber, fixed_window: _FixedWindowCalls
) -> None:
    pcm = _spoken(*LONGER)
    assert len(pcm) / PHONE_RATE > 30  # more than one of Whisper's windows, too
    text = transcriber.transcribe(pcm, PHONE_RATE)
    assert _similarity(_words(" ".join(LONGER)), _words(text)) > 0.85, text
    assert text.startswith("I already spoke")
    assert "good evening" in text[-30:]
    assert fixed_window.calls == 1


def test_model_is_assembled_with_its_checksum(transcriber: Transcriber) -> None:
    transcriber.load()
    assert (transcriber.model_dir / "model.bin").stat().st_size == 145_217_532
    assert Path(transcriber.model_dir / "tokenizer.json").is_file()


def test_energy_vad_finds_speech_between_silences() -> None:
    vad = EnergyVAD()
    signal = np.concatenate([np.zeros(8000, np.int16), tone(300, 1.0), np.zeros(8000, np.int16)])
    events = []
    for i in range(0, len(signal), 160):
        if (e := vad.feed(signal[i : i + 160])) is not None:
            events.append((e, i / PHONE_RATE))
    assert [e for e, _ in events] == ["start", "stop"]
    assert 1.0 <= events[0][1] <= 1.1
    assert 2.4 <= events[1][1] <= 2.6
