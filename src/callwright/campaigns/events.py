"""What a campaign tells the world: the webhook events `campaign.started`, `campaign.paused` and
`campaign.completed` (written to the outbox in the transaction that made the change), and a
`campaign-updated` socket message to its owner after each commit that changed its progress, so
the screens' counters move without polling."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.developers.outbox import Outbox
from callwright.kit.db import on_commit
from callwright.models import Campaign
from callwright.realtime.events import CampaignUpdated
from callwright.realtime.server import Publisher, user_room


def summary(campaign: Campaign) -> dict[str, Any]:
    """The campaign as its events carry it."""
    return {
        "campaign_id": campaign.id,
        "name": campaign.name,
        "state": campaign.state,
        "reason": campaign.state_reason,
        "agent_id": campaign.agent_id,
    }


class CampaignEvents:
    def __init__(self, outbox: Outbox | None, publish: Publisher | None) -> None:
        self.outbox = outbox
        self.publish = publish

    async def _emit(self, session: AsyncSession, campaign: Campaign, event: str) -> None:
        if self.outbox is not None:
            await self.outbox.emit(
                session, user_id=campaign.user_id, event=event, data=summary(campaign)
            )
        self.changed(session, campaign)

    async def started(self, session: AsyncSession, campaign: Campaign) -> None:
        await self._emit(session, campaign, "campaign.started")

    async def paused(self, session: AsyncSession, campaign: Campaign) -> None:
        await self._emit(session, campaign, "campaign.paused")

    async def completed(self, session: AsyncSession, campaign: Campaign) -> None:
        await self._emit(session, campaign, "campaign.completed")

    def changed(self, session: AsyncSession, campaign: Campaign) -> None:
        """Tell the owner's screens after the commit (they fetch the counters again)."""
        if self.publish is None:
            return
        publish, room = self.publish, user_room(campaign.user_id)
        event = CampaignUpdated(campaign_id=campaign.id, state=campaign.state)

        async def send() -> None:
            await publish(room, event)

        on_commit(session, send)
