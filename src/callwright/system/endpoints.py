"""`GET system/mode` and `GET system/sandbox-numbers` for signed-in users (the app's notices and
the sandbox's number plan), and `GET admin/system` (the admin System page)."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter

from callwright.auth.deps import AdminUser, CurrentUser
from callwright.calls.deps import CallsDep
from callwright.kit.deps import DatabaseDep, SettingsDep
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
from callwright.voice_agent.deps import EnginesDep

router = APIRouter(tags=["system"])


@router.get("/system/mode")
async def mode(_user: CurrentUser, s: SettingsDep) -> ModeOut:
    """Which carrier places calls and which brain holds the conversation, so the app can say
    when calls go to the sandbox network or the brain is the offline demo policy."""
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
    if persona.menu is not None:
        said = [persona.menu.prompt]
    return SandboxNumber(
        number=number,
        kind=persona.kind,
        label=persona.label,
        outcome=numbers.OUTCOMES[persona.kind],
        lines=said or list(persona.lines),
    )


@router.get("/system/sandbox-numbers")
async def sandbox_numbers(_user: CurrentUser, settings: SettingsDep) -> SandboxPlanOut:
    """The sandbox network's number plan, read from the network's own table."""
    return SandboxPlanOut(
        data=SandboxPlan(
            special=[_row(n, p) for n, p in numbers.SPECIAL.items()],
            scenarios=[_row(numbers.example_number(i), p) for i, p in enumerate(numbers.SCENARIOS)],
            from_number=settings.sandbox_from_number,
        )
    )


@router.get("/admin/system")
async def system(
    _admin: AdminUser, settings: SettingsDep, db: DatabaseDep, engines: EnginesDep, calls: CallsDep
) -> SystemReportOut:
    """Each part of the running system, what it is and whether it answers (checked now)."""
    components = await checks.run_all(
        checks.Context(settings, db, engines.transcriber, calls.media.store)
    )
    return SystemReportOut(
        data=SystemReport(
            checked_at=utcnow(),
            health="failing" if any(c.health == "failing" for c in components) else "ok",
            components=[ComponentOut(**asdict(c)) for c in components],
        )
    )
