"""The billing API: the balance, card top-ups through Stripe, Stripe's webhook, the billing
history (JSON and CSV), and the admin's refund of a top-up. docs/billing.md."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, StreamingResponse

from callwright.auth.deps import AdminUser, CurrentUser
from callwright.auth.schemas import Message
from callwright.billing import repository
from callwright.billing.deps import PaymentsDep
from callwright.billing.payments import CURRENCY
from callwright.billing.schemas import (
    AutoRechargeIn,
    AutoRechargeOut,
    AutoRechargeResponse,
    BillingOut,
    BillingSummary,
    CardSetupIn,
    CardSetupOut,
    HistoryEntry,
    HistoryPage,
    PaymentMethodIn,
    RefundOut,
    TopUpConfirmed,
    TopUpCreated,
    TopUpIn,
    TopUpOut,
    TopUpResponse,
    TopUpsPage,
)
from callwright.kit.bounds import PageRequest, PathId, page_params
from callwright.kit.csv_export import CsvExport
from callwright.kit.db import Database, SessionDep
from callwright.kit.deps import DatabaseDep
from callwright.kit.errors import ValidationFailed, or_404
from callwright.kit.money import dollars, money
from callwright.models import BillingProfile

log = logging.getLogger(__name__)

router = APIRouter(tags=["billing"])

TOP_UP_NOT_FOUND = "Top-up not found."
EXPORT_COLUMNS = (
    "date",
    "kind",
    "amount",
    "balance_after",
    "call_id",
    "payment_reference",
    "note",
)


@router.get("/billing")
async def billing_summary(
    user: CurrentUser, session: SessionDep, payments: PaymentsDep
) -> BillingOut:
    """The balance (what is available, what running calls hold) and what the payment form
    needs."""
    settings = payments.settings
    profile = await session.get(BillingProfile, user.id)
    return BillingOut(
        data=BillingSummary(
            available=dollars(user.balance_cents),
            held=dollars(await repository.held_cents(session, user.id)),
            top_up_min=settings.top_up_min,
            top_up_max=settings.top_up_max,
            currency=CURRENCY,
            publishable_key=settings.stripe_publishable_key,
            stripe_js_url=settings.stripe_js_url,
            test_mode=not settings.stripe_real,
            saved_card=profile.card if profile and profile.payment_method_id else None,
            auto_recharge=_auto_recharge(profile, settings.auto_recharge_period_hours),
        )
    )


def _auto_recharge(profile: BillingProfile | None, period_hours: int) -> AutoRechargeOut:
    return AutoRechargeOut(
        enabled=bool(profile and profile.auto_recharge),
        threshold=dollars(profile.threshold_cents if profile else 500),
        amount=dollars(profile.amount_cents if profile else 2500),
        period_hours=period_hours,
        last_recharge_at=profile.last_recharge_at if profile else None,
        failure=profile.failure if profile else None,
    )


@router.put("/billing/auto-recharge")
async def set_auto_recharge(
    body: AutoRechargeIn, user: CurrentUser, session: SessionDep, payments: PaymentsDep
) -> AutoRechargeResponse:
    """Turn auto-recharge on or off: when a call's charge leaves the balance under `threshold`
    dollars, the saved card is charged `amount` dollars (within the top-up limits), at most
    once per period."""
    amount = payments.cents_of(body.amount)
    if body.threshold > payments.settings.top_up_max:
        raise ValidationFailed(
            {"threshold": [f"The threshold may be at most ${payments.settings.top_up_max:,}."]}
        )
    profile = await payments.set_auto_recharge(
        session, user.id, enabled=body.enabled, threshold=body.threshold * 100, amount=amount
    )
    return AutoRechargeResponse(
        message="Auto-recharge is on." if profile.auto_recharge else "Auto-recharge is off.",
        data=_auto_recharge(profile, payments.settings.auto_recharge_period_hours),
    )


@router.delete("/billing/card")
async def forget_card(user: CurrentUser, session: SessionDep, payments: PaymentsDep) -> Message:
    """Forget the saved card (auto-recharge goes off with it)."""
    await payments.forget_card(session, user.id)
    return Message(message="The saved card was removed.")


@router.post("/billing/card-setups")
async def start_card_setup(
    user: CurrentUser, session: SessionDep, payments: PaymentsDep, body: CardSetupIn | None = None
) -> CardSetupOut:
    """A SetupIntent for the card typed in the Card Element (`confirmCardSetup`); with
    `save_card`, set up for later off-session charges (auto-recharge)."""
    save = bool(body and body.save_card)
    secret = await payments.start_card_setup(session, user.id, save=save)
    return CardSetupOut(client_secret=secret)


@router.post("/billing/top-ups", status_code=201)
async def create_top_up(
    body: TopUpIn, user: CurrentUser, session: SessionDep, payments: PaymentsDep
) -> TopUpCreated:
    """Start a top-up of `amount` dollars: a PaymentIntent, answered with its client secret.
    The balance rises only when Stripe's signed webhook says the payment succeeded."""
    cents = payments.cents_of(body.amount)
    top_up, secret = await payments.create_top_up(session, user, cents)
    return TopUpCreated(data=TopUpOut.of(top_up), client_secret=secret)


@router.post("/billing/top-ups/{top_up_id}/confirm")
async def confirm_top_up(
    top_up_id: PathId,
    body: PaymentMethodIn,
    user: CurrentUser,
    session: SessionDep,
    payments: PaymentsDep,
) -> TopUpConfirmed:
    """Pay the top-up with the card the browser set up (a PaymentMethod id)."""
    top_up = or_404(await repository.top_up(session, top_up_id, user.id), TOP_UP_NOT_FOUND)
    confirmed = await payments.confirm_top_up(
        session, top_up, body.payment_method_id, save=body.save_card
    )
    return TopUpConfirmed(
        data=TopUpOut.of(top_up),
        payment_status=confirmed.status,
        client_secret=confirmed.client_secret,
    )


@router.get("/billing/top-ups/{top_up_id}")
async def get_top_up(top_up_id: PathId, user: CurrentUser, session: SessionDep) -> TopUpResponse:
    """One of the user's top-ups: `succeeded` once Stripe's webhook has credited it."""
    top_up = or_404(await repository.top_up(session, top_up_id, user.id), TOP_UP_NOT_FOUND)
    return TopUpResponse(data=TopUpOut.of(top_up))


@router.post("/billing/stripe-webhook", include_in_schema=False)
async def stripe_webhook(
    request: Request,
    payments: PaymentsDep,
    session: SessionDep,
    stripe_signature: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    """Stripe's signed events (400 when the signature does not verify)."""
    event = payments.verify(await request.body(), stripe_signature)
    outcome = await payments.handle_event(session, event)
    log.info("stripe event %s %s: %s", event.id, event.type, outcome)
    return JSONResponse({"received": True, "outcome": outcome})


@router.get("/billing/history")
async def billing_history(
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(20)],
) -> HistoryPage:
    """The user's ledger, newest first: top-ups, holds, charges, releases, refunds and
    adjustments, each with the call it belongs to."""
    rows, total = await repository.history(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return HistoryPage(data=[HistoryEntry.of(e) for e in rows], pagination=paging.pagination(total))


@router.get("/billing/history/export")
async def export_billing_history(user: CurrentUser, db: DatabaseDep) -> StreamingResponse:
    """The whole billing history as CSV, oldest first."""
    return StreamingResponse(
        _csv(db, user.id),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="billing-history.csv"'},
    )


async def _csv(db: Database, user_id: int) -> AsyncIterator[str]:
    """Sent after the request's own session has closed: read on a session of its own."""
    export = CsvExport()
    export.row(EXPORT_COLUMNS)
    async with db.sessionmaker() as session:
        async for entry in repository.stream_history(session, user_id):
            sign = "-" if entry.amount_cents < 0 else ""
            export.row(
                (
                    entry.created_at.isoformat(),
                    entry.kind,
                    f"{sign}{money(abs(entry.amount_cents))}",
                    money(entry.balance_after_cents),
                    entry.call_id or "",
                    entry.payment_intent_id or "",
                    entry.note or "",
                )
            )
            if export.size() > 64 * 1024:
                yield export.take()
    yield export.take()


# Admins


@router.get("/admin/users/{user_id}/top-ups")
async def admin_user_top_ups(
    user_id: PathId,
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
) -> TopUpsPage:
    """A user's card top-ups, newest first, for refunds."""
    rows, total = await repository.top_ups(
        session, user_id, page=paging.page, per_page=paging.per_page
    )
    return TopUpsPage(data=[TopUpOut.of(t) for t in rows], pagination=paging.pagination(total))


@router.post("/admin/top-ups/{top_up_id}/refund")
async def refund_top_up(
    top_up_id: PathId, admin: AdminUser, session: SessionDep, payments: PaymentsDep
) -> RefundOut:
    """Refund a card top-up in full (Stripe refund + a refund entry in the ledger); refused
    when it was refunded already or the balance no longer holds it."""
    top_up = or_404(await repository.top_up(session, top_up_id), TOP_UP_NOT_FOUND)
    balance = await payments.refund(session, top_up, by=admin.id)
    await session.refresh(top_up)
    return RefundOut(
        message=f"Refunded ${money(top_up.amount_cents)} to the card.",
        data=TopUpOut.of(top_up),
        balance=dollars(balance),
    )
