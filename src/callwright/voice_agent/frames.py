"""Our own frames."""

from __future__ import annotations

from dataclasses import dataclass

from pipecat.frames.frames import DataFrame


@dataclass
class FinalReplyFrame(DataFrame):
    """Follows the last reply of the call: hang up once it has been heard."""


@dataclass
class SpeechStartFrame(DataFrame):
    """Goes just ahead of a sentence's audio: the sentence, and its audio's length at 1x."""

    text: str
    seconds: float
