"""Our own frames."""

from __future__ import annotations

from dataclasses import dataclass

from pipecat.frames.frames import DataFrame


@dataclass
class FinalReplyFrame(DataFrame):
    """Follows the last reply of the call: hang up once it has been heard."""
