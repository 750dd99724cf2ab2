from __future__ import annotations

import warnings

import numpy as np
import pytest

from callwright.speech import audio


def test_ulaw_is_bit_exact_with_the_reference_codec() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        audioop = pytest.importorskip("audioop")
    every = np.arange(-32768, 32768, dtype=np.int32).astype(np.int16)
    assert audio.ulaw_encode(every) == audioop.lin2ulaw(every.tobytes(), 2)
    codes = bytes(range(256))
    assert np.array_equal(
        audio.ulaw_decode(codes), np.frombuffer(audioop.ulaw2lin(codes, 2), dtype=np.int16)
    )


def test_ulaw_round_trip_keeps_the_signal() -> None:
    wave = audio.tone(440, 0.5)
    back = audio.ulaw_decode(audio.ulaw_encode(wave))
    assert len(back) == len(wave)
    assert np.corrcoef(wave, back)[0, 1] > 0.999


def test_stereo_mp3_is_about_32_kbps() -> None:
    left = audio.tone(300, 10.0)
    right = audio.tone(600, 8.0)
    mp3 = audio.mp3_bytes(audio.stereo(left, right), audio.PHONE_RATE, 2, kbps=32)
    assert mp3[:3] == b"ID3" or mp3[0] == 0xFF
    assert 30_000 < len(mp3) < 50_000  # 10 s at 32 kb/s is 40 KB


def test_resample_keeps_duration() -> None:
    pcm = audio.tone(200, 1.0, rate=22050)
    assert abs(len(audio.resample(pcm, 22050, 8000)) - 8000) <= 2
