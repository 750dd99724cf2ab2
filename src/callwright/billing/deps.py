"""The app's billing singletons as request dependencies."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.billing.payments import Payments
from callwright.billing.service import Billing


def _billing(request: Request) -> Billing:
    billing: Billing = request.app.state.calls.billing
    return billing


def _payments(request: Request) -> Payments:
    payments: Payments = request.app.state.payments
    return payments


BillingDep = Annotated[Billing, Depends(_billing)]
PaymentsDep = Annotated[Payments, Depends(_payments)]
