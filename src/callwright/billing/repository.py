"""Every billing query: the balance's conditional writes, the ledger as a history, the calls'
holds, the card top-ups and the auto-recharge claim."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.models import BillingProfile, Call, LedgerEntry, TopUp, User


async def history(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[LedgerEntry], int]:
    """The user's ledger, newest first."""
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.user_id == user_id)
        .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


async def stream_history(session: AsyncSession, user_id: int) -> AsyncIterator[LedgerEntry]:
    """The whole ledger, oldest first, read in batches (the CSV export)."""
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.user_id == user_id)
        .order_by(LedgerEntry.created_at, LedgerEntry.id)
        .execution_options(yield_per=500)
    )
    async for entry in await session.stream_scalars(query):
        yield entry


async def top_up(session: AsyncSession, top_up_id: int, user_id: int | None = None) -> TopUp | None:
    """A top-up by id (only the user's own when `user_id` is given)."""
    query = select(TopUp).where(TopUp.id == top_up_id)
    if user_id is not None:
        query = query.where(TopUp.user_id == user_id)
    return await session.scalar(query)


async def top_ups(
    session: AsyncSession, user_id: int, *, page: int, per_page: int
) -> tuple[Sequence[TopUp], int]:
    """A user's card top-ups, newest first (failed and pending ones too)."""
    query = (
        select(TopUp)
        .where(TopUp.user_id == user_id)
        .order_by(TopUp.created_at.desc(), TopUp.id.desc())
    )
    return await paged(session, query, page=page, per_page=per_page)


def _changed_one(result: Any) -> bool:
    return getattr(result, "rowcount", 0) == 1


# The balance


async def move_balance(
    session: AsyncSession,
    user_id: int,
    amount_cents: int,
    *,
    floor: int | None,
    ceiling: int | None,
) -> int | None:
    """Add `amount_cents` to the user's balance unless it would end below `floor` or above
    `ceiling`, in one conditional UPDATE; the new balance, or None when refused."""
    condition = [User.id == user_id]
    if floor is not None:
        condition.append(User.balance_cents + amount_cents >= floor)
    if ceiling is not None:
        condition.append(User.balance_cents + amount_cents <= ceiling)
    new_balance = await session.scalar(
        update(User)
        .where(*condition)
        .values(balance_cents=User.balance_cents + amount_cents)
        .returning(User.balance_cents)
        .execution_options(synchronize_session=False)
    )
    return None if new_balance is None else int(new_balance)


async def balance_of(session: AsyncSession, user_id: int) -> int | None:
    """The user's balance in cents; None when there is no such user."""
    value = await session.scalar(select(User.balance_cents).where(User.id == user_id))
    return None if value is None else int(value)


async def set_balance_if(session: AsyncSession, user_id: int, expected: int, target: int) -> bool:
    """Compare-and-set: the balance becomes `target` if it is still `expected`."""
    written = await session.execute(
        update(User)
        .where(User.id == user_id, User.balance_cents == expected)
        .values(balance_cents=target)
        .execution_options(synchronize_session=False)
    )
    return _changed_one(written)


async def claim_settlement(session: AsyncSession, call_id: str, cost_cents: int) -> bool:
    """Write the call's cost unless it has one: whether this call settled it."""
    claimed = await session.execute(
        update(Call)
        .where(Call.id == call_id, Call.cost_cents.is_(None))
        .values(cost_cents=cost_cents)
        .execution_options(synchronize_session=False)
    )
    return _changed_one(claimed)


async def held_cents(session: AsyncSession, user_id: int) -> int:
    """What the user's unfinished calls hold (already out of the balance, not yet charged)."""
    held = await session.scalar(
        select(func.coalesce(func.sum(Call.hold_cents), 0)).where(
            Call.user_id == user_id, Call.cost_cents.is_(None), Call.hold_cents > 0
        )
    )
    return int(held or 0)


# Card top-ups and auto-recharge


async def claim_recharge(
    session: AsyncSession, user_id: int, balance: int, since: datetime, now: datetime
) -> bool:
    """Claim the period's one auto-recharge: the user has it on with a card, the balance is
    under the threshold and no recharge came since `since`. Whether this call claimed it."""
    claimed = await session.execute(
        update(BillingProfile)
        .where(
            BillingProfile.user_id == user_id,
            BillingProfile.auto_recharge.is_(True),
            BillingProfile.payment_method_id.is_not(None),
            BillingProfile.threshold_cents > balance,
            or_(
                BillingProfile.last_recharge_at.is_(None),
                BillingProfile.last_recharge_at < since,
            ),
        )
        .values(last_recharge_at=now)
        .execution_options(synchronize_session=False)
    )
    return _changed_one(claimed)


async def top_up_of_intent(session: AsyncSession, payment_intent_id: str) -> TopUp | None:
    found: TopUp | None = await session.scalar(
        select(TopUp).where(TopUp.payment_intent_id == payment_intent_id)
    )
    return found


async def move_top_up(
    session: AsyncSession,
    top_up_id: int | None,
    *,
    payment_intent_id: str | None = None,
    from_statuses: tuple[str, ...],
    **values: Any,
) -> bool:
    """Write `values` on the top-up (by id, or by its PaymentIntent) if its status is one of
    `from_statuses`: whether this call moved it."""
    where = (
        TopUp.id == top_up_id
        if payment_intent_id is None
        else TopUp.payment_intent_id == payment_intent_id
    )
    written = await session.execute(
        update(TopUp)
        .where(where, TopUp.status.in_(from_statuses))
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return _changed_one(written)
