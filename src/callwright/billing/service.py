"""The prepaid balance: an append-only ledger in cents, the balance on the user row changed in
the same transaction by conditional UPDATEs (never read-modify-write), and `balance-update`
published to the owner's sockets after each commit.

A call holds `max_duration x 49 cents` at send; at its end it is settled once: charged
`ceil((duration_s - 1) / 60) x 49 cents` (never more than the hold) and the hold released."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from callwright.billing import repository
from callwright.kit.db import on_commit
from callwright.kit.errors import AppError, ValidationFailed
from callwright.kit.money import dollars, money
from callwright.models import Call, LedgerEntry, User
from callwright.realtime.events import BalanceUpdate
from callwright.realtime.server import Publisher, user_room

#: The most a balance may hold: $1,000,000 (a typo guard, not a business limit; far inside the
#: 32-bit INTEGER column, which a sum of top-ups could otherwise overflow: a 500 on PostgreSQL).
MAX_BALANCE_CENTS = 100_000_000
TOO_RICH = f"The balance may not exceed ${MAX_BALANCE_CENTS // 100:,}."

COST_PER_MINUTE_CENTS = 49


def hold_for(max_duration_minutes: int) -> int:
    return max_duration_minutes * COST_PER_MINUTE_CENTS


def cost_for(duration_seconds: int | None) -> int:
    """The spec's rule: rounded-up minutes of (duration - 1 s), times 49 cents."""
    seconds = max(0, (duration_seconds or 0) - 1)
    return math.ceil(seconds / 60) * COST_PER_MINUTE_CENTS


class InsufficientBalance(AppError):
    status_code = 402

    def __init__(self, required_cents: int, available_cents: int) -> None:
        super().__init__(
            f"Insufficient balance to make this call. Required: ${money(required_cents)}, "
            f"Available: ${money(available_cents)}. Please add funds."
        )
        self.required_cents = required_cents
        self.available_cents = available_cents


#: Told the user and balance after a call's charge (auto-recharge listens).
AfterCharge = Callable[[AsyncSession, int, int], Awaitable[None]]


class Billing:
    def __init__(self, publish: Publisher) -> None:
        self.publish = publish
        self.after_charge: list[AfterCharge] = []

    async def _move(
        self,
        session: AsyncSession,
        user_id: int,
        amount_cents: int,
        *,
        floor: int | None = 0,
        ceiling: int | None = None,
    ) -> int | None:
        """Add `amount_cents` (negative takes) unless the balance would end below `floor` or
        above `ceiling`; returns the new balance, or None when refused. One conditional UPDATE:
        concurrent movers serialise on the row and each sees the other's result."""
        new_balance = await repository.move_balance(
            session, user_id, amount_cents, floor=floor, ceiling=ceiling
        )
        if new_balance is None:
            return None
        self._keep_in_step(session, user_id, int(new_balance))
        self._announce(session, user_id, new_balance)
        return int(new_balance)

    @staticmethod
    def _keep_in_step(session: AsyncSession, user_id: int, balance_cents: int) -> None:
        """Keep the request's User object (when loaded) in step with the row just written."""
        loaded = session.identity_map.get(identity_key(User, user_id))
        if loaded is not None:
            set_committed_value(loaded, "balance_cents", balance_cents)

    def _announce(self, session: AsyncSession, user_id: int, balance_cents: int) -> None:
        async def publish() -> None:
            await self.publish(
                user_room(user_id),
                BalanceUpdate(user_id=user_id, new_balance=dollars(balance_cents)),
            )

        on_commit(session, publish)

    async def balance(self, session: AsyncSession, user_id: int) -> int:
        return await repository.balance_of(session, user_id) or 0

    async def hold(self, session: AsyncSession, user_id: int, call: Call) -> int:
        """Reserve the call's maximum cost, or raise InsufficientBalance. Returns the balance."""
        amount = hold_for(call.max_duration)
        new_balance = await self._move(session, user_id, -amount)
        if new_balance is None:
            raise InsufficientBalance(amount, await self.balance(session, user_id))
        call.hold_cents = amount
        session.add(
            LedgerEntry(
                user_id=user_id,
                call_id=call.id,
                kind="hold",
                amount_cents=-amount,
                balance_after_cents=new_balance,
                note=f"hold for a call of up to {call.max_duration} min",
            )
        )  # flushed with the call (the unit of work inserts the call first)
        return new_balance

    async def settle(self, session: AsyncSession, call: Call) -> int | None:
        """Charge the call once and release its hold. Returns the cost in cents, or None when
        it was settled already (a replayed end) or had nothing to settle."""
        if call.user_id is None or call.hold_cents <= 0:
            return None
        cost = min(cost_for(call.duration_seconds), call.hold_cents)
        if not await repository.claim_settlement(session, call.id, cost):
            return None
        set_committed_value(call, "cost_cents", cost)
        released = await self._move(session, call.user_id, call.hold_cents - cost, floor=None)
        assert released is not None
        session.add_all(
            [
                LedgerEntry(
                    user_id=call.user_id,
                    call_id=call.id,
                    kind="release",
                    amount_cents=call.hold_cents,
                    balance_after_cents=released + cost,
                    note="hold released",
                ),
                LedgerEntry(
                    user_id=call.user_id,
                    call_id=call.id,
                    kind="charge",
                    amount_cents=-cost,
                    balance_after_cents=released,
                    note=f"{call.duration_seconds or 0} s{_parts(call)} at "
                    f"${money(COST_PER_MINUTE_CENTS)}/min",
                ),
            ]
        )
        await session.flush()
        for listener in self.after_charge:
            await listener(session, call.user_id, released)
        return cost

    async def top_up(
        self,
        session: AsyncSession,
        user_id: int,
        amount_cents: int,
        *,
        by: int | None,
        note: str,
        payment_intent_id: str | None = None,
    ) -> int:
        """Add money (an admin's top-up, an account's opening balance, or a card payment's
        PaymentIntent, which the ledger takes once). Returns the balance."""
        if amount_cents <= 0:
            raise AppError("Amount must be greater than 0", 422)
        new_balance = await self._move(
            session, user_id, amount_cents, floor=None, ceiling=MAX_BALANCE_CENTS
        )
        if new_balance is None:
            if await repository.balance_of(session, user_id) is None:
                raise AppError("User not found.", 404)
            raise ValidationFailed({"amount": [TOO_RICH]})
        session.add(
            LedgerEntry(
                user_id=user_id,
                kind="top_up",
                amount_cents=amount_cents,
                balance_after_cents=new_balance,
                note=note,
                created_by=by,
                payment_intent_id=payment_intent_id,
            )
        )
        await session.flush()
        return new_balance

    async def refund(
        self,
        session: AsyncSession,
        user_id: int,
        amount_cents: int,
        *,
        by: int | None,
        payment_intent_id: str,
    ) -> int | None:
        """Take a refunded card top-up back out of the balance: None (nothing taken) when the
        balance is smaller than the refund. Returns the balance."""
        new_balance = await self._move(session, user_id, -amount_cents)
        if new_balance is None:
            return None
        session.add(
            LedgerEntry(
                user_id=user_id,
                kind="refund",
                amount_cents=-amount_cents,
                balance_after_cents=new_balance,
                note="card top-up refunded",
                created_by=by,
                payment_intent_id=payment_intent_id,
            )
        )
        await session.flush()
        return new_balance

    async def starter_credit(self, session: AsyncSession, user_id: int, amount_cents: int) -> None:
        """A new account's starter credit (CALLWRIGHT_STARTER_CREDIT_CENTS), as a
        `starter_credit` entry. The caller grants it once per user: when the account turns
        verified (auth.service.mark_verified), which happens once."""
        if amount_cents <= 0:
            return
        new_balance = await self._move(
            session, user_id, amount_cents, floor=None, ceiling=MAX_BALANCE_CENTS
        )
        if new_balance is None:  # already at the ceiling: nothing to add
            return
        session.add(
            LedgerEntry(
                user_id=user_id,
                kind="starter_credit",
                amount_cents=amount_cents,
                balance_after_cents=new_balance,
                note="starter credit for a new account",
            )
        )
        await session.flush()

    async def set_balance(
        self, session: AsyncSession, user_id: int, target_cents: int, *, by: int | None
    ) -> int:
        """An admin sets the balance to `target_cents`: one adjustment entry for the difference
        (none when it is already there). The row is written by a compare-and-set, `UPDATE ...
        SET balance = target WHERE balance = expected`: when a hold, a charge or another set
        lands between reading and writing, nothing is written and it is read again. So the
        balance ends on exactly the target and the entry's amount is what it really moved."""
        if target_cents < 0:
            raise AppError("Balance cannot be negative", 409)
        while True:
            current = await repository.balance_of(session, user_id)
            if current is None:
                raise AppError("User not found.", 404)
            if current == target_cents:
                return target_cents
            if await repository.set_balance_if(session, user_id, current, target_cents):
                break
        self._keep_in_step(session, user_id, target_cents)
        self._announce(session, user_id, target_cents)
        session.add(
            LedgerEntry(
                user_id=user_id,
                kind="adjustment",
                amount_cents=target_cents - current,
                balance_after_cents=target_cents,
                note=f"balance set to ${money(target_cents)} by an admin",
                created_by=by,
            )
        )
        await session.flush()
        return target_cents


def _parts(call: Call) -> str:
    """A transferred call's two parts ("" for other calls), for its charge's note: the whole
    call is charged at the one rate (docs/calls-and-billing.md, "Transfers")."""
    if call.post_transfer_duration is None or call.pre_transfer_duration is None:
        return ""
    return f" ({call.pre_transfer_duration} s agent + {call.post_transfer_duration} s transferred)"
