"""The carrier's side of the pipeline: Twilio's serializer with marks, and the websocket
transport paced for the carrier's clock."""

from __future__ import annotations

import json
from typing import Any

from pipecat.frames.frames import Frame, InputTransportMessageFrame
from pipecat.processors.frame_processor import FrameProcessorSetup
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.fastapi import (
    FastAPIWebsocketOutputTransport,
    FastAPIWebsocketParams,
    FastAPIWebsocketTransport,
)


class MarkTwilioSerializer(TwilioFrameSerializer):
    """Twilio's serializer plus `mark` echoes (Pipecat's drops them): a mark comes back once the
    audio sent before it has played, which is how we know a goodbye was heard."""

    async def deserialize(self, data: str | bytes) -> Frame | None:
        # Most messages are media frames (50 a second): parse JSON here only for marks.
        text = data.decode() if isinstance(data, bytes) else data
        if '"mark"' not in text:
            return await super().deserialize(data)
        try:
            message = json.loads(text)
        except ValueError:
            return None
        if message.get("event") == "mark":
            return InputTransportMessageFrame(message=message)
        return await super().deserialize(data)


class _PacedOutput(FastAPIWebsocketOutputTransport):
    """Pipecat sends audio at twice real time (the carrier buffers and plays it at 1x). When the
    sandbox runs its call clock faster, the sending pace must speed up with it."""

    speed: float = 1.0

    async def setup(self, setup: FrameProcessorSetup) -> None:  # type: ignore[override]
        await super().setup(setup)
        self._send_interval = self._send_interval / self.speed  # type: ignore[assignment]  # Pipecat annotates it int, stores seconds


class CarrierTransport(FastAPIWebsocketTransport):
    """The websocket transport, with the output paced for the carrier's clock speed."""

    def __init__(
        self, websocket: Any, params: FastAPIWebsocketParams, *, speed: float = 1.0
    ) -> None:
        super().__init__(websocket, params)
        output = _PacedOutput(self, self._client, self._params, name=self._output_name)
        output.speed = max(1.0, speed)
        self._output = output
