"""Live captions under Pipecat's run_test: the agent's words are revealed across each sentence's
audio as it is heard (a sentence queued behind another starts when that one has played), a
barge-in keeps only the words heard, and the callee's transcripts are shown before the turn
closes."""

from __future__ import annotations

import asyncio

from pipecat.frames.frames import (
    EndFrame,
    InterruptionFrame,
    LLMFullResponseEndFrame,
    TranscriptionFrame,
)
from pipecat.tests.utils import SleepFrame, run_test

from callwright.voice_agent.captions import AgentCaptions, CalleeCaptions, word_times
from callwright.voice_agent.frames import SpeechStartFrame


class Sink:
    def __init__(self) -> None:
        self.seen: list[tuple[float, str, str, bool]] = []

    def __call__(self, key: str, text: str, started: float, final: bool) -> None:
        self.seen.append((asyncio.get_running_loop().time(), key, text, final))

    def finals(self) -> list[tuple[str, str]]:
        return [(k, t) for _, k, t, f in self.seen if f]

    def shown(self, key: str) -> list[str]:
        return [t for _, k, t, f in self.seen if k == key and not f]


def test_words_are_spread_over_the_audio_by_their_length() -> None:
    sentence = word_times("Hi there, Sam.", start=10.0, seconds=1.5)
    assert sentence.words == ["Hi", "there,", "Sam."]
    # 3 + 7 + 5 = 15 characters with their spaces: each word starts after those before it.
    assert sentence.times == [10.0, 10.0 + 1.5 * 3 / 15, 10.0 + 1.5 * 10 / 15]


async def test_a_reply_is_revealed_as_heard_and_kept_whole() -> None:
    sink = Sink()
    frames = [
        SpeechStartFrame(text="Hello, this is Sarah.", seconds=0.4),
        SpeechStartFrame(text="Do you have a minute?", seconds=0.4),
        LLMFullResponseEndFrame(),
        SleepFrame(sleep=1.0),
    ]
    await run_test(AgentCaptions(sink), frames_to_send=frames)
    shown = sink.shown("a1")
    assert shown[0] == "Hello,"
    assert shown[-1] == "Hello, this is Sarah. Do you have a minute?"
    assert len(shown) == 9, "one caption per word"
    assert sink.finals() == [("a1", "Hello, this is Sarah. Do you have a minute?")]
    # The second sentence was sent at once, but it is heard after the first one has played.
    times = {text: at for at, _, text, final in sink.seen if not final}
    first, second = times["Hello,"], times["Hello, this is Sarah. Do"]
    assert second - first >= 0.35, second - first


async def test_a_barge_in_keeps_only_what_was_heard() -> None:
    sink = Sink()
    frames = [
        SpeechStartFrame(
            text="I am calling about your appointment tomorrow afternoon.", seconds=2.0
        ),
        SleepFrame(sleep=0.5),
        InterruptionFrame(),
        SleepFrame(sleep=0.2),
        SpeechStartFrame(text="Sorry, go ahead.", seconds=0.2),
        LLMFullResponseEndFrame(),
        SleepFrame(sleep=0.5),
    ]
    await run_test(AgentCaptions(sink), frames_to_send=frames)
    finals = sink.finals()
    assert [k for k, _ in finals] == ["a1", "a2"]
    cut = finals[0][1]
    full = "I am calling about your appointment tomorrow afternoon."
    assert full.startswith(cut), cut
    assert 1 <= len(cut.split()) < len(full.split()), cut
    assert finals[1] == ("a2", "Sorry, go ahead.")


async def test_the_end_of_the_call_keeps_everything_once_played_out() -> None:
    sink = Sink()
    frames = [
        SpeechStartFrame(text="Thank you for your time, goodbye.", seconds=5.0),
        LLMFullResponseEndFrame(),
        EndFrame(),
    ]
    await run_test(
        AgentCaptions(sink, played_out=lambda: True), frames_to_send=frames, send_end_frame=False
    )
    assert sink.finals() == [("a1", "Thank you for your time, goodbye.")]


async def test_a_hang_up_mid_sentence_keeps_what_was_heard() -> None:
    sink = Sink()
    frames = [
        SpeechStartFrame(text="Thank you for your time, goodbye.", seconds=5.0),
        SleepFrame(sleep=0.3),
        EndFrame(),
    ]
    await run_test(AgentCaptions(sink), frames_to_send=frames, send_end_frame=False)
    [(key, text)] = sink.finals()
    assert key == "a1"
    assert text, "the words heard before the hang-up are kept"
    assert text != "Thank you for your time, goodbye.", text


async def test_the_callee_is_shown_as_soon_as_transcribed() -> None:
    sink = Sink()
    captions = CalleeCaptions(sink)
    frames = [
        TranscriptionFrame("Yes, that works.", "callee", "2026-01-01T00:00:00Z"),
        SleepFrame(sleep=0.05),
    ]
    await run_test(captions, frames_to_send=frames)
    assert sink.shown("u1") == ["Yes, that works."]
    assert sink.finals() == []
    captions.close_turn("Yes, that works.")
    captions.close_turn("")  # a turn with no words keeps no line
    assert sink.finals() == [("u1", "Yes, that works.")]
    assert captions.key == "u3"
