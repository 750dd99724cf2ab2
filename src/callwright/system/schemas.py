"""Shapes of the system endpoints: the mode every signed-in user's app reads, the sandbox's
number plan, and the admin System page."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from callwright.kit.envelope import Ok
from callwright.system.checks import Health


class Mode(BaseModel):
    #: "sandbox": calls go to the built-in simulated network; "twilio": real phones ring.
    carrier: Literal["sandbox", "twilio"]
    #: "offline": the built-in demo policy (English, deterministic); "llm": a chat model.
    brain: Literal["offline", "llm"]
    #: The model's name when the brain is an LLM.
    llm_model: str | None


class ModeOut(Ok[Mode]): ...


class SandboxNumber(BaseModel):
    number: str
    #: Who answers: person, no-answer, busy, failed, voicemail, hangs-up, interrupts, silent,
    #: opts-out, ivr (a phone menu), presses-keys.
    kind: str
    label: str
    #: How the call usually ends (the outcome words of the call logs).
    outcome: str
    #: What the callee says, in order.
    lines: list[str]


class SandboxPlan(BaseModel):
    #: Numbers with a fixed behaviour.
    special: list[SandboxNumber]
    #: Any other number reaches a talking person: the sum of its digits modulo
    #: `len(scenarios)` picks the scenario; each row's number is an example.
    scenarios: list[SandboxNumber]
    #: The caller ID sandbox calls come from.
    from_number: str


class SandboxPlanOut(Ok[SandboxPlan]): ...


class ComponentOut(BaseModel):
    key: str
    name: str
    value: str
    health: Health
    detail: str
    latency_ms: float | None
    settings: list[str]


class SystemReport(BaseModel):
    checked_at: datetime
    #: ok when every configured part answers; failing when any does not.
    health: Literal["ok", "failing"]
    components: list[ComponentOut]


class SystemReportOut(Ok[SystemReport]): ...
