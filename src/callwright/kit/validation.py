"""Reusable field types with the spec's rules and messages."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

EMAIL_RE = re.compile(r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$")
PASSWORD_MIN = 8
PASSWORD_MAX = 256


def normalize_email(value: str) -> str:
    value = value.strip().lower()
    local, _, _domain = value.partition("@")
    if len(value) > 254 or len(local) > 64 or not EMAIL_RE.match(value):
        raise ValueError("Invalid email format")
    return value


def required_name(value: str) -> str:
    """`value` trimmed; blank, it is refused with the spec's message."""
    value = value.strip()
    if not value:
        raise ValueError("The name field is required.")
    return value


def _name(value: str) -> str:
    value = required_name(value)
    if len(value) > 255:
        raise ValueError("The name must be 255 characters or less.")
    return value


def _password(value: str) -> str:
    if len(value) < PASSWORD_MIN:
        raise ValueError(f"The password must be at least {PASSWORD_MIN} characters.")
    if len(value) > PASSWORD_MAX:
        raise ValueError(f"The password may not be greater than {PASSWORD_MAX} characters.")
    return value


Email = Annotated[str, Field(max_length=320), AfterValidator(normalize_email)]
#: A new password: 8 to 256 characters, used exactly as typed (ASVS 6.2: no composition rules).
NewPassword = Annotated[str, AfterValidator(_password)]
#: A person's name: trimmed, 1 to 255 characters.
Name = Annotated[str, AfterValidator(_name)]
#: A thing's name (an agent, an API key): trimmed and not blank; its field sets the length.
Label = Annotated[str, AfterValidator(required_name)]
