"""The agent's transfer to a person (docs/actions.md, "Transfer"): the LLM's `transfer`
built-in function, the frame that asks for it once the agent's short line has been heard, and
what the agent says when it comes back after a transfer that did not reach the person."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.frames.frames import FunctionCallResultProperties

from callwright.voice_agent.contract import CallPlan
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.policy import CONNECTING, Reply

#: What it says when the carrier refused the transfer.
CANNOT_TRANSFER = "I'm sorry, I can't connect you to anyone right now."
#: What it says back on the line after a transfer that did not reach the person.
_BACK = {
    "busy": "I'm sorry, the line was busy, so I couldn't connect you.",
    "no-answer": "I'm sorry, nobody answered, so I couldn't connect you.",
}
BACK_OTHERWISE = "I'm sorry, I couldn't connect you just now."
#: Added to the LLM's system message when the call can be transferred.
LLM_RULE = (
    "\n\nIf the callee asks for a person, a human or a department, say a short line such as "
    f'"{CONNECTING}" and then call the transfer function.'
)


@dataclass
class TransferFrame(FinalReplyFrame):
    """Follows the agent's last line before a transfer: once it has been heard, the call is
    handed to the person of `department` (None: the default); `summary` is the one line a
    warm transfer's person hears first."""

    department: str | None = None
    summary: str = ""
    #: A flow's transfer node's own number and mode (None: the call's).
    number: str | None = None
    mode: str | None = None


def reply_transfer(reply: Reply) -> TransferFrame:
    """The frame that hands the callee over once `reply` (the short line) has been heard."""
    assert reply.transfer is not None
    return TransferFrame(department=reply.transfer.department, summary=reply.transfer.summary)


def resumed(plan: CallPlan) -> list[Any]:
    """The conversation so far as the context's messages, for the agent back after a failed
    transfer (a person's lines, if any were heard, as the callee's side)."""
    roles = {"assistant": "assistant", "user": "user", "person": "user"}
    return [{"role": roles[speaker], "content": text} for speaker, text in plan.history]


def back_line(result: str | None) -> str:
    """What the agent says when it comes back after the transfer ended with `result`."""
    return _BACK.get(result or "", BACK_OTHERWISE)


def transfer_schema(plan: CallPlan) -> FunctionSchema:
    """The `transfer` function: a department argument when the call lists departments."""
    properties: dict[str, Any] = {
        "summary": {
            "type": "string",
            "description": "One sentence for the person taking the call: who the callee is "
            "and what they want.",
        }
    }
    if plan.transfer_departments:
        properties["department"] = {
            "type": "string",
            "enum": list(plan.transfer_departments),
            "description": "The department the callee asked for.",
        }
    return FunctionSchema(
        name="transfer",
        description="Hand the callee to a person. Call it right after you have told them you "
        "are connecting them.",
        properties=properties,
        required=[],
    )


def transfer_tools(plan: CallPlan) -> list[FunctionSchema]:
    """The transfer function the model is offered (none when the call has nowhere to go)."""
    return [transfer_schema(plan)] if plan.can_transfer else []


def register_transfer(llm: Any, plan: CallPlan) -> None:
    """Register the `transfer` function on the LLM service when the call can be transferred."""
    if not plan.can_transfer:
        return

    async def transfer(params: Any) -> None:
        args = params.arguments or {}
        await params.result_callback(
            {"status": "transferring"}, properties=FunctionCallResultProperties(run_llm=False)
        )
        department = args.get("department") or None
        frame = TransferFrame(department=department, summary=str(args.get("summary") or ""))
        await llm.push_frame(frame)

    llm.register_function("transfer", transfer)
