"""An agent's (and a call's) transfer settings: where the agent may hand the callee to a person
(Bland's `transfer_phone_number`, or `transfer_list`: departments and their numbers, "default"
the one used when the callee names none) and how (cold, or warm: the person first hears a
one-line summary). Every number is read with `kit.phone` and held to the number policy, the
sandbox's own numbers allowed on the sandbox carrier (docs/actions.md, "Transfer")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from callwright.kit import phone

TransferMode = Literal["cold", "warm"]
#: The department a transfer goes to when the callee (or the model) names none.
DEFAULT_DEPARTMENT = "default"
DEPARTMENTS_MAX = 20
DEPARTMENT_NAME_MAX = 64


def optional_number(value: str | None) -> str | None:
    """A transfer number in E.164; empty: none."""
    if value is None or not value.strip():
        return None
    return phone.transfer_number(value)


def departments(value: Mapping[str, str] | None) -> dict[str, str] | None:
    """Departments -> numbers: names trimmed (1 to 64 characters, each once whatever its
    case), numbers in E.164; empty: none."""
    if not value:
        return None
    if len(value) > DEPARTMENTS_MAX:
        raise ValueError(f"At most {DEPARTMENTS_MAX} departments may be listed.")
    out: dict[str, str] = {}
    for name, number in value.items():
        name = " ".join(name.split())
        if not name or len(name) > DEPARTMENT_NAME_MAX:
            raise ValueError("Each department's name must be 1 to 64 characters long.")
        if name.casefold() in (n.casefold() for n in out):
            raise ValueError(f'The department "{name}" is listed twice.')
        try:
            out[name] = phone.transfer_number(number)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return out


def target(
    number: str | None, listed: Mapping[str, str] | None, department: str | None
) -> tuple[str, str] | None:
    """Where a transfer asked for `department` goes: (department, number). A listed department
    by its name (any case); else the list's "default", else the transfer number, else the
    list's first; None when the call has nowhere to transfer to."""
    listed = listed or {}
    wanted = (department or "").strip().casefold()
    for name, to in listed.items():
        if wanted and name.casefold() == wanted:
            return name, to
    for name, to in listed.items():
        if name.casefold() == DEFAULT_DEPARTMENT:
            return name, to
    if number:
        return DEFAULT_DEPARTMENT, number
    return next(iter(listed.items()), None)
