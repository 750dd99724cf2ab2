"""The prompt agent's derived flow says what the offline policy says: both are driven side by
side with the same callee lines, and their lines compared."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from callwright.voice_agent.derived_flow import MAX_QUESTIONS, TooManyQuestions, derived_flow
from callwright.voice_agent.flow_graph import (
    ActionNode,
    AskNode,
    FlowState,
    GlobalNode,
    TextTurnIn,
    TransferAction,
    VoicemailAction,
    problems,
)
from callwright.voice_agent.flow_runner import text_turn
from callwright.voice_agent.policy import OfflinePolicy

#: The demo prompt (`callwright call`'s default, src/callwright/cli.py).
DEMO = (
    "You are Sarah from Bright Dental. You are calling to remind the customer about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)
SURVEY = (
    "You are Max from Northwind Energy. You are calling to run a short survey about the "
    "customer's last bill. Ask them if the bill was clear. Ask them whether they would like "
    "paperless billing. Ask them if they would recommend us to a friend."
)
OFFER = "You are Jo from Acme Gyms, calling {{name}} to offer a free week of classes."
DISCLOSURE = "I'm an AI assistant, and this call is recorded."

AGENTS: dict[str, dict[str, Any]] = {
    "demo": {"prompt": DEMO, "disclosure": DISCLOSURE},
    "survey": {"prompt": SURVEY, "disclosure": DISCLOSURE},
    "first sentence": {
        "prompt": OFFER,
        "first_sentence": "Hi {{name}}, it's Jo from Acme Gyms.",
        "disclosure": DISCLOSURE,
        "can_transfer": True,
    },
}


async def side_by_side(agent: dict[str, Any], said: list[str]) -> list[tuple[str, str]]:
    """What the policy and the derived flow say, turn by turn, to the same callee lines (the
    opening first), until either ends."""
    policy = OfflinePolicy(**agent)
    graph = derived_flow(OfflinePolicy(**agent))
    variables = {"name": "Dana"}

    def filled(text: str) -> str:
        return text.replace("{{name}}", "Dana")

    out = await text_turn(graph, TextTurnIn(variables=variables), today=date(2026, 11, 27))
    pairs = [(filled(policy.opening().text), " ".join(out.lines))]
    state: FlowState = out.state
    for line in said:
        reply = policy.respond(line)
        out = await text_turn(graph, TextTurnIn(state=state, said=line), today=date(2026, 11, 27))
        state = out.state
        pairs.append((filled(reply.text), " ".join(out.lines)))
        assert reply.end_call == out.ended, (line, reply, out)
        if reply.end_call:
            break
    return pairs


def assert_same(pairs: list[tuple[str, str]]) -> None:
    for policy_says, flow_says in pairs:
        assert flow_says == policy_says


@pytest.mark.parametrize("name", list(AGENTS))
def test_the_derived_flow_can_be_published(name: str) -> None:
    graph = derived_flow(OfflinePolicy(**AGENTS[name]))
    assert problems(graph) == []
    # Laid out: no two nodes drawn on the same spot.
    spots = [(n.position.x, n.position.y) for n in graph.nodes]
    assert len(set(spots)) == len(spots)


async def test_demo_happy_path_and_decline() -> None:
    agent = AGENTS["demo"]
    happy = await side_by_side(agent, ["Yes, that works."])
    assert_same(happy)
    assert happy[0][1].startswith("Hi, this is Sarah from Bright Dental. " + DISCLOSURE)
    assert happy[-1][1] == "Wonderful, thank you. You're all set. Goodbye."
    declined = await side_by_side(agent, ["No thanks, I'm not interested."])
    assert_same(declined)
    assert "have a nice day" in declined[-1][1]


@pytest.mark.parametrize(
    "said",
    [
        ["Yes.", "No, not really.", "Sure, I would."],
        ["Yeah.", "Yes please.", "No."],
        ["Hmm, it was fine I guess.", "Okay.", "Sure."],
        ["Call me back tomorrow."],
        ["Sorry, wrong number."],
        ["Yes.", "Bye."],
        ["Hi, you have reached Pat, please leave a message after the beep."],
    ],
)
async def test_survey_each_answer(said: list[str]) -> None:
    pairs = await side_by_side(AGENTS["survey"], said)
    assert_same(pairs)
    assert len(pairs) == len(said) + 1


@pytest.mark.parametrize(
    "said",
    [
        ["Yes, sure.", "Yes, let's do it."],
        ["No."],
        ["Hmm, maybe.", "Absolutely.", "Yes."],
        ["Not interested."],
    ],
)
async def test_first_sentence_agent(said: list[str]) -> None:
    assert_same(await side_by_side(AGENTS["first sentence"], said))


async def test_opt_out_and_a_request_for_a_person() -> None:
    assert_same(await side_by_side(AGENTS["survey"], ["Yes.", "Stop calling me."]))
    agent = AGENTS["first sentence"]
    policy = OfflinePolicy(**agent)
    policy.opening()
    reply = policy.respond("Can I speak to a real person?")
    graph = derived_flow(OfflinePolicy(**agent))
    start = await text_turn(graph, TextTurnIn(variables={"name": "Dana"}))
    out = await text_turn(
        graph, TextTurnIn(state=start.state, said="Can I speak to a real person?")
    )
    assert reply.transfer is not None
    assert " ".join(out.lines) == reply.text
    assert out.end_reason == "transfer"


def test_the_nodes_hold_the_policys_reading_of_the_prompt() -> None:
    policy = OfflinePolicy(prompt=SURVEY, voicemail_text=None, disclosure=DISCLOSURE)
    graph = derived_flow(OfflinePolicy(prompt=SURVEY, disclosure=DISCLOSURE))
    asks = [n.text for n in graph.nodes if isinstance(n, AskNode) and n.id.startswith("q")]
    assert asks == list(policy.brief.questions)
    assert len(asks) == 3
    voicemail = [
        n.action.text
        for n in graph.nodes
        if isinstance(n, ActionNode) and isinstance(n.action, VoicemailAction)
    ]
    assert voicemail == [policy.voicemail_message().text]
    intents = {n.intent for n in graph.nodes if isinstance(n, GlobalNode)}
    assert intents == {"opt_out", "robot"}
    assert not any(
        isinstance(n, ActionNode) and isinstance(n.action, TransferAction) for n in graph.nodes
    )


def test_the_agents_voicemail_message_and_no_voicemail() -> None:
    message = "Please call Bright Dental back."
    graph = derived_flow(OfflinePolicy(prompt=DEMO, voicemail_text=message))
    assert graph.node("voicemail").action.text == message  # type: ignore[union-attr]
    hangup = derived_flow(OfflinePolicy(prompt=DEMO, voicemail_text=message), leave_voicemail=False)
    assert all(n.id != "voicemail" for n in hangup.nodes)
    assert problems(hangup) == []


def test_the_most_questions_a_flow_holds() -> None:
    asks = " ".join(f"Ask them if they like colour number {i}." for i in range(MAX_QUESTIONS))
    prompt = f"You are Sam from Acme. {asks}"
    most = derived_flow(OfflinePolicy(prompt=prompt, first_sentence="Hi!", can_transfer=True))
    assert problems(most) == []
    with pytest.raises(TooManyQuestions, match=f"asks {MAX_QUESTIONS + 1} questions"):
        derived_flow(OfflinePolicy(prompt=prompt + " Ask them if they like apples."))
