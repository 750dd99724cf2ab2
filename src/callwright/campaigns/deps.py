"""The campaigns' events (the dialler's) as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.campaigns.events import CampaignEvents


def _events(request: Request) -> CampaignEvents:
    events: CampaignEvents = request.app.state.dialler.events
    return events


CampaignEventsDep = Annotated[CampaignEvents, Depends(_events)]
