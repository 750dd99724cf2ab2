"""What the rest of the app hears about a call's life: queued (placed), started (answered) and
ended (finalised). The composition root injects the reporter (the webhook outbox's, see
`public_api.webhooks`); each is called inside the transaction that made the change, so an
event is written with it or not at all."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.models import Call


class CallReporter(Protocol):
    async def queued(self, session: AsyncSession, call: Call) -> None: ...

    async def started(self, session: AsyncSession, call: Call) -> None: ...

    async def ended(self, session: AsyncSession, call: Call) -> None: ...


class Silent:
    """Reports nothing (a calls domain built without webhooks)."""

    async def queued(self, session: AsyncSession, call: Call) -> None:
        return None

    async def started(self, session: AsyncSession, call: Call) -> None:
        return None

    async def ended(self, session: AsyncSession, call: Call) -> None:
        return None
