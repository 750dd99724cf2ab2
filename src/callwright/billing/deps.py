"""The app's Billing as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.billing.service import Billing


def _billing(request: Request) -> Billing:
    billing: Billing = request.app.state.calls.billing
    return billing


BillingDep = Annotated[Billing, Depends(_billing)]
