"""A campaign hears about its calls: when one ends, its contact is done, opted out, or due
again after its retry policy's wait; the campaign completes when no contact is left; and the
dialler is asked to fill the freed slot at once. Subscribed to a campaign call's end
(`calls.lifecycle`), told in the transaction that finalised the call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls.lifecycle import CallLife
from callwright.campaigns import rules
from callwright.campaigns.dialler import finish_if_done
from callwright.campaigns.events import CampaignEvents
from callwright.compliance import repository as do_not_call
from callwright.kit.db import on_commit
from callwright.kit.time import utcnow
from callwright.models import Call, Campaign, CampaignContact


class CampaignProgress:
    def __init__(self, events: CampaignEvents, nudge: Callable[[], Awaitable[None]]) -> None:
        self.events = events
        #: Queues a dialler tick (after the commit).
        self.nudge = nudge

    def subscribe(self, life: CallLife) -> None:
        """Every campaign call's end."""
        life.subscribe("ended", self.ended, only=lambda call: call.campaign_contact_id is not None)

    async def ended(self, session: AsyncSession, call: Call) -> None:
        contact = await session.get(CampaignContact, call.campaign_contact_id)
        campaign = await session.get(Campaign, call.campaign_id) if call.campaign_id else None
        if contact is None or campaign is None or contact.last_call_id != call.id:
            return
        now = utcnow()
        contact.outcome = call.end_reason
        # The callee asked not to be called again during this call (the agent listed them).
        if await do_not_call.listed_during(session, call.id):
            contact.status, contact.next_attempt_at = "opted-out", None
        elif campaign.state == "cancelled":
            contact.status, contact.next_attempt_at = "done", None
        else:
            policy = rules.retry_policy(campaign.retries or {})
            contact.status, contact.next_attempt_at = rules.after_attempt(
                call.end_reason, contact.attempts, policy, now
            )
        await session.flush()
        completed = campaign.state in ("running", "paused") and await finish_if_done(
            session, campaign, self.events, now
        )
        if not completed:  # completing tells the screens itself
            self.events.changed(session, campaign)
        on_commit(session, self.nudge)
