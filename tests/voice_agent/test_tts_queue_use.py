"""The agent's speech goes through the process's synthesis queue: each reply's first sentence
is marked to go first (both its parts when its opening clause is said apart), the sentences
after it are not, and a cached sentence does not queue."""

from __future__ import annotations

from typing import Any

import pytest
from pipecat.frames.frames import LLMFullResponseEndFrame, LLMFullResponseStartFrame, LLMTextFrame
from pipecat.pipeline.worker import PipelineParams
from pipecat.tests.utils import run_test

from callwright.speech import tts, tts_queue
from callwright.speech.audio import trim_end
from callwright.voice_agent.frames import SpeechStartFrame
from callwright.voice_agent.services import CLAUSE_PAUSE_SECS, LocalTTSService


class Recording(tts_queue.SynthesisQueue):
    def __init__(self) -> None:
        super().__init__(workers=1)
        self.queued: list[tuple[str, bool]] = []

    def submit(self, fn: Any, *args: Any, first: bool = False) -> Any:
        self.queued.append((args[1], first))
        return super().submit(fn, *args, first=first)


def _reply(text: str) -> list[Any]:
    return [LLMFullResponseStartFrame(), LLMTextFrame(text), LLMFullResponseEndFrame()]


async def test_each_replys_first_sentence_goes_first_and_cached_ones_do_not_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queue = Recording()
    monkeypatch.setattr(tts_queue, "synthesis_queue", lambda: queue)
    voice = tts.find("sarah") or tts.default_voice()  # flite: quick to synthesise
    said_before = "Your queue test visit is on Monday."
    tts.synthesize(voice, said_before)  # now in the speech cache
    await run_test(
        LocalTTSService(voice),
        frames_to_send=[
            *_reply("Hello from the queue test. It is about Tuesday."),
            *_reply(f"{said_before} Does Tuesday still work?"),
        ],
        pipeline_params=PipelineParams(audio_out_sample_rate=8000),
    )
    assert queue.queued == [
        ("Hello from the queue test.", True),
        ("It is about Tuesday.", False),
        ("Does Tuesday still work?", False),
    ]


async def test_a_clause_said_apart_and_the_rest_of_its_sentence_both_go_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queue = Recording()
    monkeypatch.setattr(tts_queue, "synthesis_queue", lambda: queue)
    voice = tts.find("sarah") or tts.default_voice()
    down, _ = await run_test(
        LocalTTSService(voice),
        frames_to_send=_reply("Sure, the clause test is on Friday. See you then."),
        pipeline_params=PipelineParams(audio_out_sample_rate=8000),
    )
    assert queue.queued == [
        ("Sure,", True),
        ("the clause test is on Friday.", True),  # due as soon as "Sure," has played
        ("See you then.", False),
    ]
    # The clause keeps a comma's pause, not the voice's sentence-end quiet.
    starts = [f for f in down if isinstance(f, SpeechStartFrame)]
    alone = tts.synthesize(voice, "Sure,")
    assert starts[0].text == "Sure,"
    assert starts[0].seconds <= len(trim_end(alone, 0)) / 8000 + CLAUSE_PAUSE_SECS + 0.001
    assert starts[0].seconds < len(alone) / 8000
