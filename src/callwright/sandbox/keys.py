"""The sandbox callee's ear for keys: DTMF tones in the 8 kHz audio it hears, found with the
Goertzel algorithm (the power at each of DTMF's eight frequencies, per 20 ms frame), as a
phone system's tone detector does. The agent presses keys in-band: its tones reach the callee
in the audio (docs/actions.md, "Keypad")."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from callwright.speech.audio import PCM, PHONE_RATE, tone

ROWS = (697.0, 770.0, 852.0, 941.0)
COLUMNS = (1209.0, 1336.0, 1477.0, 1633.0)
KEYS = ("123A", "456B", "789C", "*0#D")
#: A tone must hold this many 20 ms frames to count (40 ms: DTMF's shortest is 40 ms).
HOLD_FRAMES = 2
#: The two tones must carry this much of the frame's power (speech spreads it wide).
PURITY = 0.6
#: And be about as loud as each other: the weaker at least this share of the stronger (6 dB, a
#: detector's "twist"). A voiced sound can put most of a frame's power on one row frequency
#: with a trace on a column one ("Of course. I'll call you back" in voice joe read as a 3).
TWIST = 0.25
#: A key's tones as the network plays them (`<Play digits>`), the silence after each, and a
#: `w`'s wait (seconds).
TONE_SECONDS, GAP_SECONDS, WAIT_SECONDS = 0.1, 0.1, 0.5
#: A tone must also be loud enough to be one, not the line's noise (mean square of 16-bit samples).
MIN_POWER = 200.0**2


def goertzel(samples: np.ndarray, freqs: tuple[float, ...], rate: int = PHONE_RATE) -> np.ndarray:
    """The power of `samples` at each of `freqs`: what Goertzel's recurrence computes (one DFT
    bin at any frequency), done as one matrix product. Normalised so a sine of mean square P
    shows as about P / 2, whatever the frame's length."""
    n = len(samples)
    phase = 2.0 * np.pi * np.outer(np.asarray(freqs) / rate, np.arange(n))
    bins = np.exp(-1j * phase) @ samples
    return np.asarray(np.abs(bins) ** 2 / (n * n))


def key_in(frame: PCM, rate: int = PHONE_RATE) -> str | None:
    """The key whose two tones `frame` holds, or None."""
    x = frame.astype(np.float64)
    total = float(np.mean(x * x))
    if total < MIN_POWER:
        return None
    power = goertzel(x, ROWS + COLUMNS, rate)
    rows, cols = power[:4], power[4:]
    row, col = int(np.argmax(rows)), int(np.argmax(cols))
    # A sine of mean square P shows as P / 2: two tones that make the whole frame give total/2.
    if 2 * (rows[row] + cols[col]) < PURITY * total:
        return None
    if min(rows[row], cols[col]) < TWIST * max(rows[row], cols[col]):
        return None
    return KEYS[row][col]


@dataclass
class KeyDetector:
    """Keys heard in a stream of frames: a key counts once when its tone has held for
    `HOLD_FRAMES`, and again only after a frame without it."""

    _candidate: str | None = None
    _held: int = 0
    _reported: bool = False
    heard: list[str] = field(default_factory=list)

    def feed(self, frame: PCM) -> str | None:
        """Feed one frame; the key newly pressed, if any."""
        key = key_in(frame)
        if key != self._candidate:
            self._candidate, self._held, self._reported = key, 0, False
        if key is None:
            return None
        self._held += 1
        if self._held >= HOLD_FRAMES and not self._reported:
            self._reported = True
            self.heard.append(key)
            return key
        return None


def tones(digits: str) -> PCM:
    """`digits` as DTMF: each key's two tones, then a gap; a `w` waits half a second."""
    parts: list[PCM] = []
    for key in digits:
        if key == "w":
            parts.append(np.zeros(round(WAIT_SECONDS * PHONE_RATE), np.int16))
            continue
        row = next(i for i, keys in enumerate(KEYS) if key in keys)
        low = tone(ROWS[row], TONE_SECONDS, amplitude=0.25)
        high = tone(COLUMNS[KEYS[row].index(key)], TONE_SECONDS, amplitude=0.25)
        parts += [low + high, np.zeros(round(GAP_SECONDS * PHONE_RATE), np.int16)]
    return np.concatenate(parts) if parts else np.zeros(0, np.int16)
