"""Money is held in integer cents; these are its two faces in the API and in messages."""

from __future__ import annotations


def dollars(cents: int) -> float:
    """Cents as the API's dollar amount (a number with two decimals): 1234 -> 12.34."""
    return round(cents / 100, 2)


def money(cents: int) -> str:
    """Cents as the messages write them, without the sign: 1234 -> "12.34"."""
    return f"{cents / 100:.2f}"
