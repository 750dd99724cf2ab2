"""One number policy for every dial (issue 27, finding 5): emergency, premium-rate, shared-cost
and invalid numbers are refused in the same words by Send Call, the free test call,
`/v1/calls`, a batch, a campaign's CSV file and `CallService.place` itself, while the sandbox's
own numbers (docs/sandbox.md) are callable on the sandbox carrier, in a batch as on Send Call."""

from __future__ import annotations

import io

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from callwright.calls.service import CallOrder
from callwright.campaigns.contacts import Contact, Refused, read_contacts
from callwright.kit.errors import ValidationFailed
from callwright.kit.phone import (
    BAD_NUMBER,
    EMERGENCY,
    PREMIUM,
    SHARED_COST,
    NumberRefused,
    dial_number,
    dialable,
    refusal,
)
from callwright.models import CampaignContact
from callwright.sandbox.numbers import SPECIAL, own_number, own_numbers_on
from tests.factories import add_api_key, add_user, make_client, signed_in

US_PREMIUM = "+19004441234"
SPAIN_SHARED_COST = "+34901123456"
NO_SUCH_AREA = "+11234567890"  # area code 123 is no NANP area code
SAN_FRANCISCO = "+14155552671"
#: docs/sandbox.md: the talking examples and the special callees.
SANDBOX = ["+15551230000", "+15551230004", "+15005550008", "+15005550001"]


@pytest.mark.parametrize(
    ("number", "written", "reason"),
    [
        (US_PREMIUM, None, PREMIUM),
        ("+18005551212", None, None),  # toll-free: the caller pays, not the callee
        (SPAIN_SHARED_COST, None, SHARED_COST),
        (NO_SUCH_AREA, None, BAD_NUMBER),
        (SAN_FRANCISCO, None, None),
        ("+15551230000", None, BAD_NUMBER),  # no country has it: only a carrier's test number
        ("+44112", None, EMERGENCY),  # the UK's 112, in international form
        (SAN_FRANCISCO, "911", EMERGENCY),  # caught on the text as written
    ],
)
def test_the_policy_refuses_with_one_reason(number: str, written: str | None, reason: str) -> None:
    assert refusal(number, written=written, region="US") == reason


def test_the_carriers_test_numbers_are_valid_only_on_the_sandbox() -> None:
    sandbox = own_numbers_on("sandbox")
    assert sandbox is own_number
    assert own_numbers_on("twilio") is None
    for number in [*SANDBOX, *SPECIAL]:
        assert refusal(number, test_numbers=sandbox) is None, number
    # A test number is no exception to the other rules: premium stays premium.
    assert refusal(US_PREMIUM, test_numbers=sandbox) == PREMIUM
    assert refusal(NO_SUCH_AREA, test_numbers=sandbox) == BAD_NUMBER
    assert not own_number("+155512300001")  # one digit too many is no number of the plan


def test_an_agents_transfer_number_can_be_checked_by_the_same_function() -> None:
    assert dialable(SAN_FRANCISCO) == SAN_FRANCISCO
    with pytest.raises(NumberRefused) as refused:
        dialable(US_PREMIUM)
    assert refused.value.reason == PREMIUM
    with pytest.raises(NumberRefused, match=EMERGENCY):
        dial_number("911", "US")
    with pytest.raises(NumberRefused, match=PREMIUM):
        dial_number("1-900-444-1234", "US")


@pytest.mark.parametrize(
    ("number", "reason"),
    [(US_PREMIUM, PREMIUM), ("112", EMERGENCY), (SPAIN_SHARED_COST, SHARED_COST)],
)
async def test_send_call_and_the_test_call_refuse_what_a_batch_refuses(
    app: FastAPI, number: str, reason: str
) -> None:
    client, user = await signed_in(app, "policy@example.com", balance_cents=10_000)
    body = {"userId": user.id, "phone": number, "prompt": "Confirm the cleaning at three pm."}
    async with client:
        sent = await client.api("POST", "send-call", json=body)
    assert sent.status_code == 422, sent.text
    assert sent.json()["errors"]["phone"] == [reason]
    async with make_client(app) as visitor:
        tried = await visitor.api("POST", "test-call", json={"phone_number": number})
    assert tried.status_code == 422, tried.text
    assert tried.json()["errors"]["phone_number"] == [reason]


async def test_v1_calls_refuse_a_premium_number_in_blands_shape(app: FastAPI) -> None:
    user = await add_user(app, email="premium@example.com", balance_cents=10_000)
    key = await add_api_key(app, user)
    async with make_client(app, headers={"authorization": key}) as client:
        response = await client.post(
            "/v1/calls",
            json={"phone_number": "+1 900 444 1234", "task": "Confirm the cleaning at 3 pm."},
        )
    assert response.status_code == 400, response.text
    assert response.json() == {
        "status": "error",
        "message": "Invalid phone number.",
        "errors": {"phone_number": [PREMIUM]},
    }


async def test_a_batch_of_the_sandboxs_own_numbers_is_accepted(app: FastAPI) -> None:
    """docs/sandbox.md's numbers work on Send Call, and now in a batch too."""
    user = await add_user(app, email="sandbox-batch@example.com", balance_cents=10_000)
    key = await add_api_key(app, user)
    rows = [{"phone_number": n} for n in SANDBOX] + [{"phone_number": US_PREMIUM}]
    async with make_client(app, headers={"authorization": key}) as client:
        response = await client.post(
            "/v1/batches",
            json={"base_prompt": "Confirm the cleaning at 3 pm tomorrow.", "call_data": rows},
        )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["contacts"] == len(SANDBOX)
    assert body["refused"] == [{"row": 5, "phone_number": US_PREMIUM, "reason": PREMIUM}]
    async with app.state.db.sessionmaker() as session:
        phones = await session.scalars(
            select(CampaignContact.phone).where(CampaignContact.campaign_id == body["batch_id"])
        )
        assert sorted(phones) == sorted(SANDBOX)


async def test_a_campaign_file_takes_the_sandboxs_numbers_on_the_sandbox_carrier() -> None:
    async def unlisted(phones: list[str]) -> set[str]:
        return set()

    data = io.BytesIO(f"phone\n+15551230000\n{US_PREMIUM}\n{SPAIN_SHARED_COST}\n".encode())
    got = [
        result
        async for batch in read_contacts(
            data, default_region="US", listed=unlisted, test_numbers=own_number
        )
        for result in batch
    ]
    assert got == [
        Contact(2, "+15551230000", {}, None),
        Refused(3, US_PREMIUM, PREMIUM),
        Refused(4, SPAIN_SHARED_COST, SHARED_COST),
    ]


async def test_place_itself_holds_every_call_to_the_policy(app: FastAPI) -> None:
    """Whatever way a call comes (a campaign's dial, the CLI, a path not written yet)."""
    order = CallOrder(kind="cli", to_number=US_PREMIUM, prompt="Hello there.", voice="joe")
    async with app.state.db.sessionmaker() as session:
        with pytest.raises(ValidationFailed) as refused:
            await app.state.calls.service.place(session, order)
    assert refused.value.errors == {"phone_number": [PREMIUM]}
