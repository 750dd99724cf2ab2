"""The keypad, both ways (docs/actions.md, "Keypad").

The agent presses keys in-band: DTMF tones in the audio it sends (Pipecat's tone recordings),
after whatever it was saying, through the carrier's media stream; a `w` waits half a second.
Keys come from the LLM's `press_digits` function, the offline brain's menu choices, and the
call's `precall_dtmf_sequence` (sent once the call is answered, before the agent speaks). Each
press is an action line once its tones have been written to the carrier.

The callee's keys arrive as Media Streams `dtmf` events (Pipecat's Twilio serializer makes
them `InputDTMFFrame`s): each is an action line, and a user message "[The caller pressed 1]"
in the conversation's context that both brains answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.audio.dtmf.types import KeypadEntry
from pipecat.audio.dtmf.utils import load_dtmf_audio
from pipecat.frames.frames import (
    DataFrame,
    Frame,
    FunctionCallResultProperties,
    InputDTMFFrame,
    LLMMessagesAppendFrame,
    OutputAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.openai.llm import OpenAILLMService
from pipecat.transports.base_output import BaseOutputTransport

from callwright.voice_agent.contract import KEYS_PATTERN, ActionReport

#: How long a `w` waits between keys (Bland's and Twilio's half second).
PAUSE_SECONDS = 0.5
PRESS_DIGITS = FunctionSchema(
    name="press_digits",
    description=(
        "Press keys on the phone's keypad (DTMF tones), to choose an option in a phone menu or "
        "to enter a number the other side asks for. Say nothing else in a phone menu."
    ),
    properties={
        "digits": {
            "type": "string",
            "description": 'The keys to press, from 0-9, * and #, e.g. "1" or "4471#"; a "w" '
            "waits half a second.",
        }
    },
    required=["digits"],
)
#: Added to the LLM's system message: how keys work on this call.
KEYPAD_STYLE = (
    " If you reach an automated phone menu, choose by calling the press_digits function with "
    "the option's key, without speaking to the menu. A user message like "
    '"[The caller pressed 1]" means the other side pressed that key on their keypad.'
)
_HEARD = re.compile(r"^\[The caller pressed ([0-9*#])\]$")


@dataclass
class KeysFrame(DataFrame):
    """Keys for the agent to press (`0-9*#`, `w` a half-second pause), in order with its audio:
    the output transport plays them after what was said before them."""

    digits: str
    #: Who asked: the brain (an LLM's press_digits, the offline brain's menu choice), or the
    #: call's precall_dtmf_sequence.
    source: Literal["agent", "precall"] = "agent"


def valid_keys(digits: str) -> bool:
    return bool(KEYS_PATTERN.fullmatch(digits))


def pressed_summary(digits: str) -> str:
    """The action line for keys pressed: "Pressed 1 2 #" (a pause shown as "(pause)")."""
    return "Pressed " + " ".join("(pause)" if key == "w" else key for key in digits)


def heard_message(key: str) -> str:
    """What the brain is told when the callee presses `key`."""
    return f"[The caller pressed {key}]"


def key_in_message(text: str) -> str | None:
    """The key a `heard_message` tells of (None for anything else)."""
    match = _HEARD.match(text.strip())
    return match.group(1) if match else None


async def play_keys(output: BaseOutputTransport, digits: str) -> None:
    """Write the keys' tones (and pauses' silence) to the carrier, and hand the same audio on
    downstream, so the recording holds what the callee heard."""
    rate = output.sample_rate
    for key in digits:
        if key == "w":
            audio = b"\x00\x00" * int(rate * PAUSE_SECONDS)
        else:
            audio = await load_dtmf_audio(KeypadEntry(key), sample_rate=rate)
        frame = OutputAudioRawFrame(audio=audio, sample_rate=rate, num_channels=1)
        if await output.write_audio_frame(frame):
            await output.push_frame(frame)


class KeysSent(FrameProcessor):
    """After the output transport: a `KeysFrame` reaching here has been played to the carrier,
    so its action line is reported."""

    def __init__(self, report: Callable[[ActionReport], None]) -> None:
        super().__init__()
        self._report = report

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, KeysFrame):
            arguments: dict[str, Any] = {"digits": frame.digits}
            if frame.source == "precall":
                arguments["precall"] = True
            self._report(
                ActionReport(
                    kind="keypad",
                    name="press_digits",
                    status="succeeded",
                    summary=pressed_summary(frame.digits),
                    arguments=arguments,
                )
            )
        await self.push_frame(frame, direction)


class KeysHeard(FrameProcessor):
    """Before the callee's turns: each key the callee presses becomes its action line, and a
    user message in the context that the brain answers at once."""

    def __init__(self, report: Callable[[ActionReport], None]) -> None:
        super().__init__()
        self._report = report

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, InputDTMFFrame):
            key = frame.button.value
            self._report(
                ActionReport(
                    kind="keypad",
                    name="caller_pressed",
                    status="succeeded",
                    summary=f"The callee pressed {key}",
                    arguments={"digit": key},
                )
            )
            message: Any = {"role": "user", "content": heard_message(key)}
            await self.push_frame(LLMMessagesAppendFrame(messages=[message], run_llm=True))
            return
        await self.push_frame(frame, direction)


def register_press_digits(llm: OpenAILLMService) -> None:
    """The LLM's `press_digits` function: the keys go out after the reply's words; the model
    is not run again (the other side's answer, a menu or words, starts its next turn)."""

    async def press_digits(params: Any) -> None:
        digits = "".join(str(params.arguments.get("digits", "")).split()).replace("-", "")
        if not valid_keys(digits):
            await params.result_callback(
                {"error": "digits must be 1 to 64 of 0-9, *, # and w (a half-second pause)"}
            )
            return
        await llm.push_frame(KeysFrame(digits))
        await params.result_callback(
            {"pressed": digits}, properties=FunctionCallResultProperties(run_llm=False)
        )

    llm.register_function("press_digits", press_digits)
