from __future__ import annotations

from datetime import datetime
from zoneinfo import available_timezones

from pydantic import BaseModel, Field, field_validator

from callwright.kit.envelope import Ok
from callwright.kit.money import dollars
from callwright.kit.validation import Name, NewPassword
from callwright.models import User


class UserOut(BaseModel):
    """The user as login returns it: {id, name, email, role}."""

    id: int
    name: str
    email: str
    role: str

    @classmethod
    def of(cls, user: User) -> UserOut:
        return cls(id=user.id, name=user.name, email=user.email, role=user.role)


class ProfileOut(UserOut):
    balance: float
    email_verified_at: datetime | None
    created_at: datetime
    has_password: bool
    google_linked: bool
    #: The IANA zone the user reads times in (null until set).
    timezone: str | None = None

    @classmethod
    def of(cls, user: User) -> ProfileOut:
        return cls(
            id=user.id,
            name=user.name,
            email=user.email,
            role=user.role,
            balance=dollars(user.balance_cents),
            email_verified_at=user.email_verified_at,
            created_at=user.created_at,
            has_password=user.password_hash is not None,
            google_linked=user.google_sub is not None,
            timezone=user.timezone,
        )


class ProfileResponse(Ok[ProfileOut]):
    message: str | None = None


class ProfileUpdate(BaseModel):
    """Only the name can change here; other fields (role, balance, e-mail) are ignored."""

    name: Name


class TimezoneUpdate(BaseModel):
    """The zone the user reads times in: an IANA name ("Europe/Berlin")."""

    timezone: str = Field(max_length=64)

    @field_validator("timezone")
    @classmethod
    def _known(cls, value: str) -> str:
        name = value.strip()
        if name not in available_timezones():
            raise ValueError(f"{name[:64]!r} is not a known time zone (e.g. Europe/Berlin).")
        return name


class PasswordChange(BaseModel):
    old_password: str
    new_password: NewPassword
    new_password_confirmation: str
