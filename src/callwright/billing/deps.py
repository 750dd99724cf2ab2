"""The app's billing singletons as request dependencies."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.billing.payments import Payments
from callwright.billing.service import Billing
from callwright.kit.deps import from_app

BillingDep = Annotated[Billing, Depends(from_app("calls.billing"))]
PaymentsDep = Annotated[Payments, Depends(from_app("payments"))]
