"""Shapes of the admin API (spec section 7), with the spec's field names and messages."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from callwright.billing.service import MAX_BALANCE_CENTS
from callwright.calls.service import CallKind
from callwright.kit.envelope import Envelope, Ok, Paged
from callwright.kit.money import dollars
from callwright.kit.pagination import Pagination
from callwright.kit.validation import Email, Name
from callwright.models import User
from callwright.telephony.state import AnsweredBy, CallOutcome

#: The admin password policy. The spec's pattern asks for 6+ characters, its message for 8; we
#: enforce the message (the stricter reading): 8 to 256 characters with a lower-case letter, an
#: upper-case letter and a digit.
WEAK_PASSWORD = (
    "Password must contain at least one uppercase letter, one lowercase letter, one number, "  # noqa: S105
    "and be at least 8 characters long"
)
_PASSWORD_RE = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,256}$", re.DOTALL)
#: The most a balance or a single top-up may be (a typo guard, not a business limit).
MAX_DOLLARS = MAX_BALANCE_CENTS // 100


def _password(value: str) -> str:
    if not _PASSWORD_RE.match(value):
        raise ValueError(WEAK_PASSWORD)
    return value


def _dollars(message: str, *, positive: bool) -> BeforeValidator:
    """Dollars with at most 2 decimals, as whole cents; `message` when too small."""

    def parse(value: object) -> int:
        if isinstance(value, bool) or value is None or value == "":
            raise ValueError(message)
        try:
            amount = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError("Must be a number") from None
        except OverflowError:  # an integer past any float
            too_small = isinstance(value, int) and value < 0
            raise ValueError(
                message if too_small else f"Must be at most ${MAX_DOLLARS:,}"
            ) from None
        if not math.isfinite(amount):
            raise ValueError("Must be a number")
        # Bounded before scaling: 1e308 dollars is finite, its cents are not.
        if amount > MAX_DOLLARS:
            raise ValueError(f"Must be at most ${MAX_DOLLARS:,}")
        if amount < -MAX_DOLLARS:
            raise ValueError(message)
        cents = round(amount * 100)
        if abs(amount * 100 - cents) > 1e-6:
            raise ValueError("Use at most 2 decimal places")
        if cents < (1 if positive else 0):
            raise ValueError(message)
        if cents > MAX_DOLLARS * 100:
            raise ValueError(f"Must be at most ${MAX_DOLLARS:,}")
        return cents

    return BeforeValidator(parse)


AdminPassword = Annotated[str, AfterValidator(_password)]
#: A balance in dollars, received as a number and held as cents.
BalanceCents = Annotated[
    int,
    _dollars("Balance cannot be negative", positive=False),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": MAX_DOLLARS}),
]
AmountCents = Annotated[
    int,
    _dollars("Amount must be greater than 0", positive=True),
    WithJsonSchema({"type": "number", "minimum": 0.01, "maximum": MAX_DOLLARS}),
]
RoleName = Literal["user", "admin"]


class AdminUserOut(BaseModel):
    id: int
    name: str
    email: str
    balance: float
    role: str
    email_verified_at: datetime | None
    created_at: datetime

    @classmethod
    def of(cls, user: User) -> AdminUserOut:
        return cls(
            id=user.id,
            name=user.name,
            email=user.email,
            balance=dollars(user.balance_cents),
            role=user.role,
            email_verified_at=user.email_verified_at,
            created_at=user.created_at,
        )


class UsersPage(Paged[AdminUserOut]):
    pass


class UserResponse(Ok[AdminUserOut]):
    message: str


class AddUserIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    name: Name
    email: Email
    password: AdminPassword
    #: Dollars (the spec's default new-user balance is $10), held as cents once validated.
    balance: BalanceCents = 10
    role: RoleName = "user"


class UpdateUserIn(BaseModel):
    """Only the fields that changed; a missing or null field is left as it is."""

    name: Name | None = None
    email: Email | None = None
    password: AdminPassword | None = None
    balance: BalanceCents | None = None
    role: RoleName | None = None


class BalanceIn(BaseModel):
    amount: AmountCents


class BalanceData(BaseModel):
    user_id: int
    balance: float
    added: float


class BalanceResponse(Ok[BalanceData]):
    message: str


class AdminStats(BaseModel):
    totalCalls: int
    totalUsers: int
    totalUsedBalance: float
    totalCallDuration: float
    avgCallDuration: float
    successRate: float
    totalActiveUsers: int
    avgCallsPerUser: float


class AdminStatsOut(Ok[AdminStats]):
    pass


class DailyPoint(BaseModel):
    date: str
    calls: int
    minutes: float
    recorded_percent: float


class Bucket(BaseModel):
    label: str
    calls: int


class StatusCount(BaseModel):
    status: str
    calls: int


class OutcomeCount(BaseModel):
    outcome: CallOutcome
    calls: int


class Recording(BaseModel):
    recorded: int
    not_recorded: int


class WeekdayPoint(BaseModel):
    day: str
    calls: int
    minutes: float


class HourPoint(BaseModel):
    hour: int
    calls: int


class Charts(BaseModel):
    daily: list[DailyPoint]
    duration_buckets: list[Bucket]
    statuses: list[StatusCount]
    #: Ended calls per outcome (live calls have none yet).
    outcomes: list[OutcomeCount]
    recording: Recording
    weekdays: list[WeekdayPoint]
    hours: list[HourPoint]


class ChartsOut(Ok[Charts]):
    pass


class CallUser(BaseModel):
    id: int
    name: str
    email: str


class AdminCall(BaseModel):
    call_id: str
    kind: CallKind
    user: CallUser | None
    from_: str = Field(alias="from")
    to: str
    status: str
    outcome: CallOutcome | None
    answered_by: AnsweredBy | None
    call_length: int
    created_at: datetime
    cost: float | None
    record_url: str | None
    recording_url: str | None

    model_config = ConfigDict(populate_by_name=True)


class AdminCallsPage(Envelope):
    calls: list[AdminCall]
    pagination: Pagination


class TopUser(BaseModel):
    id: int
    name: str
    email: str
    call_count: int


class TopUsersOut(Ok[list[TopUser]]):
    pass


class ReportOut(BaseModel):
    id: int
    call_id: str
    user_id: int | None
    username: str | None
    email: str | None
    reason: str
    status: str
    created_at: datetime


class ReportsPage(Envelope):
    reports: list[ReportOut]
    pagination: Pagination
