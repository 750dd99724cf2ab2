"""Card top-ups against a real localstripe (the local Stripe emulator) on a free port: the
PaymentIntent is created and charged there, and the webhook the emulator signs and sends is
caught and handed to the app, once and again. The balance rises once per PaymentIntent."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.billing import localstripe
from callwright.billing.payments import Payments
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.models import BillingProfile, Call, LedgerEntry, TopUp
from tests.factories import ApiClient, add_user, outbox, queued_call, signed_in

VISA = {"number": "4242424242424242", "exp_month": "12", "exp_year": "2030", "cvc": "123"}


class Hooks:
    """Catches what localstripe posts to its registered webhook."""

    def __init__(self) -> None:
        self.received: list[tuple[bytes, str]] = []
        self.arrived = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = dict(scope["headers"])
        self.received.append((body, headers[b"stripe-signature"].decode()))
        self.arrived.set()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def next(self) -> tuple[bytes, str]:
        await asyncio.wait_for(self.arrived.wait(), 15)
        self.arrived.clear()
        return self.received[-1]


@pytest.fixture
async def stripe_app(app: FastAPI, localstripe_base: str) -> AsyncIterator[tuple[FastAPI, Hooks]]:
    """The test app with its payments pointed at the emulator, whose webhooks a catcher gets."""
    settings: Settings = app.state.settings
    port = free_port()
    local = settings.model_copy(
        update={
            "stripe_api_base": localstripe_base,
            "stripe_js_url": f"{localstripe_base}/js.stripe.com/v3/",
            "app_url": f"http://127.0.0.1:{port}",
        }
    )
    assert local.stripe_webhook_url.endswith("/api/v1/billing/stripe-webhook")
    hooks = Hooks()
    payments: Payments = app.state.payments
    payments.configure(local)
    try:
        async with serving(hooks, port):
            await asyncio.to_thread(localstripe.register_webhook, local)
            yield app, hooks
    finally:
        payments.configure(settings)


async def pay(
    client: ApiClient, base: str, amount: float, card: dict[str, str] = VISA, *, save: bool = False
) -> Any:
    """What the Billing page does: a top-up, the card through a SetupIntent (the way the
    emulator's Stripe.js posts it, with the publishable key), then the confirmation."""
    created = await client.api("POST", "billing/top-ups", json={"amount": amount})
    assert created.status_code == 201, created.text
    assert created.json()["client_secret"].startswith("pi_")
    setup_response = await client.api("POST", "billing/card-setups", json={"save_card": save})
    setup = setup_response.json()["client_secret"]
    async with httpx.AsyncClient() as browser:
        seti = setup.split("_secret_")[0]
        confirmed = await browser.post(
            f"{base}/v1/setup_intents/{seti}/confirm",
            json={
                "key": "pk_test_localstripe",
                "client_secret": setup,
                "use_stripe_sdk": True,
                "payment_method_data": {"type": "card", "card": card},
            },
        )
    method = confirmed.json()["payment_method"]
    top_up_id = created.json()["data"]["id"]
    return await client.api(
        "POST",
        f"billing/top-ups/{top_up_id}/confirm",
        json={"payment_method_id": method, "save_card": save},
    )


async def webhook(client: ApiClient, body: bytes, signature: str) -> httpx.Response:
    return await client.post(
        "/api/v1/billing/stripe-webhook",
        content=body,
        headers={"stripe-signature": signature, "content-type": "application/json"},
    )


async def balance(client: ApiClient) -> float:
    response = await client.api("GET", "billing")
    return float(response.json()["data"]["available"])


async def test_a_paid_top_up_is_credited_once_by_the_signed_webhook(
    stripe_app: tuple[FastAPI, Hooks], localstripe_base: str
) -> None:
    app, hooks = stripe_app
    client, user = await signed_in(app, "payer@example.com", balance_cents=100)
    async with client:
        paid = await pay(client, localstripe_base, 25)
        assert paid.status_code == 200, paid.text
        assert paid.json()["payment_status"] == "succeeded"
        assert paid.json()["data"]["card"] == "Visa ending in 4242"
        # The browser's word credits nothing: still pending until Stripe's webhook.
        assert await balance(client) == 1.0
        body, signature = await hooks.next()
        event = json.loads(body)
        assert event["type"] == "payment_intent.succeeded"

        first = await webhook(client, body, signature)
        assert first.status_code == 200, first.text
        assert first.json()["outcome"] == "credited"
        assert await balance(client) == 26.0

        # The same event replayed, and a second event for the same PaymentIntent (re-signed
        # the way Stripe signs), credit nothing more.
        again = await webhook(client, body, signature)
        assert again.json()["outcome"] == "already credited"
        twin = dict(event, id="evt_duplicate")
        twin_body = json.dumps(twin).encode()
        twin_signature = sign(twin_body, app.state.payments.settings.stripe_webhook_secret)
        duplicate = await webhook(client, twin_body, twin_signature)
        assert duplicate.json()["outcome"] == "already credited"
        assert await balance(client) == 26.0

        async with app.state.db.sessionmaker() as session:
            entries = (
                await session.scalars(
                    select(LedgerEntry).where(
                        LedgerEntry.user_id == user.id, LedgerEntry.kind == "top_up"
                    )
                )
            ).all()
        assert [(e.amount_cents, e.payment_intent_id) for e in entries] == [
            (2500, event["data"]["object"]["id"])
        ]
        status = await client.api("GET", f"billing/top-ups/{paid.json()['data']['id']}")
        assert status.json()["data"]["status"] == "succeeded"
        receipts = [m for m in await outbox(app, "payer@example.com") if m.kind == "receipt"]
        assert len(receipts) == 1
        assert "$25.00" in receipts[0].subject

        history = (await client.api("GET", "billing/history")).json()
        assert history["data"][0]["kind"] == "top_up"
        assert history["data"][0]["amount"] == 25.0
        assert history["data"][0]["balance_after"] == 26.0
        exported = await client.api("GET", "billing/history/export")
        rows = list(csv.reader(io.StringIO(exported.text)))
        assert rows[0][:3] == ["date", "kind", "amount"]
        assert rows[1][1:4] == ["top_up", "25.00", "26.00"]


def sign(body: bytes, secret: str) -> str:
    import hashlib
    import hmac

    stamp = int(time.time())
    digest = hmac.new(secret.encode(), b"%d." % stamp + body, hashlib.sha256).hexdigest()
    return f"t={stamp},v1={digest}"


async def test_a_webhook_with_a_bad_signature_is_refused(
    stripe_app: tuple[FastAPI, Hooks], localstripe_base: str
) -> None:
    app, hooks = stripe_app
    client, _user = await signed_in(app, "forger@example.com")
    async with client:
        await pay(client, localstripe_base, 10)
        body, signature = await hooks.next()
        forged = body.replace(b'"amount": 1000', b'"amount": 100000')
        assert (await webhook(client, forged, signature)).status_code == 400
        wrong_key = sign(body, "whsec_not_the_secret")
        refused = await webhook(client, body, wrong_key)
        assert refused.status_code == 400
        assert refused.json()["message"] == "Invalid Stripe signature."
        assert (await webhook(client, body, "")).status_code == 400
        assert await balance(client) == 0.0


async def test_amounts_outside_the_limits_are_refused_with_clear_messages(
    stripe_app: tuple[FastAPI, Hooks],
) -> None:
    app, _hooks = stripe_app
    client, _user = await signed_in(app, "limits@example.com")
    async with client:
        low = await client.api("POST", "billing/top-ups", json={"amount": 4.99})
        assert low.status_code == 422
        assert low.json()["errors"]["amount"] == ["The smallest top-up is $5."]
        high = await client.api("POST", "billing/top-ups", json={"amount": 1000.01})
        assert high.json()["errors"]["amount"] == ["The largest top-up is $1,000."]
        odd = await client.api("POST", "billing/top-ups", json={"amount": 5.001})
        assert odd.json()["errors"]["amount"] == ["Use at most 2 decimal places."]
        summary = (await client.api("GET", "billing")).json()["data"]
        assert (summary["top_up_min"], summary["top_up_max"]) == (5, 1000)
        assert summary["stripe_js_url"].endswith("/js.stripe.com/v3/")
        assert summary["test_mode"] is True


async def test_an_admin_refunds_a_top_up_once_and_never_more_than_the_balance(
    stripe_app: tuple[FastAPI, Hooks], localstripe_base: str
) -> None:
    app, hooks = stripe_app
    await add_user(app, email="boss@example.com", role="admin")
    client, user = await signed_in(app, "refunded@example.com")
    admin, _ = await signed_in(app, "boss2@example.com", role="admin")
    async with client, admin:
        first = (await pay(client, localstripe_base, 20)).json()["data"]["id"]
        await webhook(client, *(await hooks.next()))
        second = (await pay(client, localstripe_base, 30)).json()["data"]["id"]
        await webhook(client, *(await hooks.next()))
        assert await balance(client) == 50.0

        listed = (await admin.api("GET", f"admin/users/{user.id}/top-ups")).json()["data"]
        assert [t["id"] for t in listed] == [second, first]

        refunded = await admin.api("POST", f"admin/top-ups/{first}/refund", json={})
        assert refunded.status_code == 200, refunded.text
        assert refunded.json()["balance"] == 30.0
        assert refunded.json()["data"]["status"] == "refunded"
        twice = await admin.api("POST", f"admin/top-ups/{first}/refund", json={})
        assert twice.status_code == 409
        assert twice.json()["message"] == "This top-up was refunded already."

        # Spend part of the balance: the $30 top-up can no longer be refunded in full.
        async with app.state.db.sessionmaker() as session:
            await app.state.calls.billing.set_balance(session, user.id, 1000, by=None)
            await session.commit()
        too_much = await admin.api("POST", f"admin/top-ups/{second}/refund", json={})
        assert too_much.status_code == 409
        assert "cannot be refunded" in too_much.json()["message"]
        assert await balance(client) == 10.0

        history = (await client.api("GET", "billing/history")).json()["data"]
        refunds = [e for e in history if e["kind"] == "refund"]
        assert [e["amount"] for e in refunds] == [-20.0]
        async with app.state.db.sessionmaker() as session:
            top_up = await session.get(TopUp, second)
            assert top_up is not None
            assert top_up.status == "succeeded"
        as_user = await client.api("POST", f"admin/top-ups/{second}/refund", json={})
        assert as_user.status_code == 403


async def end_call(app: FastAPI, user_id: int, seconds: int) -> None:
    """A call of `seconds` placed and settled: its hold taken, then charged and released, in a
    unit of work that runs its after-commit work (as the end of a real call does)."""
    call = await queued_call(app, user_id, max_duration=2)
    async for session in app.state.db.session():
        loaded = await session.get(Call, call.id)
        assert loaded is not None
        loaded.duration_seconds = seconds
        await app.state.calls.billing.settle(session, loaded)
    await app.state.jobs.drain()


async def test_auto_recharge_fires_once_when_a_call_takes_the_balance_under_the_threshold(
    stripe_app: tuple[FastAPI, Hooks], localstripe_base: str
) -> None:
    app, hooks = stripe_app
    client, user = await signed_in(app, "auto@example.com")
    async with client:
        off = await client.api(
            "PUT", "billing/auto-recharge", json={"enabled": True, "threshold": 20, "amount": 25}
        )
        assert off.status_code == 409  # no saved card yet
        paid = await pay(client, localstripe_base, 20, save=True)
        assert paid.status_code == 200, paid.text
        await webhook(client, *(await hooks.next()))
        summary = (await client.api("GET", "billing")).json()["data"]
        assert summary["saved_card"] == "Visa ending in 4242"
        on = await client.api(
            "PUT", "billing/auto-recharge", json={"enabled": True, "threshold": 20, "amount": 25}
        )
        assert on.status_code == 200, on.text

        await end_call(app, user.id, 61)  # $20.00 - $0.49: under the $20 threshold
        body, signature = await hooks.next()
        event = json.loads(body)
        assert event["data"]["object"]["metadata"]["purpose"] == "auto_recharge"
        assert (await webhook(client, body, signature)).json()["outcome"] == "credited"
        assert await balance(client) == 44.51
        assert (await webhook(client, body, signature)).json()["outcome"] == "already credited"

        # Under the threshold again within the period: no second recharge.
        async with app.state.db.sessionmaker() as session:
            await app.state.calls.billing.set_balance(session, user.id, 1000, by=None)
            await session.commit()
        await end_call(app, user.id, 61)
        await asyncio.sleep(1.5)  # the emulator sends its webhooks after a second
        assert len(hooks.received) == 2
        assert await balance(client) == 9.51
        history = (await client.api("GET", "billing/history")).json()["data"]
        assert [e["note"] for e in history if e["kind"] == "top_up"] == [
            "auto-recharge (Visa ending in 4242)",
            "card top-up (Visa ending in 4242)",
        ]


async def test_a_refused_auto_recharge_emails_the_user_and_turns_itself_off(
    stripe_app: tuple[FastAPI, Hooks], localstripe_base: str
) -> None:
    app, hooks = stripe_app
    client, user = await signed_in(app, "declined@example.com")
    async with client:
        await pay(client, localstripe_base, 20, save=True)
        await webhook(client, *(await hooks.next()))
        await client.api(
            "PUT", "billing/auto-recharge", json={"enabled": True, "threshold": 20, "amount": 25}
        )
        async with app.state.db.sessionmaker() as session:
            profile = await session.get(BillingProfile, user.id)
            assert profile is not None
            profile.payment_method_id = "pm_card_chargeCustomerFail"  # the emulator declines it
            await session.commit()
        await end_call(app, user.id, 61)
        summary = (await client.api("GET", "billing")).json()["data"]["auto_recharge"]
        assert summary["enabled"] is False
        assert summary["failure"]
        mails = [m for m in await outbox(app, "declined@example.com") if m.kind != "receipt"]
        assert [m.kind for m in mails] == ["auto-recharge-failed"]
        assert await balance(client) == 19.51
