"""The flow brain's turns around a cut reply (the runner's choices: test_flow_runner.py)."""

from __future__ import annotations

from pipecat.tests.utils import run_test

from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.flow_brain import FlowBrain
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.policy import OPT_OUT_REPLY, OfflinePolicy
from tests.voice_agent.test_brain import PROMPT, _texts, _turn
from tests.voice_agent.test_call_settings import PLAN, RESPONSE
from tests.voice_agent.test_flow_runner import runner


def _brain(plan: CallPlan = PLAN) -> FlowBrain:
    """The appointment flow's brain, its last words never played to their end (each turn
    after them is heard)."""
    return FlowBrain(
        runner(),
        plan,
        OfflinePolicy(PROMPT),
        report_step=lambda _step: None,
        run_tool=lambda *_: None,  # type: ignore[arg-type]
        goodbye_heard=lambda: False,
    )


async def _says(brain: FlowBrain, heard: str) -> list[str]:
    down, _ = await run_test(
        brain, frames_to_send=[_turn(heard)], expected_down_frames=[*RESPONSE, FinalReplyFrame]
    )
    return _texts(down)


async def test_an_opt_out_s_reply_cut_before_it_was_heard_is_said_again() -> None:
    """ "Bye." over the acknowledgement: it again (they must hear they will not be called),
    not the plain goodbye a talked-over ending gets."""
    brain = _brain()
    assert await _says(brain, "Please stop calling me and take me off your list.") == [
        OPT_OUT_REPLY
    ]
    brain.interrupted("I understand, and I'm sorry for the trouble.")
    assert await _says(brain, "Bye.") == [OPT_OUT_REPLY]
    heard = _brain()
    await _says(heard, "Please stop calling me and take me off your list.")
    heard.interrupted(OPT_OUT_REPLY)  # cut at its very end: heard whole
    assert await _says(heard, "Bye.") == ["Goodbye."]
