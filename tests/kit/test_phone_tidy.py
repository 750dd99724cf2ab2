"""Numbers as people write them are tidied to E.164 (issue 20), read in the default region when
they have no "+"; what is no number is still refused with the spec's message."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI

from callwright.kit.phone import (
    DIAL_EMPTY,
    DIAL_FORMAT,
    TEST_CALL_FORMAT,
    PhoneRegion,
    default_region,
    dial_number,
    landing_number,
    tidy,
)
from callwright.sandbox.numbers import own_number


@pytest.mark.parametrize(
    ("written", "region", "number"),
    [
        ("+1 555 123 0000", "US", "+15551230000"),
        ("(555) 123-0000", "US", "+15551230000"),
        ("555.123.0000", "US", "+15551230000"),
        ("1 (555) 123-0000", "US", "+15551230000"),
        ("+44 20 7946 0000", "US", "+442079460000"),
        ("0044 20 7946 0000", "US", "+442079460000"),
        ("020 7946 0000", "GB", "+442079460000"),
        ("447911123456", "US", "+447911123456"),  # not a US number: the digits after "+"
        ("+1\u00a0555\u00a0123\u00a00000", "US", "+15551230000"),
    ],
)
def test_tidy_reads_numbers_as_written(written: str, region: str, number: str) -> None:
    assert tidy(written, region) == number
    # +1 555 numbers are the sandbox's own (no country has them): callable on its carrier.
    assert dial_number(written, region, own_number) == number


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("  ", DIAL_EMPTY),
        ("call me", DIAL_FORMAT),
        ("555-0100", DIAL_FORMAT),  # a local number without its area code
        ("+999 123 4567", DIAL_FORMAT),  # no country has code 999
        ("+1 555 123 0000 x12", DIAL_FORMAT),
        ("+1234567890123456", DIAL_FORMAT),
    ],
)
def test_what_is_no_number_is_still_refused(written: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        dial_number(written, "US")


def test_the_landing_number_is_tidied_too() -> None:
    assert landing_number("(555) 123-0000", own_number) == "+15551230000"
    with pytest.raises(ValueError, match="valid phone number"):
        landing_number("12")
    assert TEST_CALL_FORMAT.startswith("Please enter a valid phone number")


async def test_each_request_reads_numbers_in_the_apps_region() -> None:
    inner = FastAPI()

    @inner.get("/region")
    async def region() -> dict[str, str]:
        return {"region": default_region(), "number": dial_number("020 7946 0000")}

    transport = httpx.ASGITransport(app=PhoneRegion(inner, region="GB"))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        answer = (await client.get("/region")).json()
    assert answer == {"region": "GB", "number": "+442079460000"}
    assert default_region() == "US"  # outside a request: the default
