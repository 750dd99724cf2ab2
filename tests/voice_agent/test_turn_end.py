"""The callee's turn ends when it is over: at once after a finished sentence, later after an
unfinished one, never while the callee goes on (voice_agent/turn_end.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import numpy as np
import pytest
from pipecat.frames.frames import (
    InputAudioRawFrame,
    TranscriptionFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.utils.asyncio.task_manager import TaskManager
from pipecat.utils.base_object import BaseObject

from callwright.speech import tts
from callwright.speech.audio import tone, ulaw_decode, ulaw_encode
from callwright.voice_agent.turn_end import (
    SmartTurnModel,
    TurnEndParams,
    TurnEndStrategy,
    pause_after,
    smart_turn,
    words_complete,
)

RATE = 8000
#: The real pauses, scaled down so the tests run fast.
PARAMS = TurnEndParams(
    complete_pause=0.0,
    unsure_pause=0.1,
    doubt_pause=0.2,
    incomplete_pause=0.4,
    resume_wait=0.2,
    transcript_wait=0.6,
)


@pytest.mark.parametrize(
    ("text", "complete"),
    [
        ("No thanks, I am not interested.", True),
        ("Who is calling?", True),
        ("What is it about?", True),  # a question, whatever its last word
        ("Go on.", True),
        ("My email is...", False),
        ("Well, the thing is,", False),
        ("I would like that and my number is.", False),
        ("I am busy right now, but", False),
        ("Let me check with my", False),
        ("Hello", None),  # no end mark: the words cannot tell
        ("5551234", None),
        ("", None),
    ],
)
def test_words_tell_a_finished_turn(text: str, complete: bool | None) -> None:
    assert words_complete(text) is complete


def test_the_pause_follows_the_verdict() -> None:
    p = TurnEndParams()
    assert pause_after(True, 0.9, p) == p.complete_pause
    assert pause_after(True, None, p) == p.complete_pause
    assert pause_after(True, 0.2, p) == p.unsure_pause
    assert pause_after(True, 0.01, p) == p.doubt_pause  # the model alone holds it less long
    assert pause_after(False, 0.99, p) == p.incomplete_pause  # unfinished words always hold
    assert pause_after(None, 0.01, p) == p.incomplete_pause
    assert pause_after(None, 0.9, p) == p.complete_pause
    assert p.complete_pause < p.unsure_pause < p.doubt_pause < p.incomplete_pause


def _phone(text: str) -> np.ndarray:
    voice = tts.find("kal")
    assert voice is not None
    return ulaw_decode(ulaw_encode(tts.synthesize(voice, text)))


def test_the_model_hears_an_unfinished_sentence() -> None:
    """Pipecat's smart-turn v3, shipped in the package, on the sandbox callee's voice through
    the phone path: a sentence that trails off on "but" against a finished one."""
    model = smart_turn(RATE)
    silence = np.zeros(RATE // 4, np.int16)
    unfinished = model.probability(np.concatenate([_phone("I am busy right now, but"), silence]))
    finished = model.probability(
        np.concatenate([_phone("No thanks, I am not interested."), silence])
    )
    assert unfinished < 0.05 < 0.5 < finished
    assert model.runs >= 2
    assert model.cpu_seconds > 0


class FixedModel:
    def __init__(self, probability: float) -> None:
        self.value = probability
        self.heard: list[int] = []

    def probability(self, pcm: np.ndarray) -> float:
        self.heard.append(len(pcm))
        return self.value


class Turn:
    """A TurnEndStrategy driven by hand: frames in, the moments it ended the turn out."""

    def __init__(self, probability: float = 0.9) -> None:
        self.model = FixedModel(probability)
        self.strategy = TurnEndStrategy(RATE, PARAMS, model=cast(SmartTurnModel, self.model))
        self.stops: list[float] = []
        self.started = time.monotonic()

        async def stopped(_strategy: Any, _params: Any) -> None:
            self.stops.append(time.monotonic() - self.started)
            await self.strategy.handle_user_turn_stopped()

        self.strategy.add_event_handler("on_user_turn_stopped", stopped)

    async def setup(self) -> None:
        # The strategy needs only a task manager (a pipeline's setup carries one).
        await BaseObject.setup(self.strategy, TaskManager(loop=asyncio.get_running_loop()))
        await self.strategy.handle_user_turn_started()

    async def audio(self, seconds: float, loud: bool) -> None:
        n = round(seconds * 50)
        pcm = tone(300, seconds, RATE, amplitude=0.3) if loud else np.zeros(n * 160, np.int16)
        for i in range(n):
            chunk = pcm[i * 160 : (i + 1) * 160].tobytes()
            await self.strategy.process_frame(InputAudioRawFrame(chunk, RATE, 1))
        await asyncio.sleep(0)

    async def send(self, frame: Any) -> None:
        await self.strategy.process_frame(frame)

    async def said(self, text: str) -> None:
        await self.send(VADUserStartedSpeakingFrame())
        await self.audio(0.5, loud=True)
        await self.send(VADUserStoppedSpeakingFrame())
        self.stopped_at = time.monotonic() - self.started
        await self.send(TranscriptionFrame(text, "callee", "now"))


async def test_a_finished_sentence_ends_the_turn_at_once() -> None:
    turn = Turn(probability=0.9)
    await turn.setup()
    await turn.said("No thanks, I am not interested.")
    await asyncio.sleep(0.15)
    assert len(turn.stops) == 1
    assert turn.stops[0] - turn.stopped_at < 0.1
    assert turn.model.heard
    assert turn.model.heard[0] >= 0.5 * RATE


async def test_an_unfinished_sentence_holds_the_turn_then_ends_it() -> None:
    turn = Turn(probability=0.9)
    await turn.setup()
    await turn.said("My email is...")
    await asyncio.sleep(PARAMS.incomplete_pause - 0.1)
    assert turn.stops == []
    await asyncio.sleep(0.2)
    assert len(turn.stops) == 1  # the callee said no more: the turn ends anyway


async def test_the_callee_going_on_keeps_one_turn() -> None:
    turn = Turn(probability=0.9)
    await turn.setup()
    await turn.said("Well, the thing is,")
    await asyncio.sleep(0.2)
    await turn.said("who is calling?")
    await asyncio.sleep(0.15)
    assert len(turn.stops) == 1
    assert turn.stops[0] - turn.stopped_at < 0.1
    assert turn.strategy.verdicts[-1][1] is True


async def test_the_model_alone_holds_the_turn_a_while() -> None:
    turn = Turn(probability=0.01)
    await turn.setup()
    await turn.said("Let me think.")
    await asyncio.sleep(PARAMS.doubt_pause - 0.1)
    assert turn.stops == []
    await asyncio.sleep(0.2)
    assert len(turn.stops) == 1


async def test_sound_after_the_vad_stop_holds_the_end() -> None:
    """Silero confirms speech that resumes after a pause late: the line's energy holds the
    end until the VAD can say (here it never does, so the turn ends after the sound)."""
    turn = Turn(probability=0.9)
    await turn.setup()
    await turn.send(VADUserStartedSpeakingFrame())
    await turn.audio(0.5, loud=True)
    await turn.send(VADUserStoppedSpeakingFrame())
    await turn.audio(0.1, loud=True)  # arrives before the transcript, after the VAD stop
    await turn.send(TranscriptionFrame("Yes.", "callee", "now"))
    await asyncio.sleep(PARAMS.resume_wait - 0.1)
    assert turn.stops == []
    await asyncio.sleep(0.2)
    assert len(turn.stops) == 1


async def test_no_end_without_words() -> None:
    turn = Turn(probability=0.9)
    await turn.setup()
    await turn.send(VADUserStartedSpeakingFrame())
    await turn.audio(0.3, loud=True)
    await turn.send(VADUserStoppedSpeakingFrame())
    await asyncio.sleep(PARAMS.transcript_wait + 0.1)
    assert turn.stops == []  # nothing to answer (Pipecat's watchdog closes such a turn)
