"""The campaigns' events (the dialler's) as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.campaigns.events import CampaignEvents
from callwright.kit.deps import from_app

CampaignEventsDep = Annotated[CampaignEvents, Depends(from_app("dialler.events"))]
