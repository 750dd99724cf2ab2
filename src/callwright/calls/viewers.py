"""Who may watch a public test call without an account: the browser that placed it, holding the
visitor secret that `POST test-call` issued (only its SHA-256 is stored, on the call, and it is
cleared when the call is finalised). The socket server (`realtime.server.Realtime`) asks this at
a visitor's handshake, for the call's state so far, and in its periodic re-check."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from callwright.calls import repository as calls
from callwright.calls.flows import RECONCILE_GRACE
from callwright.kit.db import Database
from callwright.kit.security import constant_time_equals, random_token, sha256_hex
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.realtime.events import CallState, TranscriptLine
from callwright.telephony.state import CallStatus

#: After the call is finalised, how long its visitor's socket is kept (for the closing events).
LINGER = timedelta(seconds=10)


def issue_secret() -> tuple[str, str]:
    """A new visitor secret and the hash to store on the call."""
    secret = random_token()
    return secret, sha256_hex(secret)


def _until(call: Call) -> datetime:
    """The latest moment the call's visitor socket may stay: a little after its end, or after
    the reconciler would have closed it."""
    if call.finalized_at is not None:
        return call.finalized_at + LINGER
    return call.queued_at + timedelta(minutes=call.max_duration) + RECONCILE_GRACE + LINGER


class CallViewers:
    """Implements `realtime.server.Visitors` for the test calls."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def admit(self, call_id: str, secret: str) -> datetime | None:
        """Until when a socket with this secret may watch the call; None when the secret is
        wrong, or spent (the call is finalised), or the call is not a test call."""
        async with self.db.sessionmaker() as session:
            call = await calls.get(session, call_id)
        if call is None or call.kind != "test" or call.viewer_token_hash is None:
            return None
        if not constant_time_equals(call.viewer_token_hash, sha256_hex(secret)):
            return None
        until = _until(call)
        return until if until > utcnow() else None

    async def watchable(self, call_ids: Collection[str]) -> dict[str, datetime]:
        """Of these calls, those still watchable, with their deadline."""
        async with self.db.sessionmaker() as session:
            rows = await calls.watched(session, call_ids)
        now = utcnow()
        return {call.id: until for call in rows if (until := _until(call)) > now}

    async def state(self, call_id: str) -> CallState | None:
        """The call so far, for a socket that joined late: its status, whether (and how long
        ago) it was answered, and its transcript as `GET call/{id}/transcript` gives it."""
        async with self.db.sessionmaker() as session:
            call = await calls.get(session, call_id)
            if call is None:
                return None
            lines = await calls.transcript_lines(session, call_id)
        return CallState(
            call_id=call.id,
            status=CallStatus(call.status),
            answered=call.answered_at is not None,
            # By the server's clock, so the browser's timer needs no agreement between clocks.
            connected_seconds=(
                None
                if call.answered_at is None
                else max(0, int((utcnow() - call.answered_at).total_seconds()))
            ),
            finalized=call.finalized_at is not None,
            lines=[
                TranscriptLine(
                    user=row.speaker, text=row.text, created_at=row.created_at, seq=row.seq
                )
                for row in lines
            ],
        )
