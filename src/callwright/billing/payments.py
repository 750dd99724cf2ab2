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
from datetime import timedelta
from typing import Any

import stripe
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing import repository
from callwright.billing.service import Billing
from callwright.config import Settings
from callwright.kit.db import Database, on_commit
from callwright.kit.errors import AppError, ValidationFailed
from callwright.kit.jobs import JobQueue
from callwright.kit.money import money
from callwright.kit.time import utcnow
from callwright.mail.service import Mailer
from callwright.models import BillingProfile, TopUp, User

log = logging.getLogger(__name__)

CURRENCY = "usd"
RECHARGE_JOB = "billing.auto_recharge"
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
        self, settings: Settings, billing: Billing, mailer: Mailer, db: Database, jobs: JobQueue
    ) -> None:
        self.billing = billing
        self.mailer = mailer
        self.db = db
        self.jobs = jobs
        self.configure(settings)
        jobs.register(RECHARGE_JOB, self.recharge)
        billing.after_charge.append(self.maybe_recharge)

    def configure(self, settings: Settings) -> None:
        """Use these settings' Stripe (the tests point a running app at their emulator)."""
        self.settings = settings
        self.stripe = stripe.StripeClient(
            settings.stripe_secret_key,
            base_addresses={"api": settings.stripe_api_base},
            http_client=stripe.HTTPXClient(timeout=20),
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

    async def start_card_setup(
        self, session: AsyncSession, user_id: int, *, save: bool = False
    ) -> str:
        """A SetupIntent the browser confirms with the Card Element: its client secret. For a
        card to save, it is set up for off-session use on the user's Stripe customer (what
        auto-recharge's charges need)."""
        params: dict[str, Any] = {"usage": "on_session", "payment_method_types": ["card"]}
        if save:
            params["usage"] = "off_session"
            params["customer"] = await self._customer(session, user_id)
        intent = await self._call(self.stripe.v1.setup_intents.create_async, params)
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
        self, session: AsyncSession, top_up: TopUp, payment_method_id: str, *, save: bool = False
    ) -> Confirmed:
        """Charge the card (a PaymentMethod from the browser's SetupIntent) for the top-up;
        with `save`, keep it (on the user's Stripe customer) for auto-recharge."""
        if top_up.status != "pending":
            raise AppError("This top-up is already paid or closed.", 409)
        method = await self._call(self.stripe.v1.payment_methods.retrieve_async, payment_method_id)
        card = getattr(method, "card", None)
        if card is not None:
            top_up.card = f"{str(card.brand).title()} ending in {card.last4}"
        attached = getattr(method, "customer", None)
        update_params: dict[str, Any] = {"payment_method": payment_method_id}
        if save:
            profile = await self._save_card(
                session, top_up.user_id, payment_method_id, top_up.card, attached
            )
            update_params["customer"] = profile.stripe_customer_id
        await self._call(
            self.stripe.v1.payment_intents.update_async,
            top_up.payment_intent_id,
            update_params,
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

    # The saved card and auto-recharge

    async def profile(self, session: AsyncSession, user_id: int) -> BillingProfile:
        profile = await session.get(BillingProfile, user_id)
        if profile is None:
            profile = BillingProfile(
                user_id=user_id,
                auto_recharge=False,
                threshold_cents=500,
                amount_cents=max(2500, self.settings.top_up_min * 100),
            )
            session.add(profile)
            await session.flush()
        return profile

    async def _customer(self, session: AsyncSession, user_id: int) -> str:
        """The user's Stripe customer, created on first use."""
        profile = await self.profile(session, user_id)
        if profile.stripe_customer_id is None:
            customer = await self._call(
                self.stripe.v1.customers.create_async,
                {"metadata": {"callwright_user_id": str(user_id)}},
            )
            profile.stripe_customer_id = str(customer.id)
            await session.flush()
        return profile.stripe_customer_id

    async def _save_card(
        self,
        session: AsyncSession,
        user_id: int,
        payment_method_id: str,
        card: str | None,
        attached_to: str | None,
    ) -> BillingProfile:
        """Keep the card on the user's customer (Stripe's SetupIntent attached it already;
        localstripe's leaves that to us)."""
        customer = await self._customer(session, user_id)
        profile = await self.profile(session, user_id)
        if attached_to != customer:
            try:
                await self._call(
                    self.stripe.v1.payment_methods.attach_async,
                    payment_method_id,
                    {"customer": customer},
                )
            except stripe.CardError as exc:
                raise AppError(exc.user_message or "Your card was declined.", 402) from exc
        profile.payment_method_id = payment_method_id
        profile.card = card
        profile.failure = None
        await session.flush()
        return profile

    async def set_auto_recharge(
        self, session: AsyncSession, user_id: int, *, enabled: bool, threshold: int, amount: int
    ) -> BillingProfile:
        """Turn auto-recharge on (a saved card needed) or off, with its threshold and amount."""
        profile = await self.profile(session, user_id)
        if enabled and profile.payment_method_id is None:
            raise AppError('Save a card first: pay once with "Save this card" ticked.', 409)
        profile.auto_recharge = enabled
        profile.threshold_cents = threshold
        profile.amount_cents = amount
        if enabled:
            profile.failure = None
        await session.flush()
        return profile

    async def forget_card(self, session: AsyncSession, user_id: int) -> BillingProfile:
        profile = await self.profile(session, user_id)
        if profile.payment_method_id is not None:
            await self._call(self.stripe.v1.payment_methods.detach_async, profile.payment_method_id)
        profile.payment_method_id = None
        profile.card = None
        profile.auto_recharge = False
        await session.flush()
        return profile

    async def maybe_recharge(self, session: AsyncSession, user_id: int, balance: int) -> None:
        """After a call's charge: when the balance is under the user's threshold, claim this
        period's one recharge (a conditional UPDATE, so concurrent charges claim it once) and
        queue the charge for after the commit."""
        since = utcnow() - timedelta(hours=self.settings.auto_recharge_period_hours)
        if not await repository.claim_recharge(session, user_id, balance, since, utcnow()):
            return

        async def queue() -> None:
            await self.jobs.send(RECHARGE_JOB, user_id)

        on_commit(session, queue)

    async def recharge(self, user_id: int) -> None:
        """The job: charge the saved card off-session. The webhook credits it like any top-up;
        a refusal turns auto-recharge off and tells the user by e-mail (no retry)."""
        async for session in self.db.session():
            await self._recharge(session, user_id)  # the unit of work commits after it

    async def _recharge(self, session: AsyncSession, user_id: int) -> None:
        profile = await session.get(BillingProfile, user_id)
        user = await session.get(User, user_id)
        if profile is None or user is None or not profile.payment_method_id:
            return
        try:
            intent = await self._call(
                self.stripe.v1.payment_intents.create_async,
                {
                    "amount": profile.amount_cents,
                    "currency": CURRENCY,
                    "customer": profile.stripe_customer_id,
                    "payment_method": profile.payment_method_id,
                    "payment_method_types": ["card"],
                    "off_session": True,
                    "confirm": True,
                    "metadata": {"callwright_user_id": str(user_id), "purpose": "auto_recharge"},
                },
            )
        except (stripe.CardError, AppError) as exc:
            why = getattr(exc, "user_message", None) or str(exc) or "The card was refused."
            await self._recharge_failed(session, profile, user, why[:255])
            return
        session.add(
            TopUp(
                user_id=user_id,
                payment_intent_id=str(intent.id),
                amount_cents=profile.amount_cents,
                source="auto",
                card=profile.card,
            )
        )
        await session.flush()

    async def _recharge_failed(
        self, session: AsyncSession, profile: BillingProfile, user: User, why: str
    ) -> None:
        profile.auto_recharge = False
        profile.failure = why
        await self.mailer.send_link_email(
            session,
            to=user.email,
            kind="auto-recharge-failed",
            subject="Auto-recharge failed: your Callwright balance was not topped up",
            greeting=f"Hello {user.name},",
            intro=(
                f"We tried to add ${money(profile.amount_cents)} to your balance"
                + (f" with your {profile.card}" if profile.card else "")
                + f", but the payment was refused: {why} Auto-recharge is now off and will not "
                "try again until you turn it back on."
            ),
            action="Update your card",
            link=f"{self.settings.app_url}/dashboard/billing",
            outro="Calls that need more than your balance are refused until funds are added.",
        )

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
            purpose = (intent.get("metadata") or {}).get("purpose")
            return await self.credit(
                session, str(intent["id"]), int(received), str(intent.get("currency")), purpose
            )
        if event.type == "payment_intent.payment_failed":
            error = intent.get("last_payment_error") or {}
            return await self._fail(session, str(intent["id"]), error.get("message"))
        return "ignored"

    async def credit(
        self,
        session: AsyncSession,
        payment_intent_id: str,
        received_cents: int,
        currency: str,
        purpose: str | None = None,
    ) -> str:
        """Credit a paid PaymentIntent once: only one this install created, only for the amount
        it was created for."""
        top_up = await repository.top_up_of_intent(session, payment_intent_id)
        if top_up is None:
            if purpose == "auto_recharge":
                # The recharge job records it right after Stripe answers: this event overtook
                # that commit. Not 2xx, so Stripe sends it again.
                raise AppError("This payment is not recorded yet.", 409)
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
        if not await repository.move_top_up(
            session,
            top_up.id,
            from_statuses=("pending", "failed"),
            status="succeeded",
            credited_at=utcnow(),
            failure=None,
        ):
            return "already credited"
        note = ("auto-recharge" if top_up.source == "auto" else "card top-up") + (
            f" ({top_up.card})" if top_up.card else ""
        )
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
        failed = await repository.move_top_up(
            session,
            None,
            payment_intent_id=payment_intent_id,
            from_statuses=("pending",),
            status="failed",
            failure=str(why or "The payment failed.")[:255],
        )
        return "failed" if failed else "ignored"

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
        if not await repository.move_top_up(
            session,
            top_up.id,
            from_statuses=("succeeded",),
            status="refunded",
            refunded_at=utcnow(),
            refunded_by=by,
        ):
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
