"""Resending a webhook delivery makes the server post at once, so it is rate-limited per user:
the eleventh resend in a minute answers 429 with Retry-After and the limit's message, and
another user's resends are not counted against it."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.developers.service import RESENDS_PER_MINUTE, TOO_MANY_RESENDS
from tests.developers.receiver import receiving
from tests.developers.test_delivery import add_endpoint, emit_unqueued
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio


async def test_resends_are_rate_limited_per_user(app: FastAPI) -> None:
    client, user = await signed_in(app, "resender@example.com")
    other, other_user = await signed_in(app, "other-resender@example.com")
    async with client, other, receiving() as receiver:
        await add_endpoint(client, receiver.url + "/hook")
        await add_endpoint(other, receiver.url + "/hook")
        [mine] = await emit_unqueued(app, user.id, "call.queued", "c1")
        [theirs] = await emit_unqueued(app, other_user.id, "call.queued", "c2")
        for _ in range(RESENDS_PER_MINUTE):
            resent = await client.api("POST", f"webhook-deliveries/{mine}/resend")
            assert resent.status_code == 200, resent.text
        refused = await client.api("POST", f"webhook-deliveries/{mine}/resend")
        assert refused.status_code == 429
        assert refused.json()["message"] == TOO_MANY_RESENDS
        assert int(refused.headers["retry-after"]) >= 1
        assert (await other.api("POST", f"webhook-deliveries/{theirs}/resend")).status_code == 200
