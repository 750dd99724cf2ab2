"""The do-not-call store: a user's list and the global list both keep a number from being
dialled; adding is idempotent (the first entry and its evidence stay) and lists are separate."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from callwright.compliance import do_not_call
from tests.factories import add_user

pytestmark = pytest.mark.asyncio

NUMBER = "+14155550100"


async def test_a_users_list_and_the_global_list_both_apply(app: FastAPI) -> None:
    ada = await add_user(app, email="ada@example.com")
    bob = await add_user(app, email="bob@example.com")
    async with app.state.db.sessionmaker() as session:
        assert await do_not_call.listed(session, ada.id, NUMBER) is None
        entry, new = await do_not_call.add(session, user_id=ada.id, phone=NUMBER, source="manual")
        assert new
        assert entry.user_id == ada.id
        await session.commit()
    async with app.state.db.sessionmaker() as session:
        found = await do_not_call.listed(session, ada.id, NUMBER)
        assert found is not None
        assert found.user_id == ada.id
        # Another user's list is not Bob's.
        assert await do_not_call.listed(session, bob.id, NUMBER) is None
        await do_not_call.add(session, user_id=None, phone=NUMBER, source="import")
        await session.commit()
    async with app.state.db.sessionmaker() as session:
        on_global = await do_not_call.listed(session, bob.id, NUMBER)
        assert on_global is not None
        assert on_global.user_id is None
        # Ada's own entry is the one she is told about.
        own = await do_not_call.listed(session, ada.id, NUMBER)
        assert own is not None
        assert own.user_id == ada.id


async def test_adding_again_keeps_the_first_entry_and_its_evidence(app: FastAPI) -> None:
    ada = await add_user(app, email="ada@example.com")
    async with app.state.db.sessionmaker() as session:
        first, new = await do_not_call.add(
            session, user_id=ada.id, phone=NUMBER, source="opt-out", evidence="Stop calling me."
        )
        again, again_new = await do_not_call.add(
            session, user_id=ada.id, phone=NUMBER, source="manual", note="twice"
        )
        await session.commit()
    assert new
    assert not again_new
    assert again.id == first.id
    assert again.evidence == "Stop calling me."
    assert again.note is None
