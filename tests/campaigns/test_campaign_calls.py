"""A whole campaign over the sandbox (sped up): 40 contacts across its scenarios (people who
talk, no answer, busy, a failed line, voicemail, a hang-up, an opt-out), concurrency 3, one
retry. Every contact ends with the right outcome, the opt-out lands on the do-not-call list, a
listed number is never dialled (refused at import, or skipped when listed later), and the
calls' own times show that no more than 3 were ever in progress at once.

It runs about three minutes, so it runs once per suite: in the test command, in the PostgreSQL
pass (tests/conftest.py SHARED_TO_POSTGRESQL), where it also exercises the dialler's campaign row
lock under real calls; run alone, on either database."""

from __future__ import annotations

import asyncio
import io

import pytest
from sqlalchemy import select

from callwright.agents import service as agents
from callwright.campaigns import contacts as reading
from callwright.campaigns import service as campaigns
from callwright.campaigns.dialler import Dialler
from callwright.compliance import do_not_call
from callwright.models import Call, Campaign, CampaignContact, DoNotCall
from callwright.sandbox.numbers import persona_for
from tests.campaigns.spans import most_at_once, story
from tests.factories import add_user
from tests.live import Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROMPT = (
    "You are Sarah from Bright Dental. You are calling {{name}} to remind them about their "
    "cleaning appointment tomorrow at 3 pm. Ask if the time still works for them."
)
SPECIAL = {
    "+15005550001": ("done", "no-answer", 2),
    "+15005550002": ("done", "busy", 2),
    "+15005550003": ("done", "failed", 2),
    "+15005550004": ("done", "voicemail", 1),
    "+15005550005": ("done", "callee-hung-up", 1),
    "+15005550008": ("opted-out", "completed", 1),
}
LISTED_BEFORE = "+15005550199"  # on the list before the import: refused
LISTED_AFTER = "+15005550198"  # listed after the import: skipped by the dialler
#: People who talk (the sum of the digits picks the scenario, docs/sandbox.md): one of each
#: of the longer conversations, the rest the short ones (declines politely, wrong person), so
#: the whole campaign stays a few minutes long.
SHORT = ("not interested", "wrong person")
PEOPLE = [
    "+15005550100",  # busy now: asks for a call back
    "+15005550102",  # curious: asks the price, agrees
    "+15005550103",  # interested: agrees
    *[
        number
        for number in (f"+15005550{n}" for n in range(104, 180))
        if persona_for(number).label.startswith(SHORT)
    ][:30],
]


def _csv() -> bytes:
    rows = ["Name,Phone"]
    numbers = [*SPECIAL, LISTED_BEFORE, LISTED_AFTER, *PEOPLE]
    rows += [f"Person {i},{number}" for i, number in enumerate(numbers)]
    return ("\n".join(rows) + "\n").encode()


async def test_a_40_contact_campaign(live: Live) -> None:
    app = live.app
    dialler: Dialler = app.state.dialler
    user = await add_user(app, email="campaigns@example.com", balance_cents=100_000)
    async for session in app.state.db.session():
        agent = await agents.create(
            session,
            user.id,
            {"name": "Reminder", "prompt": PROMPT, "voice": "joe", "max_duration": 2},
        )
        await do_not_call.add(session, user_id=user.id, phone=LISTED_BEFORE, source="manual")
        campaign = await campaigns.create(
            session,
            user.id,
            {
                "name": "Cleanings",
                "agent_id": agent.id,
                "days": list(range(7)),
                "calling_window": "00:00-24:00",
                "concurrency": 3,
                "pace_per_minute": 60,
                "retries": {
                    outcome: {"attempts": 1, "wait_minutes": 0}
                    for outcome in ("no-answer", "busy", "failed")
                },
            },
        )
        loaded = await campaigns.load_contacts(
            session,
            campaign,
            io.BytesIO(_csv()),
            default_region="US",
            default_zone="America/New_York",
        )
        campaign_id = campaign.id
    assert (loaded.report.accepted, loaded.report.refused_count) == (40, 1)
    assert [(r.value, r.reason) for r in loaded.report.refused] == [(LISTED_BEFORE, reading.LISTED)]
    async for session in app.state.db.session():
        await do_not_call.add(session, user_id=user.id, phone=LISTED_AFTER, source="manual")
        campaign = await campaigns.owned(session, user.id, campaign_id)
        await campaigns.act(session, campaign, "start", dialler.events)

    state = await _run(live, dialler, campaign_id)
    assert state == "completed"

    async with app.state.db.sessionmaker() as session:
        contacts = {
            c.phone: c
            for c in await session.scalars(
                select(CampaignContact).where(CampaignContact.campaign_id == campaign_id)
            )
        }
        calls = list(await session.scalars(select(Call).where(Call.campaign_id == campaign_id)))
        opted = await session.scalar(
            select(DoNotCall).where(DoNotCall.user_id == user.id, DoNotCall.phone == "+15005550008")
        )
    assert len(contacts) == 40
    for phone, expected in SPECIAL.items():
        c = contacts[phone]
        assert (c.status, c.outcome, c.attempts) == expected, phone
    skipped = contacts[LISTED_AFTER]
    assert (skipped.status, skipped.outcome, skipped.attempts) == ("skipped", "do-not-call", 0)
    for phone in PEOPLE:
        c = contacts[phone]
        told = "\n".join(await story(app, c.last_call_id))
        # Reached and talked. A loaded 2-core box can leave a gap inside the agent's reply (its
        # next sentence synthesised later than the last one played) that the simulated callee
        # takes for the end of the agent's turn; that conversation can end with the callee's
        # own goodbye and hang-up before the agent's: still a contact reached, not retried.
        assert (c.status, c.attempts) == ("done", 1), f"{phone}:\n{told}"
        assert c.outcome in ("completed", "callee-hung-up"), f"{phone}:\n{told}"
        assert "user: " in told, f"{phone}: the callee was heard:\n{told}"
    assert opted is not None
    assert opted.source == "opt-out"
    assert opted.call_id == contacts["+15005550008"].last_call_id
    dialled = [c.to_number for c in calls]
    assert LISTED_BEFORE not in dialled
    assert LISTED_AFTER not in dialled
    assert len(calls) == 39 + 3  # every contact once but the skipped one, three retried
    assert all(c.variables and c.variables["name"].startswith("Person ") for c in calls)
    spans = [(c.queued_at, c.finalized_at) for c in calls if c.finalized_at is not None]
    assert len(spans) == len(calls)
    assert most_at_once(spans) <= 3


async def _run(live: Live, dialler: Dialler, campaign_id: str, within: float = 600) -> str:
    """Drive the dialler until the campaign ends (the app's own ticks run too)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        await dialler.tick()
        async with live.app.state.db.sessionmaker() as session:
            state = await session.scalar(select(Campaign.state).where(Campaign.id == campaign_id))
        if state in ("completed", "cancelled", "paused"):
            return str(state)
        await asyncio.sleep(0.5)
    raise AssertionError("the campaign did not end in time")
