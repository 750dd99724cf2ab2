"""The billing API's shapes: the balance, card top-ups, the ledger as a billing history."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from callwright.kit.bounds import StrictDollars, WholeDollars
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.money import dollars
from callwright.models import LedgerEntry, TopUp

LedgerKind = Literal[
    "top_up", "hold", "release", "charge", "refund", "adjustment", "starter_credit"
]
TopUpStatus = Literal["pending", "succeeded", "failed", "refunded"]


class AutoRechargeOut(BaseModel):
    enabled: bool
    #: Dollars: a call's charge that leaves the balance under this tops it up...
    threshold: float
    #: ...by this many dollars, charged to the saved card, at most once per period.
    amount: float
    period_hours: int
    last_recharge_at: datetime | None
    #: Why the last one failed (auto-recharge was turned off then).
    failure: str | None


class BillingSummary(BaseModel):
    #: What new calls can use, in dollars.
    available: float
    #: What the calls under way hold (already out of `available`, charged when they end).
    held: float
    top_up_min: int
    top_up_max: int
    currency: str
    #: For the browser's Stripe.js: the publishable key and where to load Stripe.js from.
    publishable_key: str
    stripe_js_url: str
    #: True when payments go to a local emulator (localstripe), not Stripe itself.
    test_mode: bool
    #: The saved card ("Visa ending in 4242"), if any.
    saved_card: str | None
    auto_recharge: AutoRechargeOut


class BillingOut(Ok[BillingSummary]):
    pass


class TopUpIn(BaseModel):
    #: Dollars; the configured minimum and maximum are checked with a clear message.
    amount: StrictDollars = Field(ge=0.01, le=1_000_000)


class PaymentMethodIn(BaseModel):
    #: The PaymentMethod the browser's `confirmCardSetup` produced.
    payment_method_id: str = Field(min_length=3, max_length=255, pattern=r"^[A-Za-z0-9_]+$")
    #: Keep the card for auto-recharge (it replaces a card saved before).
    save_card: bool = False


class AutoRechargeIn(BaseModel):
    enabled: bool
    #: Whole dollars.
    threshold: WholeDollars = Field(ge=1, le=1_000_000)
    amount: WholeDollars = Field(ge=1, le=1_000_000)


class TopUpOut(BaseModel):
    id: int
    payment_intent_id: str
    amount: float
    status: TopUpStatus
    card: str | None
    failure: str | None
    created_at: datetime
    credited_at: datetime | None
    refunded_at: datetime | None

    @classmethod
    def of(cls, top_up: TopUp) -> TopUpOut:
        return cls(
            id=top_up.id,
            payment_intent_id=top_up.payment_intent_id,
            amount=dollars(top_up.amount_cents),
            status=top_up.status,
            card=top_up.card,
            failure=top_up.failure,
            created_at=top_up.created_at,
            credited_at=top_up.credited_at,
            refunded_at=top_up.refunded_at,
        )


class TopUpCreated(Envelope):
    data: TopUpOut
    #: The PaymentIntent's client secret, for Stripe.js.
    client_secret: str


class TopUpConfirmed(Envelope):
    data: TopUpOut
    #: succeeded (the balance rises when Stripe's webhook arrives), requires_action (finish
    #: it in the browser with `confirmCardPayment(client_secret)`), processing.
    payment_status: str
    client_secret: str


class TopUpResponse(Ok[TopUpOut]):
    pass


class TopUpsPage(Paged[TopUpOut]):
    pass


class CardSetupIn(BaseModel):
    #: The card will be saved: set it up for off-session charges on the user's customer.
    save_card: bool = False


class CardSetupOut(Envelope):
    #: A SetupIntent's client secret, for `confirmCardSetup` with the Card Element.
    client_secret: str


class HistoryEntry(BaseModel):
    id: int
    kind: LedgerKind
    #: What the entry did to the balance, in dollars (negative takes money).
    amount: float
    balance_after: float
    note: str | None
    call_id: str | None
    payment_intent_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, entry: LedgerEntry) -> HistoryEntry:
        return cls(
            id=entry.id,
            kind=entry.kind,
            amount=dollars(entry.amount_cents),
            balance_after=dollars(entry.balance_after_cents),
            note=entry.note,
            call_id=entry.call_id,
            payment_intent_id=entry.payment_intent_id,
            created_at=entry.created_at,
        )


class HistoryPage(Paged[HistoryEntry]):
    pass


class RefundOut(Envelope):
    message: str
    data: TopUpOut
    balance: float


class AutoRechargeResponse(Envelope):
    message: str
    data: AutoRechargeOut
