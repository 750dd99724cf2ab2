"""What signing up asks of the balance: the starter credit a newly verified account gets. A
protocol, so `auth` does not import `billing` (billing's endpoints import auth's guards);
the app's `Billing` is what answers it (`auth.deps.CreditsDep`)."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession


class StarterCredit(Protocol):
    async def starter_credit(self, session: AsyncSession, user_id: int, amount_cents: int) -> None:
        """Credit a new account `amount_cents` (once: the caller asks once per user)."""
        ...
