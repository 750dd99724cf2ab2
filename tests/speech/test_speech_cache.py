"""A sentence said again comes from the speech cache, which stays within its bound."""

from __future__ import annotations

import numpy as np
import pytest

from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE


def test_a_sentence_said_again_is_not_synthesised_again(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tts.SpeechCache()
    monkeypatch.setattr(tts, "speech_cache", cache)
    voice = tts.find("kal") or tts.default_voice()
    first = tts.synthesize(voice, "Thanks for your time. Goodbye.")
    assert (cache.hits, cache.misses) == (0, 1)
    # The same words, spaced differently: the same key, the same audio, not made again.
    again = tts.synthesize(voice, "  Thanks for your time.\nGoodbye. ")
    assert again is first
    assert (cache.hits, cache.misses) == (1, 1)
    assert tts.cache_key(voice, "Thanks for your time. Goodbye.") in cache
    assert tts.synthesize_cached(voice, "Thanks for your time. Goodbye.") == (first, True)
    assert (cache.hits, cache.misses) == (2, 1)
    # Another rate or another voice is another entry.
    wider, cached = tts.synthesize_cached(voice, "Thanks for your time. Goodbye.", PHONE_RATE * 2)
    assert not cached
    assert abs(len(wider) - 2 * len(first)) <= 2
    assert (cache.hits, cache.misses) == (2, 2)
    # Callers share the cached array: it cannot be changed under another call.
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 1


def test_the_cache_drops_the_least_recently_used_beyond_its_bound() -> None:
    cache = tts.SpeechCache(max_bytes=3000)
    audio = {name: np.zeros(500, dtype=np.int16) for name in "abcd"}  # 1000 bytes each
    for name in "abc":
        cache.put(("v", name, PHONE_RATE), audio[name])
    assert cache.get(("v", "a", PHONE_RATE)) is audio["a"]  # "a" is now the most recent
    cache.put(("v", "d", PHONE_RATE), audio["d"])
    assert ("v", "b", PHONE_RATE) not in cache
    assert all(("v", name, PHONE_RATE) in cache for name in "acd")
    # Audio larger than the whole bound is returned and not kept.
    big = np.zeros(4000, dtype=np.int16)
    assert cache.put(("v", "big", PHONE_RATE), big) is big
    assert ("v", "big", PHONE_RATE) not in cache
    assert all(("v", name, PHONE_RATE) in cache for name in "acd")
