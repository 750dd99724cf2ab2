"""A contacts upload stores each batch of 500 rows with one INSERT, not one a row: stored one
statement a row (ORM objects with their ids read back), SQLite took 16 times longer through the
API than the reading itself (docs/performance.md, the contacts import through the API)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event, func, select

from callwright.models import CampaignContact
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

ROWS = 1_200  # three batches of at most 500


@pytest.fixture
def inserts(app: FastAPI) -> Iterator[list[int]]:
    """The number of rows each INSERT into campaign_contacts carried, as the driver saw them."""
    seen: list[int] = []
    engine = app.state.db.engine.sync_engine

    def count(_conn: Any, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO CAMPAIGN_CONTACTS"):
            seen.append(len(params) if isinstance(params, list) else 1)

    event.listen(engine, "before_cursor_execute", count)
    yield seen
    event.remove(engine, "before_cursor_execute", count)


async def test_each_batch_of_contacts_is_one_insert(app: FastAPI, inserts: list[int]) -> None:
    client, _ = await signed_in(app, "bulk@example.com")
    async with client:
        agent = await client.api(
            "POST",
            "agents",
            json={"name": "R", "prompt": "Confirming {{name}}'s visit.", "voice": "joe"},
        )
        created = await client.api(
            "POST", "campaigns", json={"name": "Bulk", "agent_id": agent.json()["data"]["id"]}
        )
        cid = created.json()["data"]["id"]
        text = io.StringIO()
        text.write("phone,name\n")
        for n in range(ROWS):
            text.write(f"+1415{2_000_000 + n:07d},Person {n}\n")
        files = {"file": ("contacts.csv", text.getvalue().encode(), "text/csv")}
        loaded = await client.api("POST", f"campaigns/{cid}/contacts", files=files)
        assert loaded.status_code == 200, loaded.text
        assert loaded.json()["data"]["accepted"] == ROWS
        listed = (await client.api("GET", f"campaigns/{cid}/contacts?per_page=1")).json()
        first = listed["data"][0]
        assert (first["row"], first["phone_number"], first["variables"]["name"]) == (
            2,
            "+14152000000",
            "Person 0",
        )
        assert first["status"] == "pending"
    assert sum(inserts) == ROWS
    assert len(inserts) <= 3, f"{len(inserts)} INSERT statements for {ROWS} contacts"
    async with app.state.db.sessionmaker() as session:
        stored = await session.scalar(
            select(func.count()).where(CampaignContact.campaign_id == cid)
        )
    assert stored == ROWS
