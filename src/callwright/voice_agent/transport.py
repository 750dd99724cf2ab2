"""The carrier's side of the pipeline: Twilio's serializer with marks, and the websocket
transport paced for the carrier's clock."""

from __future__ import annotations

import json
from typing import Any

from pipecat.frames.frames import Frame, InputAudioRawFrame, InputTransportMessageFrame
from pipecat.processors.frame_processor import FrameProcessorSetup
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.fastapi import (
    FastAPIWebsocketOutputTransport,
    FastAPIWebsocketParams,
    FastAPIWebsocketTransport,
)

from callwright.voice_agent.keypad import KeysFrame, play_keys

#: The callee's audio enters the pipeline in frames this long. The carrier sends 20 ms; every
#: frame then crosses each processor of the pipeline (a queue and a task switch each), so
#: two at a time halve that work for at most 20 ms more of turn-taking delay
#: (docs/performance.md, "Concurrent calls").
INPUT_FRAME_MS = 40


class MarkTwilioSerializer(TwilioFrameSerializer):
    """Twilio's serializer plus `mark` echoes (Pipecat's drops them): a mark comes back once the
    audio sent before it has played, which is how we know a goodbye was heard. The callee's
    20 ms media messages are joined into `INPUT_FRAME_MS` frames."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = b""

    async def deserialize(self, data: str | bytes) -> Frame | None:
        # Most messages are media frames (50 a second): parse JSON here only for marks.
        text = data.decode() if isinstance(data, bytes) else data
        if '"mark"' not in text:
            frame = await super().deserialize(data)
            if not isinstance(frame, InputAudioRawFrame):
                return frame
            self._pending += frame.audio
            wanted = frame.sample_rate * 2 * INPUT_FRAME_MS // 1000
            if len(self._pending) < wanted:
                return None
            audio, self._pending = self._pending, b""
            return InputAudioRawFrame(audio=audio, sample_rate=frame.sample_rate, num_channels=1)
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

    async def write_transport_frame(self, frame: Frame) -> None:
        """Keys to press, in turn with the audio before them: their tones go out in-band."""
        if isinstance(frame, KeysFrame):
            await play_keys(self, frame.digits)


class CarrierTransport(FastAPIWebsocketTransport):
    """The websocket transport, with the output paced for the carrier's clock speed."""

    def __init__(
        self, websocket: Any, params: FastAPIWebsocketParams, *, speed: float = 1.0
    ) -> None:
        super().__init__(websocket, params)
        output = _PacedOutput(self, self._client, self._params, name=self._output_name)
        output.speed = max(1.0, speed)
        self._output = output
