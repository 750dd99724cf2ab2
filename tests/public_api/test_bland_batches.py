"""`/v1/batches` driven by Bland's own SDK (`bland` 0.3.0): a batch of the SDK's shape
(`base_prompt` + `call_data`) becomes a campaign that calls its good rows and reports the bad
one; the SDK lists it, reads its details (parameters, analysis, calls) and stops another; the
newer docs' shape (`global` + `call_objects`) is taken too."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from bland.client import BlandAI
from bland.core.api_error import ApiError
from sqlalchemy import select

from callwright.calls.service import CallOrder
from callwright.campaigns.contacts import BAD_NUMBER
from callwright.kit.security import unseal
from callwright.models import Campaign, CampaignContact
from tests.factories import add_api_key, add_user
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROMPT = (
    "You are Sarah from {{business}}. You are calling to remind the customer about their "
    "{{service}} tomorrow. Ask if the time still works for them."
)
DECLINES = "+15005550104"  # a person who declines politely (docs/sandbox.md)


async def run(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(fn, *args, **kwargs)


async def _sdk(live: Live) -> tuple[BlandAI, str]:
    user = await add_user(
        live.app, email=f"batch-{uuid.uuid4().hex[:8]}@example.com", balance_cents=5_000
    )
    key = await add_api_key(live.app, user)
    return BlandAI(api_key=key, base_url=live.url, timeout=30), key


def _send(sdk: BlandAI, rows: list[dict[str, Any]], label: str) -> Any:
    return sdk.batches.send(
        base_prompt=PROMPT,
        call_data=rows,  # type: ignore[arg-type]
        label=label,
        # The SDK requires these of every batch; a batch takes its prompt from base_prompt.
        phone_number=DECLINES,
        task="unused",
        temperature=None,
        tools=None,
        interruption_threshold=None,
        max_duration=1,
        voice_id=1,
    )


async def test_the_bland_sdk_sends_lists_reads_and_stops_batches(live: Live) -> None:
    sdk, _ = await _sdk(live)
    rows = [
        {"phone_number": DECLINES, "business": "Bright Dental", "service": "cleaning"},
        {"phone_number": "12345", "business": "Bright Dental", "service": "cleaning"},
    ]
    sent = await run(_send, sdk, rows, "Week 48")
    assert sent.message == "Batch created successfully."
    extra = sent.dict()
    assert extra["contacts"] == 1
    assert [(r["row"], r["reason"]) for r in extra["refused"]] == [(2, BAD_NUMBER)]

    dialler = live.app.state.dialler
    assert (await dialler.tick()).placed == 1
    async with live.app.state.db.sessionmaker() as session:
        contact = await session.scalar(
            select(CampaignContact).where(CampaignContact.campaign_id == sent.batch_id)
        )
    assert contact is not None
    assert contact.last_call_id is not None
    call = await live.wait_finalized(contact.last_call_id)
    assert call.prompt.startswith("You are Sarah from Bright Dental.")
    assert call.variables == {"business": "Bright Dental", "service": "cleaning"}
    assert call.max_duration == 1

    listed = await run(sdk.batches.list)
    assert listed.status == "success"
    mine = next(b for b in listed.batches if b.batch_id == sent.batch_id)
    assert (mine.label, mine.base_prompt, mine.call_params.max_duration) == ("Week 48", PROMPT, 1)

    details = await run(sdk.batches.details, sent.batch_id)
    assert details.batch_params.id == sent.batch_id
    assert details.analysis.total_calls == 1
    assert [(c.to, c.call_id, c.completed) for c in details.call_data] == [
        (DECLINES, call.id, True)
    ]

    second = await run(_send, sdk, [*rows[:1], {**rows[0], "phone_number": "+15005550109"}], "B")
    stopped = await run(sdk.batches.stop, second.batch_id)
    assert (stopped.status, stopped.num_calls, stopped.batch_id) == ("success", 2, second.batch_id)
    with pytest.raises(ApiError) as again:
        await run(sdk.batches.stop, second.batch_id)
    assert again.value.status_code == 400
    assert (await dialler.tick()).placed == 0
    with pytest.raises(ApiError) as unknown:
        await run(sdk.batches.details, str(uuid.uuid4()))
    assert unknown.value.status_code == 404


async def test_the_newer_shape_and_its_refusals(live: Live) -> None:
    _, key = await _sdk(live)
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as api:
        made = await api.post(
            "/v1/batches",
            json={
                "global": {"task": PROMPT, "max_duration": 2, "request_data": {"business": "Acme"}},
                "call_objects": [
                    {"phone_number": "+15005550113", "service": "check-up"},
                    {"phone_number": "+15005550114", "service": "cleaning", "business": "Zen"},
                ],
                "start_time": "2027-01-04 09:00:00",
                "timezone": "America/New_York",
            },
        )
        assert made.status_code == 200, made.text
        bad_rows = await api.post(
            "/v1/batches", json={"base_prompt": PROMPT, "call_data": [{"phone_number": "911"}]}
        )
        no_task = await api.post("/v1/batches", json={"call_data": [{"phone_number": DECLINES}]})
        nothing = await api.post("/v1/batches", json={"base_prompt": PROMPT})
        short = await api.post(
            "/v1/batches",
            json={"base_prompt": "Say hi.", "call_data": [{"phone_number": DECLINES}]},
        )
    assert made.json()["contacts"] == 2
    async with live.app.state.db.sessionmaker() as session:
        campaign = await session.get(Campaign, made.json()["batch_id"])
        contacts = list(
            await session.scalars(
                select(CampaignContact)
                .where(CampaignContact.campaign_id == made.json()["batch_id"])
                .order_by(CampaignContact.file_row)
            )
        )
    assert campaign is not None
    assert campaign.state == "scheduled"
    assert campaign.start_at is not None
    assert campaign.start_at.isoformat() == "2027-01-04T14:00:00+00:00"
    assert [c.variables for c in contacts] == [
        {"business": "Acme", "service": "check-up"},
        {"business": "Zen", "service": "cleaning"},
    ]
    assert bad_rows.status_code == 400
    assert bad_rows.json()["message"] == "No call in the batch can be placed."
    assert no_task.status_code == 400
    assert "base_prompt" in no_task.json()["errors"]
    assert nothing.status_code == 400
    assert nothing.json()["status"] == "error"
    assert short.status_code == 400, "a prompt every call would refuse: refused with the batch"
    assert short.json()["errors"]["base_prompt"] == [
        "The prompt must be at least 10 characters long"
    ]


TOOL = {
    "name": "check_calendar",
    "description": "Whether a day is free.",
    "url": "https://api.example.com/calendar",
    "headers": {"Authorization": "Bearer s3cret"},
    "input_schema": {"type": "object", "properties": {"day": {"type": "string"}}},
}
#: A start a month ahead: the batch is kept, not dialled (its orders are built here).
LATER = f"{datetime.now(UTC) + timedelta(days=30):%Y-%m-%d %H:%M:%S} +00:00"
LOOKUP = {
    "url": "https://crm.example.com/customers/{{phone_number}}",
    "response_data": [{"name": "customer", "data": "$.name"}],
}


async def test_a_batch_takes_the_actions_of_a_call_globally_and_per_call(live: Live) -> None:
    """`/v1/batches` honours the same action fields as `/v1/calls` (the SDK's top-level
    `transfer_list`, `tools`, `dynamic_data`; `precall_dtmf_sequence` and `transfer_mode` in
    `global`), and a call object's own over them; each call's order has them (calls.builder)."""
    sdk, key = await _sdk(live)
    rows = [
        {"phone_number": "+15005550113", "business": "Acme", "service": "cleaning"},
        {
            "phone_number": "+15005550114",
            "business": "Zen",
            "service": "check-up",
            "transfer_phone_number": "+15005550011",
            "precall_dtmf_sequence": "9",
            "tools": [TOOL | {"description": "The row's own calendar."}],
        },
    ]
    sent = await run(
        sdk.batches.send,
        base_prompt=PROMPT + " Greet {{customer}}.",
        call_data=rows,
        label="Actions",
        phone_number=DECLINES,
        task="unused",
        temperature=None,
        tools=[TOOL],
        interruption_threshold=None,
        transfer_list={"default": "+15005550012", "sales": "+15005550013"},
        dynamic_data=[LOOKUP],
        start_time=LATER,
    )
    assert sent.dict()["contacts"] == 2, "dynamic data's variable is not asked of each row"
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as api:
        made = await api.post(
            "/v1/batches",
            json={
                "global": {
                    "task": PROMPT,
                    "transfer_phone_number": "+15005550011",
                    "transfer_mode": "warm",
                    "precall_dtmf_sequence": "1w2",
                },
                "call_objects": [{"phone_number": "+15005550113", "business": "A", "service": "B"}],
                "start_time": LATER,
            },
        )
        bad_row = await api.post(
            "/v1/batches",
            json={
                "base_prompt": PROMPT,
                "call_objects": [
                    {"phone_number": DECLINES, "business": "A", "service": "B"},
                    {"phone_number": DECLINES, "precall_dtmf_sequence": "12x"},
                ],
            },
        )
        tool_id = await api.post(
            "/v1/batches",
            json={
                "base_prompt": PROMPT,
                "tools": ["TL-123"],
                "call_data": [{"phone_number": DECLINES}],
            },
        )
    assert made.status_code == 200, made.text
    (first, second), (third,) = [
        await _orders(live, batch) for batch in (sent.batch_id, made.json()["batch_id"])
    ]
    secret = live.app.state.settings.secret_key
    assert first.transfer_list == {"default": "+15005550012", "sales": "+15005550013"}
    assert first.transfer_number is None
    assert [t["name"] for t in first.tools or ()] == ["check_calendar"]
    assert unseal(secret, (first.tools or [])[0]["headers"]["Authorization"]) == "Bearer s3cret"
    assert [d["url"] for d in first.dynamic_data or ()] == [LOOKUP["url"]]
    assert (second.transfer_number, second.precall_dtmf_sequence) == ("+15005550011", "9")
    assert [t["description"] for t in second.tools or ()] == ["The row's own calendar."]
    assert second.variables == {"business": "Zen", "service": "check-up"}, "not a variable"
    assert (third.transfer_number, third.transfer_mode) == ("+15005550011", "warm")
    assert third.precall_dtmf_sequence == "1w2"
    assert bad_row.status_code == 400
    assert list(bad_row.json()["errors"]) == ["call_objects[1].precall_dtmf_sequence"]
    assert tool_id.status_code == 400
    assert "send the tool object inline" in tool_id.json()["errors"]["tools"][0]


async def _orders(live: Live, batch_id: str) -> list[CallOrder]:
    """The order of each of the batch's calls, as the dialler builds it when it dials."""
    dialler = live.app.state.dialler
    async with live.app.state.db.sessionmaker() as session:
        campaign = await session.get(Campaign, batch_id)
        assert campaign is not None
        contacts = await session.scalars(
            select(CampaignContact)
            .where(CampaignContact.campaign_id == batch_id)
            .order_by(CampaignContact.file_row)
        )
        return [await dialler._order(session, campaign, contact) for contact in contacts]


async def test_a_batch_refuses_what_it_would_ignore_naming_each_field(live: Live) -> None:
    """A batch honours its declared settings; the fields only `/v1/calls` carries, Bland's
    refused ones and unknown keys are each a 400 naming them, at the top level and in `global`;
    what a batch's calls do anyway (`record: true`) and the SDK's top-level number are taken."""
    sdk, key = await _sdk(live)
    rows = [{"phone_number": DECLINES, "business": "Bright Dental", "service": "cleaning"}]
    body: dict[str, Any] = {"base_prompt": PROMPT, "call_data": rows, "max_duration": 1}
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        refused = await client.post(
            "/v1/batches",
            json=body
            | {
                "record": False,
                "model": "turbo",
                "recrod": True,
                "global": {"language": "es", "summary_prompt": "Sum it up", "temperature": 0.5},
            },
        )
        taken = await client.post(
            "/v1/batches",
            json=body | {"record": True, "model": "base", "phone_number": DECLINES},
        )
    assert refused.status_code == 400, refused.text
    errors = refused.json()["errors"]
    assert set(errors) == {"record", "model", "recrod", "global.language", "global.summary_prompt"}
    assert "not carried to a batch's calls yet" in errors["record"][0]
    assert "not a field of `POST /v1/batches`" in errors["recrod"][0]
    assert errors["global.language"][0].startswith("`global.language`: ")
    assert taken.status_code == 200, taken.text
    with pytest.raises(ApiError) as sdk_refused:
        await run(
            sdk.batches.send,
            base_prompt=PROMPT,
            call_data=rows,
            phone_number=DECLINES,
            task="unused",
            temperature=None,
            tools=None,
            interruption_threshold=None,
            model="turbo",
        )
    assert sdk_refused.value.status_code == 400
