"""Card top-ups through Stripe (docs/billing.md).

A top-up is a Stripe PaymentIntent this install creates and records (`TopUp`) before any card
is charged:

1. `create_top_up`: the PaymentIntent for the amount, recorded as pending; its client secret
   goes to the browser.
2. The browser turns the card typed in Stripe's Card Element into a PaymentMethod through a
   SetupIntent (`start_card_setup`, `confirmCardSetup`), and `confirm_top_up` attaches it to the
   PaymentIntent and confirms it. When the bank asks for 3-D Secure the PaymentIntent answers
   `requires_action` and the browser finishes it with `confirmCardPayment`.
3. Stripe's signed `payment_intent.succeeded` webhook (`handle_event`) credits the balance, once
   per PaymentIntent whatever is replayed: the top-up's status is claimed by a conditional
   UPDATE and the ledger holds at most one top-up entry per PaymentIntent (a unique
   constraint). Nothing the browser says credits anything.

With no keys set this all runs against localstripe, a local Stripe emulator that speaks
Stripe's protocol (billing.localstripe); real keys switch it to Stripe itself."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import stripe
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.config import Settings
from callwright.kit.errors import AppError, ValidationFailed
from callwright.kit.money import money
from callwright.kit.time import utcnow
from callwright.mail.service import Mailer
from callwright.models import Call, TopUp, User

log = logging.getLogger(__name__)

CURRENCY = "usd"
UNAVAILABLE = "Card payments are unavailable right now. Please try again in a few minutes."
BAD_SIGNATURE = "Invalid Stripe signature."


class PaymentsUnavailable(AppError):
    status_code = 503

    def __init__(self) -> None:
        super().__init__(UNAVAILABLE)


@dataclass(frozen=True)
class Confirmed:
    """Where a confirmed PaymentIntent stands: `succeeded` (the webhook will credit it),
    `requires_action` (the browser finishes 3-D Secure with the client secret), `processing`."""

    status: str
    client_secret: str


class Payments:
    def __init__(
        self,
        settings: Settings,
        billing: Billing,
        mailer: Mailer,
        *,
        http_client: stripe.HTTPClient | None = None,
    ) -> None:
        self.settings = settings
        self.billing = billing
        self.mailer = mailer
        self.stripe = stripe.StripeClient(
            settings.stripe_secret_key,
            base_addresses={"api": settings.stripe_api_base},
            http_client=http_client or stripe.HTTPXClient(timeout=20),
            max_network_retries=2,
        )

    # The amount

    def cents_of(self, amount: float) -> int:
        """A top-up in dollars as cents, inside the configured minimum and maximum."""
        cents = round(amount * 100)
        if abs(amount * 100 - cents) > 1e-6:
            raise ValidationFailed({"amount": ["Use at most 2 decimal places."]})
        low, high = self.settings.top_up_min, self.settings.top_up_max
        if cents < low * 100:
            raise ValidationFailed({"amount": [f"The smallest top-up is ${low:,}."]})
        if cents > high * 100:
            raise ValidationFailed({"amount": [f"The largest top-up is ${high:,}."]})
        return cents

    # The browser's side of a payment

    async def start_card_setup(self) -> str:
        """A SetupIntent the browser confirms with the Card Element: its client secret."""
        intent = await self._call(
            self.stripe.v1.setup_intents.create_async,
            {"usage": "on_session", "payment_method_types": ["card"]},
        )
        return str(intent.client_secret)

    async def create_top_up(
        self, session: AsyncSession, user: User, cents: int
    ) -> tuple[TopUp, str]:
        """The PaymentIntent for `cents`, recorded as pending, and its client secret (for the
        browser; not stored)."""
        intent = await self._call(
            self.stripe.v1.payment_intents.create_async,
            {
                "amount": cents,
                "currency": CURRENCY,
                "payment_method_types": ["card"],
                "metadata": {"callwright_user_id": str(user.id), "purpose": "top_up"},
            },
        )
        top_up = TopUp(user_id=user.id, payment_intent_id=str(intent.id), amount_cents=cents)
        session.add(top_up)
        await session.flush()
        return top_up, str(intent.client_secret)

    async def confirm_top_up(
        self, session: AsyncSession, top_up: TopUp, payment_method_id: str
    ) -> Confirmed:
        """Charge the card (a PaymentMethod from the browser's SetupIntent) for the top-up."""
        if top_up.status != "pending":
            raise AppError("This top-up is already paid or closed.", 409)
        method = await self._call(self.stripe.v1.payment_methods.retrieve_async, payment_method_id)
        card = getattr(method, "card", None)
        if card is not None:
            top_up.card = f"{str(card.brand).title()} ending in {card.last4}"
        await self._call(
            self.stripe.v1.payment_intents.update_async,
            top_up.payment_intent_id,
            {"payment_method": payment_method_id},
        )
        try:
            intent = await self._call(
                self.stripe.v1.payment_intents.confirm_async, top_up.payment_intent_id
            )
        except stripe.CardError as exc:
            top_up.failure = (exc.user_message or "Your card was declined.")[:255]
            await session.flush()
            raise AppError(top_up.failure, 402) from exc
        await session.flush()
        return Confirmed(status=str(intent.status), client_secret=str(intent.client_secret))

    # Stripe's side: the signed webhook

    def verify(self, payload: bytes, signature: str | None) -> stripe.Event:
        try:
            event: stripe.Event = stripe.Webhook.construct_event(
                payload, signature, self.settings.stripe_webhook_secret
            )
            return event
        except (ValueError, stripe.SignatureVerificationError) as exc:
            raise AppError(BAD_SIGNATURE, 400) from exc

    async def handle_event(self, session: AsyncSession, event: stripe.Event) -> str:
        """Act on one verified event; returns what was done (for the log and the answer)."""
        intent: dict[str, Any] = event.data.object.to_dict()
        if event.type == "payment_intent.succeeded":
            received = intent.get("amount_received") or intent.get("amount") or 0
            return await self.credit(
                session, str(intent["id"]), int(received), str(intent.get("currency"))
            )
        if event.type == "payment_intent.payment_failed":
            error = intent.get("last_payment_error") or {}
            return await self._fail(session, str(intent["id"]), error.get("message"))
        return "ignored"

    async def credit(
        self, session: AsyncSession, payment_intent_id: str, received_cents: int, currency: str
    ) -> str:
        """Credit a paid PaymentIntent once: only one this install created, only for the amount
        it was created for."""
        top_up = await session.scalar(
            select(TopUp).where(TopUp.payment_intent_id == payment_intent_id)
        )
        if top_up is None:
            log.info("stripe: %s is not a top-up of this install; ignored", payment_intent_id)
            return "unknown"
        if received_cents != top_up.amount_cents or currency.lower() != CURRENCY:
            log.error(
                "stripe: %s paid %s %s, created for %s usd: not credited",
                payment_intent_id,
                received_cents,
                currency,
                top_up.amount_cents,
            )
            return "mismatch"
        claimed = await session.execute(
            update(TopUp)
            .where(TopUp.id == top_up.id, TopUp.status.in_(("pending", "failed")))
            .values(status="succeeded", credited_at=utcnow(), failure=None)
            .execution_options(synchronize_session=False)
        )
        if getattr(claimed, "rowcount", 0) != 1:
            return "already credited"
        note = "card top-up" + (f" ({top_up.card})" if top_up.card else "")
        balance = await self.billing.top_up(
            session,
            top_up.user_id,
            top_up.amount_cents,
            by=None,
            note=note,
            payment_intent_id=payment_intent_id,
        )
        await self._receipt(session, top_up, balance)
        return "credited"

    async def _fail(self, session: AsyncSession, payment_intent_id: str, why: Any) -> str:
        written = await session.execute(
            update(TopUp)
            .where(TopUp.payment_intent_id == payment_intent_id, TopUp.status == "pending")
            .values(status="failed", failure=str(why or "The payment failed.")[:255])
            .execution_options(synchronize_session=False)
        )
        return "failed" if getattr(written, "rowcount", 0) == 1 else "ignored"

    async def _receipt(self, session: AsyncSession, top_up: TopUp, balance_cents: int) -> None:
        user = await session.get(User, top_up.user_id)
        if user is None:
            return
        paid = f"${money(top_up.amount_cents)}"
        await self.mailer.send_link_email(
            session,
            to=user.email,
            kind="receipt",
            subject=f"Receipt: {paid} added to your Callwright balance",
            greeting=f"Hello {user.name},",
            intro=(
                f"We received your payment of {paid}"
                + (f" by {top_up.card}" if top_up.card else "")
                + f" on {utcnow():%d %B %Y}. Your balance is now ${money(balance_cents)}. "
                f"Payment reference: {top_up.payment_intent_id}."
            ),
            action="See your billing history",
            link=f"{self.settings.app_url}/dashboard/billing",
            outro="Thank you for using Callwright.",
        )

    # Admin: refunds

    async def refund(self, session: AsyncSession, top_up: TopUp, *, by: int) -> int:
        """Refund a credited top-up in full: its amount leaves the balance (refused when the
        balance is smaller: it was spent) and Stripe returns it to the card. Once only.
        Returns the balance."""
        if top_up.status == "refunded":
            raise AppError("This top-up was refunded already.", 409)
        if top_up.status != "succeeded":
            raise AppError("Only a paid top-up can be refunded.", 409)
        claimed = await session.execute(
            update(TopUp)
            .where(TopUp.id == top_up.id, TopUp.status == "succeeded")
            .values(status="refunded", refunded_at=utcnow(), refunded_by=by)
            .execution_options(synchronize_session=False)
        )
        if getattr(claimed, "rowcount", 0) != 1:
            raise AppError("This top-up was refunded already.", 409)
        balance = await self.billing.refund(
            session,
            top_up.user_id,
            top_up.amount_cents,
            by=by,
            payment_intent_id=top_up.payment_intent_id,
        )
        if balance is None:
            available = await self.billing.balance(session, top_up.user_id)
            raise AppError(
                f"The balance (${money(available)}) is less than this top-up "
                f"(${money(top_up.amount_cents)}): it cannot be refunded.",
                409,
            )
        # Last, so a refusal above never reaches Stripe; the key makes a retry harmless.
        await self._call(
            self.stripe.v1.refunds.create_async,
            {"payment_intent": top_up.payment_intent_id, "amount": top_up.amount_cents},
            {"idempotency_key": f"refund-{top_up.payment_intent_id}"},
        )
        return balance

    async def _call(self, method: Any, *args: Any) -> Any:
        """One Stripe request; a card's refusal passes through, any other failure is said as
        'unavailable' (and logged)."""
        try:
            return await method(*args)
        except stripe.CardError:
            raise
        except stripe.InvalidRequestError as exc:
            log.warning("stripe refused a request: %s", exc)
            raise AppError(exc.user_message or "The payment request was refused.", 400) from exc
        except stripe.StripeError as exc:
            log.warning("stripe is unavailable: %s", exc)
            raise PaymentsUnavailable() from exc


async def held_cents(session: AsyncSession, user_id: int) -> int:
    """What the user's unfinished calls hold (already out of the balance, not yet charged)."""
    held = await session.scalar(
        select(func.coalesce(func.sum(Call.hold_cents), 0)).where(
            Call.user_id == user_id, Call.cost_cents.is_(None), Call.hold_cents > 0
        )
    )
    return int(held or 0)
