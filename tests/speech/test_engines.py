"""The offline engines really speak and really listen (slower tests: a few seconds)."""

from __future__ import annotations

from difflib import SequenceMatcher
from pathlib import Path

import numpy as np
import pytest

from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE, tone
from callwright.speech.stt import Transcriber
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
