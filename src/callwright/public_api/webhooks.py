"""The call lifecycle's webhooks, written to the outbox in the transaction that made the change
(delivered after it commits): `call.queued`, `call.started`, `call.action` and `call.ended` to
the user's subscribed endpoints (Standard Webhooks), and the call's own `webhook` URL in
Bland's shape: the call object, once, when the call is over and analysed. The data is what
`GET /v1/calls` and `GET /v1/calls/{id}` answer. Calls nobody owns (the public test call)
report nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import repository as calls
from callwright.calls.lifecycle import CallLife, owned
from callwright.config import Settings
from callwright.developers.outbox import Outbox
from callwright.models import Call
from callwright.public_api import serialize
from callwright.public_api.schemas import V1CallDetail, V1ListedCall
from callwright.realtime.events import CallAction


def detail_json(data: dict[str, Any]) -> dict[str, Any]:
    """The detail as JSON (ISO 8601 times, `from` by its name)."""
    return V1CallDetail.model_validate(data).model_dump(mode="json", by_alias=True)


class CallWebhooks:
    """A call's life (calls.lifecycle) in the webhook outbox."""

    def __init__(self, settings: Settings, outbox: Outbox) -> None:
        self.settings = settings
        self.outbox = outbox

    def subscribe(self, life: CallLife) -> None:
        """Every owned call's `call.queued`, `call.started` and `call.ended`."""
        life.subscribe("queued", self.queued, only=owned)
        life.subscribe("started", self.started, only=owned)
        life.subscribe("ended", self.ended, only=owned)
        life.subscribe_actions(self.acted, only=owned)
        life.subscribe("analyzed", self.post_call, only=_with_webhook)

    async def _emit(
        self, session: AsyncSession, call: Call, event: str, data: dict[str, Any]
    ) -> None:
        assert call.user_id is not None, "subscribed for owned calls"
        await self.outbox.emit(
            session,
            user_id=call.user_id,
            event=event,
            data=data,
            call_id=call.id,
        )

    async def queued(self, session: AsyncSession, call: Call) -> None:
        data = V1ListedCall.model_validate(serialize.listed(call)).model_dump(
            mode="json", by_alias=True
        )
        data["request_data"] = serialize.as_strings(call.variables)
        await self._emit(session, call, "call.queued", data)

    async def started(self, session: AsyncSession, call: Call) -> None:
        await self._emit(session, call, "call.started", _json(serialize.started(call)))

    async def ended(self, session: AsyncSession, call: Call) -> None:
        lines = await calls.transcript(session, call.id)
        data = serialize.detail(call, lines, self.settings.app_url)
        await self._emit(session, call, "call.ended", detail_json(data))

    async def acted(self, session: AsyncSession, call: Call, action: CallAction) -> None:
        data = {"call_id": call.id, **action.model_dump(mode="json")}
        await self._emit(session, call, "call.action", data)

    async def post_call(self, session: AsyncSession, call: Call) -> None:
        """The call's own `webhook`, as Bland sends it: the call object (what `GET
        /v1/calls/{id}` answers, its summary included), once, when the call is over and
        analysed."""
        assert call.user_id is not None, "subscribed for owned calls"
        assert call.webhook_url, "subscribed for calls with a webhook"
        lines = await calls.transcript(session, call.id)
        data = detail_json(serialize.detail(call, lines, self.settings.app_url))
        await self.outbox.post_call(
            session, user_id=call.user_id, call_id=call.id, url=call.webhook_url, data=data
        )


def _with_webhook(call: Call) -> bool:
    return owned(call) and bool(call.webhook_url)


def _json(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in data.items()}
