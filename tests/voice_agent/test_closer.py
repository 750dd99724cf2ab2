"""CallCloser under Pipecat's run_test: after the final reply it puts a Twilio mark behind the
last audio and hangs up only when the carrier echoes that mark (or after the fallback)."""

from __future__ import annotations

from collections.abc import Sequence

from pipecat.frames.frames import (
    BotStoppedSpeakingFrame,
    Frame,
    InputTransportMessageFrame,
    InterruptionFrame,
    OutputTransportMessageFrame,
    TextFrame,
    TTSAudioRawFrame,
)
from pipecat.tests.utils import SleepFrame, run_test

from callwright.voice_agent.closer import CallCloser
from callwright.voice_agent.frames import FinalReplyFrame

SID = "MZ0123"
PAUSE = SleepFrame(sleep=0.05)  # keeps system frames behind the data frames sent before them


class Phone:
    def __init__(self) -> None:
        self.hang_ups = 0
        self.reopened = 0

    async def hang_up(self) -> None:
        self.hang_ups += 1

    def reopen(self) -> None:
        self.reopened += 1


def _closer(phone: Phone, fallback: float = 15.0) -> CallCloser:
    return CallCloser(
        phone.hang_up, stream_sid=SID, on_reopened=phone.reopen, fallback_seconds=fallback
    )


def _echo(name: str) -> InputTransportMessageFrame:
    """The carrier's mark echo: the audio sent before the mark has played."""
    return InputTransportMessageFrame(
        message={"event": "mark", "streamSid": SID, "mark": {"name": name}}
    )


def _marks(frames: Sequence[Frame]) -> list[str]:
    return [
        f.message["mark"]["name"]
        for f in frames
        if isinstance(f, OutputTransportMessageFrame) and f.message.get("event") == "mark"
    ]


def _audio() -> TTSAudioRawFrame:
    return TTSAudioRawFrame(audio=b"\x00\x00" * 160, sample_rate=8000, num_channels=1)


async def test_the_final_reply_sends_a_mark_and_its_echo_hangs_up() -> None:
    phone = Phone()
    closer = _closer(phone)
    down, _ = await run_test(
        closer,
        frames_to_send=[TextFrame("goodbye"), FinalReplyFrame(), PAUSE, _echo("goodbye-1"), PAUSE],
        expected_down_frames=[TextFrame, OutputTransportMessageFrame],
    )
    assert _marks(down) == ["goodbye-1"]
    assert down[1].message["streamSid"] == SID  # type: ignore[attr-defined]
    assert phone.hang_ups == 1, "the echo is consumed and ends the call, once"
    assert closer.closing


async def test_audio_after_the_mark_needs_a_new_mark() -> None:
    phone = Phone()
    down, _ = await run_test(
        _closer(phone),
        frames_to_send=[
            FinalReplyFrame(),
            _audio(),  # the goodbye's audio was still coming
            PAUSE,
            _echo("goodbye-1"),  # played, but the audio after it has not
            PAUSE,
            BotStoppedSpeakingFrame(),  # now everything has been sent: a new mark
            PAUSE,
        ],
    )
    assert _marks(down) == ["goodbye-1", "goodbye-2"]
    assert phone.hang_ups == 0


async def test_the_new_mark_s_echo_hangs_up() -> None:
    phone = Phone()
    await run_test(
        _closer(phone),
        frames_to_send=[
            FinalReplyFrame(),
            _audio(),
            PAUSE,
            BotStoppedSpeakingFrame(),
            PAUSE,
            _echo("goodbye-2"),
            PAUSE,
        ],
    )
    assert phone.hang_ups == 1


async def test_talking_over_the_goodbye_reopens_the_call() -> None:
    phone = Phone()
    closer = _closer(phone)
    down, _ = await run_test(
        closer,
        frames_to_send=[
            FinalReplyFrame(),
            PAUSE,
            InterruptionFrame(),
            PAUSE,
            _echo("goodbye-1"),  # the mark's echo no longer ends the call
            PAUSE,
        ],
    )
    assert phone.reopened == 1
    assert phone.hang_ups == 0
    assert not closer.closing
    assert any(isinstance(f, InterruptionFrame) for f in down), "the interruption goes on"


async def test_a_mark_echo_outside_closing_is_swallowed_and_ignored() -> None:
    phone = Phone()
    await run_test(
        _closer(phone),
        frames_to_send=[_echo("goodbye-1"), PAUSE, BotStoppedSpeakingFrame(), PAUSE],
        expected_down_frames=[BotStoppedSpeakingFrame],
    )
    assert phone.hang_ups == 0


async def test_without_an_echo_the_fallback_hangs_up() -> None:
    phone = Phone()
    await run_test(
        _closer(phone, fallback=0.05),
        frames_to_send=[FinalReplyFrame(), SleepFrame(sleep=0.3)],
    )
    assert phone.hang_ups == 1
