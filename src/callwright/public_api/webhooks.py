"""The call lifecycle's webhooks: `call.queued`, `call.started` and `call.ended`, written to the
outbox in the transaction that made the change (delivered after it commits), to the user's
subscribed endpoints and to the call's own `webhook` URL. The data is what `GET /v1/calls`
and `GET /v1/calls/{id}` answer. Calls nobody owns (the public test call) report nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import repository as calls
from callwright.config import Settings
from callwright.developers.outbox import Outbox
from callwright.models import Call
from callwright.public_api import serialize
from callwright.public_api.schemas import V1CallDetail, V1ListedCall


def detail_json(data: dict[str, Any]) -> dict[str, Any]:
    """The detail as JSON (ISO 8601 times, `from` by its name)."""
    return V1CallDetail.model_validate(data).model_dump(mode="json", by_alias=True)


class CallWebhooks:
    """Implements `calls.lifecycle.CallReporter` with the webhook outbox."""

    def __init__(self, settings: Settings, outbox: Outbox) -> None:
        self.settings = settings
        self.outbox = outbox

    async def _emit(
        self, session: AsyncSession, call: Call, event: str, data: dict[str, Any]
    ) -> None:
        if call.user_id is None:
            return
        await self.outbox.emit(
            session,
            user_id=call.user_id,
            event=event,
            data=data,
            call_id=call.id,
            call_webhook=call.webhook_url,
        )

    async def queued(self, session: AsyncSession, call: Call) -> None:
        if call.user_id is None:
            return
        data = V1ListedCall.model_validate(serialize.listed(call)).model_dump(
            mode="json", by_alias=True
        )
        data["request_data"] = serialize.as_strings(call.variables)
        await self._emit(session, call, "call.queued", data)

    async def started(self, session: AsyncSession, call: Call) -> None:
        if call.user_id is None:
            return
        await self._emit(session, call, "call.started", _json(serialize.started(call)))

    async def ended(self, session: AsyncSession, call: Call) -> None:
        if call.user_id is None:
            return
        lines = await calls.transcript(session, call.id)
        data = serialize.detail(call, lines, self.settings.app_url)
        await self._emit(session, call, "call.ended", detail_json(data))


def _json(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in data.items()}
