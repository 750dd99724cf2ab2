"""A call's events: each is a row in the call's log and, once its transaction commits, a
`webhook-event` to the owner's and the admins' sockets, what the live transcript shows (and,
for the public test call, to the socket of the visitor who placed it)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import repository as calls
from callwright.kit.db import on_commit
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.realtime.server import ADMIN_ROOM, Publisher, user_room, visitor_room

CONNECTED = "Call connected"
CLOSING = "Closing call stream"
#: The socket event for a line in flight (see CallEvents.caption).
LIVE_CAPTION = "transcript-live"


class CallEvents:
    def __init__(self, publish: Publisher) -> None:
        self.publish = publish

    async def record(
        self,
        session: AsyncSession,
        call: Call,
        message: str,
        category: str,
        *,
        completed: bool = False,
        **extra: Any,
    ) -> None:
        """Write the event in `session`; publish it after the commit (never a rolled-back one)."""
        await calls.add_event(session, call.id, category, message, utcnow())
        data = {
            "callId": call.id,
            "message": message,
            "category": category,
            "completed": completed,
            **extra,
        }
        self.announce(session, call, "webhook-event", data)

    def announce(self, session: AsyncSession, call: Call, event: str, data: dict[str, Any]) -> None:
        """Publish `event` to the call's watchers (`rooms`) after the commit."""
        rooms = self.rooms(call.id, call.user_id)

        async def send() -> None:
            for room in rooms:
                await self.publish(room, event, data)

        on_commit(session, send)

    def rooms(self, call_id: str, user_id: int | None) -> list[str]:
        """Who watches a call: the admins and its owner; for a call without one (the public
        test call), the visitor who placed it (only a socket admitted with that call's visitor
        secret is ever in its room)."""
        owner = user_room(user_id) if user_id is not None else visitor_room(call_id)
        return [ADMIN_ROOM, owner]

    async def caption(self, call_id: str, user_id: int | None, data: dict[str, Any]) -> None:
        """Words being spoken on a call (`transcript-live`): published at once, not stored
        (the line's final form is a stored event)."""
        for room in self.rooms(call_id, user_id):
            await self.publish(room, LIVE_CAPTION, {"callId": call_id, **data})
