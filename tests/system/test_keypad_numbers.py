"""The sandbox's keypad numbers in the number plan the app shows (`GET system/sandbox-numbers`):
the IVR's line is its menu, the press-a-key callee's lines say which key it presses."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.sandbox.numbers import ACME_MENU
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio


async def test_the_keypad_numbers_are_in_the_plan(app: FastAPI) -> None:
    client, _ = await signed_in(app, "keys@example.com")
    async with client:
        plan = (await client.api("GET", "system/sandbox-numbers")).json()["data"]
    rows = {row["number"]: row for row in plan["special"]}
    ivr, confirms = rows["+15005550020"], rows["+15005550021"]
    assert (ivr["kind"], ivr["outcome"], ivr["lines"]) == ("ivr", "completed", [ACME_MENU.prompt])
    assert ivr["lines"][0].startswith("Thanks for calling Acme Supplies. For sales, press 1.")
    assert (confirms["kind"], confirms["lines"]) == (
        "presses-keys",
        ["[press 1]", "Thank you. Goodbye."],
    )
