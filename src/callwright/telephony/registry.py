"""Pick the carrier from the settings."""

from __future__ import annotations

import httpx

from callwright.config import Settings
from callwright.telephony.base import Carrier
from callwright.telephony.carriers.twilio import TwilioCarrier


def build_carrier(
    settings: Settings, *, sandbox_transport: httpx.AsyncBaseTransport | None = None
) -> Carrier:
    if settings.carrier == "twilio":
        return TwilioCarrier(
            account_sid=settings.twilio_account_sid, auth_token=settings.twilio_auth_token
        )
    from callwright.sandbox.network import sandbox_credentials

    sid, token = sandbox_credentials(settings.secret_key)
    # The sandbox speaks Twilio's protocol: the same carrier code, pointed at the local network.
    return TwilioCarrier(
        account_sid=sid,
        auth_token=token,
        base_url=f"{settings.app_url}/sandbox/twilio",
        name="sandbox",
        transport=sandbox_transport,
    )
