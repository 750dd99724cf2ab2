"""`GET system/mode` and `GET system/sandbox-numbers` for signed-in users (the app's notices and
the sandbox's number plan), and `GET admin/system` (the admin System page)."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Request

from callwright.auth.deps import AdminUser, CurrentUser
from callwright.config import Settings
from callwright.kit.time import utcnow
from callwright.sandbox import numbers
from callwright.system import checks
from callwright.system.schemas import (
    ComponentOut,
    Mode,
    ModeOut,
    SandboxNumber,
    SandboxPlan,
    SandboxPlanOut,
    SystemReport,
    SystemReportOut,
)

router = APIRouter(tags=["system"])


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@router.get("/system/mode")
async def mode(_user: CurrentUser, request: Request) -> ModeOut:
    """Which carrier places calls and which brain holds the conversation, so the app can say
    when calls go to the sandbox network or the brain is the offline demo policy."""
    s = _settings(request)
    return ModeOut(
        data=Mode(
            carrier=s.carrier,
            brain="llm" if s.llm_base_url else "offline",
            llm_model=s.llm_model if s.llm_base_url else None,
        )
    )


def _row(number: str, persona: numbers.Persona) -> SandboxNumber:
    said = [persona.hello] if persona.kind in ("voicemail", "hangs-up") else []
    if persona.interruption:
        said = [persona.lines[0], persona.interruption, *persona.lines[1:]]
    return SandboxNumber(
        number=number,
        kind=persona.kind,
        label=persona.label,
        outcome=numbers.OUTCOMES[persona.kind],
        lines=said or list(persona.lines),
    )


@router.get("/system/sandbox-numbers")
async def sandbox_numbers(_user: CurrentUser, request: Request) -> SandboxPlanOut:
    """The sandbox network's number plan, read from the network's own table."""
    return SandboxPlanOut(
        data=SandboxPlan(
            special=[_row(n, p) for n, p in numbers.SPECIAL.items()],
            scenarios=[_row(numbers.example_number(i), p) for i, p in enumerate(numbers.SCENARIOS)],
            from_number=_settings(request).sandbox_from_number,
        )
    )


@router.get("/admin/system")
async def system(_admin: AdminUser, request: Request) -> SystemReportOut:
    """Each part of the running system, what it is and whether it answers (checked now)."""
    state = request.app.state
    components = await checks.run_all(
        checks.Context(
            state.settings, state.db, state.voice_engines.transcriber, state.calls.media.store
        )
    )
    return SystemReportOut(
        data=SystemReport(
            checked_at=utcnow(),
            health="failing" if any(c.health == "failing" for c in components) else "ok",
            components=[ComponentOut(**asdict(c)) for c in components],
        )
    )
