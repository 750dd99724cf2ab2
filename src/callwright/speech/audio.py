"""Telephone audio: G.711 mu-law, resampling, WAV and MP3."""

from __future__ import annotations

import io
import wave

import lameenc
import numpy as np
import numpy.typing as npt
import soundfile
import soxr

PCM = npt.NDArray[np.int16]
PHONE_RATE = 8000
FRAME_SAMPLES = 160  # 20 ms at 8 kHz

_BIAS = 0x84


def ulaw_encode(pcm: PCM) -> bytes:
    """16-bit linear PCM to G.711 mu-law, bit-exact with the reference (Sun) encoder that
    audioop.lin2ulaw uses: 14-bit input, bias 33, eight segments."""
    x14 = pcm.astype(np.int32) >> 2
    negative = x14 < 0
    magnitude = np.minimum(np.where(negative, -x14, x14), 8159) + 33
    magnitude = np.minimum(magnitude, 8191)
    segment = np.clip(np.floor(np.log2(magnitude)).astype(np.int32) - 5, 0, 7)
    value = (segment << 4) | ((magnitude >> (segment + 1)) & 0x0F)
    mask = np.where(negative, 0x7F, 0xFF)
    encoded: bytes = (value ^ mask).astype(np.uint8).tobytes()
    return encoded


def ulaw_decode(data: bytes) -> PCM:
    u = ~np.frombuffer(data, dtype=np.uint8).astype(np.int32) & 0xFF
    sign = u & 0x80
    exponent = (u >> 4) & 0x07
    mantissa = u & 0x0F
    magnitude = (((mantissa << 3) + _BIAS) << exponent) - _BIAS
    return np.where(sign != 0, -magnitude, magnitude).astype(np.int16)


def resample(pcm: PCM, from_rate: int, to_rate: int) -> PCM:
    if from_rate == to_rate or len(pcm) == 0:
        return pcm
    out = soxr.resample(pcm.astype(np.float32) / 32768.0, from_rate, to_rate)
    return np.clip(np.asarray(out) * 32768.0, -32768, 32767).astype(np.int16)


def trim_end(pcm: PCM, keep: int, level: int = 200) -> PCM:
    """`pcm` with at most `keep` samples of quiet (under `level`) after its last sound."""
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > level)
    if not len(loud):
        return pcm
    return pcm[: min(len(pcm), int(loud[-1]) + 1 + keep)]


def rms(pcm: PCM) -> float:
    if len(pcm) == 0:
        return 0.0
    return float(np.sqrt(np.mean(pcm.astype(np.float64) ** 2)))


def read_wav(data: bytes) -> tuple[PCM, int]:
    with wave.open(io.BytesIO(data)) as w:
        rate = w.getframerate()
        channels = w.getnchannels()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    if channels > 1:
        pcm = pcm.reshape(-1, channels).mean(axis=1).astype(np.int16)
    return pcm, rate


def wav_bytes(pcm: PCM, rate: int, channels: int) -> bytes:
    """16-bit PCM WAV of `pcm` (interleaved when `channels` > 1)."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.astype(np.int16).tobytes())
    return out.getvalue()


def mp3_to_wav(data: bytes) -> bytes:
    """An MP3 (a call's recording) as 16-bit PCM WAV, same rate and channels."""
    pcm, rate = soundfile.read(io.BytesIO(data), dtype="int16", always_2d=True)
    return wav_bytes(np.ascontiguousarray(pcm).reshape(-1), int(rate), int(pcm.shape[1]))


def phone_audio(data: bytes) -> PCM:
    """A WAV or MP3 file (any rate, any channels) as 8 kHz mono: what a phone line plays of it.
    ValueError when it is neither."""
    try:
        pcm, rate = soundfile.read(io.BytesIO(data), dtype="int16", always_2d=True)
    except (soundfile.SoundFileError, RuntimeError) as exc:
        raise ValueError(f"not a WAV or MP3 file: {exc}") from exc
    mono = pcm.astype(np.int32).mean(axis=1).astype(np.int16)
    return resample(mono, int(rate), PHONE_RATE)


def stereo(left: PCM, right: PCM) -> PCM:
    """Interleave two mono tracks, padding the shorter with silence."""
    n = max(len(left), len(right))
    out = np.zeros((n, 2), dtype=np.int16)
    out[: len(left), 0] = left
    out[: len(right), 1] = right
    return out.reshape(-1)


def mp3_bytes(interleaved: PCM, rate: int, channels: int, kbps: int = 32) -> bytes:
    """MP3 at `kbps` (32 kb/s stereo keeps a call minute near 240 KB)."""
    encoder = lameenc.Encoder()
    encoder.set_bit_rate(kbps)
    encoder.set_in_sample_rate(rate)
    encoder.set_channels(channels)
    encoder.set_quality(5)
    return bytes(encoder.encode(interleaved.astype(np.int16).tobytes()) + encoder.flush())


def tone(freq: float, seconds: float, rate: int = PHONE_RATE, amplitude: float = 0.3) -> PCM:
    t = np.arange(int(seconds * rate)) / rate
    return (np.sin(2 * np.pi * freq * t) * amplitude * 32767).astype(np.int16)
