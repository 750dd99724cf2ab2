"""The languages offered are the ones the round-trip benchmark passed, each still round-trips
(one sentence, seconds), and a language is named in any reasonable spelling or refused with a
message that lists the offered ones."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from callwright.config import REPO_ROOT
from callwright.speech import languages, tts
from callwright.speech.audio import PHONE_RATE, ulaw_decode, ulaw_encode
from callwright.speech.scoring import edits, words
from callwright.speech.stt import Transcriber

RESULTS = REPO_ROOT / "benchmarks" / "results" / "languages.json"
LANDING = REPO_ROOT / "frontend" / "src" / "features" / "site" / "offeredLanguages.ts"


def _results() -> dict[str, Any]:
    results: dict[str, Any] = json.loads(RESULTS.read_text())
    return results


def test_offered_is_the_benchmarks_passing_set() -> None:
    results = _results()
    threshold = results["threshold"]
    assert threshold == languages.WER_THRESHOLD
    # The file's verdict follows from its own runs: a voice under the threshold in every run.
    passed = [
        code
        for code in (lang.code for lang in languages.CANDIDATES)
        if any(
            all(run[code][voice] <= threshold for run in results["runs"])
            for voice in results["runs"][0].get(code, {})
        )
    ]
    assert passed == results["passing"]
    assert len(results["runs"]) >= 3
    assert list(languages.OFFERED) == results["passing"]
    # Every candidate voice was measured.
    measured = {(code, v) for code, voices in results["runs"][0].items() for v in voices}
    assert {(v.language, v.name) for v in tts.candidates()} <= measured


def test_the_landing_page_names_the_offered_languages() -> None:
    """frontend/src/features/site/offeredLanguages.ts is the landing page's claim."""
    names = re.findall(r"'([^']+)'", LANDING.read_text().split("OFFERED_LANGUAGES")[1])
    assert names == [lang.name for lang in languages.offered()]


def test_catalogue_holds_only_voices_of_offered_languages() -> None:
    assert tts.catalogue()
    assert {v.language for v in tts.catalogue()} <= set(languages.OFFERED)
    assert {v.language for v in tts.candidates()} > set(languages.OFFERED), "others measured"
    english = tts.speaking("en-US")
    assert english[0].name == "joe"
    assert tts.default_voice("en-US") == english[0]


@pytest.mark.parametrize(
    ("given", "code"),
    [("en-US", "en-US"), ("en-us", "en-US"), (" EN_us ", "en-US"), ("en", "en-US"), ("", "en-US")],
)
def test_a_language_is_named_in_any_case_or_by_its_language_subtag(given: str, code: str) -> None:
    assert languages.checked(given) == code
    assert languages.checked(None) == languages.DEFAULT


@pytest.mark.parametrize("given", ["xx-YY", "klingon", "es-MX"])
def test_a_language_not_offered_is_refused_naming_the_offered_ones(given: str) -> None:
    offered = ", ".join(f"{lang.name} ({lang.code})" for lang in languages.offered())
    message = f'The language "{given}" is not offered. Offered: {offered}.'
    with pytest.raises(ValueError, match=re.escape(message)):
        languages.checked(given)


@pytest.fixture(scope="module")
def transcriber(tmp_path_factory: pytest.TempPathFactory) -> Transcriber:
    return Transcriber(tmp_path_factory.mktemp("models") / "whisper-base")


@pytest.mark.parametrize("code", languages.OFFERED)
def test_each_offered_language_round_trips_over_the_phone_line(
    code: str, transcriber: Transcriber
) -> None:
    """The benchmark's question sentence, with the language's first voice, mu-law both ways,
    heard back by Whisper told the language: within the threshold."""
    lang = languages.get(code)
    sentence = _results()["sentences"][code][1]
    pcm = tts.synthesize(tts.default_voice(code), sentence, PHONE_RATE)
    heard = ulaw_decode(ulaw_encode(np.concatenate([np.zeros(4000, np.int16), pcm])))
    text = transcriber.transcribe(heard, PHONE_RATE, lang.whisper)
    said = words(sentence)
    assert edits(said, words(text)) / len(said) <= languages.WER_THRESHOLD, text
