"""A call's events: each is a row in the call's log and, once its transaction commits, a
`webhook-event` to the owner's and the admins' sockets, what the live transcript shows (and,
for the public test call, to the socket of the visitor who placed it)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import repository as calls
from callwright.kit.db import on_commit
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.realtime.events import CaptionEvent, EventCategory, LiveEvent, WebhookEvent
from callwright.realtime.server import ADMIN_ROOM, Publisher, user_room, visitor_room

CONNECTED = "Call connected"
CLOSING = "Closing call stream"


class CallEvents:
    def __init__(self, publish: Publisher) -> None:
        self.publish = publish

    async def record(
        self,
        session: AsyncSession,
        call: Call,
        message: str,
        category: EventCategory,
        *,
        completed: bool = False,
    ) -> None:
        """Write the event in `session`; publish it after the commit (never a rolled-back one)."""
        event = WebhookEvent(
            call_id=call.id, message=message, category=category, completed=completed
        )
        await self.keep(session, call, event)

    async def keep(self, session: AsyncSession, call: Call, event: WebhookEvent) -> None:
        """`record` for an event that carries more than its message (a transcript line, the
        closing)."""
        action = event.action.model_dump(mode="json") if event.action else None
        await calls.add_event(session, call.id, event.category, event.message, utcnow(), action)
        self.announce(session, call, event)

    def announce(self, session: AsyncSession, call: Call, event: LiveEvent) -> None:
        """Publish `event` to the call's watchers (`rooms`) after the commit."""
        rooms = self.rooms(call.id, call.user_id)

        async def send() -> None:
            for room in rooms:
                await self.publish(room, event)

        on_commit(session, send)

    def rooms(self, call_id: str, user_id: int | None) -> list[str]:
        """Who watches a call: the admins and its owner; for a call without one (the public
        test call), the visitor who placed it (only a socket admitted with that call's visitor
        secret is ever in its room)."""
        owner = user_room(user_id) if user_id is not None else visitor_room(call_id)
        return [ADMIN_ROOM, owner]

    async def caption(self, user_id: int | None, event: CaptionEvent) -> None:
        """Words being spoken on a call (`transcript-live`): published at once, not stored
        (the line's final form is a stored event)."""
        for room in self.rooms(event.call_id, user_id):
            await self.publish(room, event)
