"""The landing page's test call, watched without an account (issue 16, part 4): the secret that
placing it returns admits a socket to that call's events only, and ends with the call."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
import socketio
from sqlalchemy import update

from callwright.calls import repository as calls
from callwright.calls.domain import Calls
from callwright.calls.events import CLOSING
from callwright.calls.viewers import issue_secret
from callwright.kit.security import sha256_hex
from callwright.kit.time import utcnow
from callwright.models import Call
from callwright.realtime.events import BalanceUpdate, WebhookEvent
from callwright.realtime.server import ADMIN_ROOM, MAX_STATE_REQUESTS, user_room
from tests.factories import add_user, queued_call
from tests.realtime.conftest import Server, Socket, close, open_socket

pytestmark = pytest.mark.asyncio

BUSY = "+15005550002"  # the sandbox's busy line: rings half a second, then busy


async def _test_call(server: Server) -> tuple[Call, str]:
    """A test call with its visitor secret, stored queued and not dialled."""
    secret, digest = issue_secret()
    call = await queued_call(
        server.app, None, kind="test", viewer_token_hash=digest, to_number="+15551230000"
    )
    return call, secret


async def _visitor(server: Server, call_id: str, secret: str) -> Socket:
    return await open_socket(server, {"visitor": secret, "callId": call_id})


async def _refused(server: Server, auth: dict[str, Any] | None) -> None:
    try:
        s = await open_socket(server, auth)
    except socketio.exceptions.ConnectionError:
        return
    await close(s)
    raise AssertionError(f"a socket with {auth!r} was admitted")


async def _record(server: Server, call: Call, message: str, **extra: Any) -> None:
    domain: Calls = server.app.state.calls
    async for session in server.app.state.db.session():
        row = await calls.get(session, call.id)
        assert row is not None
        event = WebhookEvent(
            call_id=row.id, message=message, category="call", completed=False, **extra
        )
        await domain.events.keep(session, row, event)


async def _state(socket: Socket) -> Any:
    return await socket.client.call("call-state", timeout=5)


async def test_a_visitor_sees_its_own_test_call_and_nothing_else(server: Server) -> None:
    ada = await add_user(server.app, email="ada@example.com", balance_cents=10_000)
    mine, my_secret = await _test_call(server)
    theirs, their_secret = await _test_call(server)
    users_call = await queued_call(server.app, ada.id)
    me = await _visitor(server, mine.id, my_secret)
    them = await _visitor(server, theirs.id, their_secret)
    try:
        await _record(server, mine, "Assistant: Hi, this is Callwright.", speaker="assistant")
        await _record(server, theirs, "Assistant: Hello from the other call.")
        await _record(server, users_call, "Assistant: Ada's call.")
        await server.realtime.publish(
            user_room(ada.id), BalanceUpdate(user_id=ada.id, new_balance=1.0)
        )
        await server.realtime.publish(
            ADMIN_ROOM,
            WebhookEvent(call_id="x", message="Call connected", category="call", completed=False),
        )
        await asyncio.sleep(0.4)
        assert me.events == [
            (
                "webhook-event",
                {
                    "callId": mine.id,
                    "message": "Assistant: Hi, this is Callwright.",
                    "category": "call",
                    "completed": False,
                    "speaker": "assistant",
                },
            )
        ]
        assert [(e, d["callId"]) for e, d in them.events] == [("webhook-event", theirs.id)]
        # The state so far is its own call's.
        state = await _state(me)
        assert state["callId"] == mine.id
        assert state["status"] == "queued"
        assert state["answered"] is False
        assert state["finalized"] is False
        assert state["connectedSeconds"] is None
        assert state["lines"] == []
        async with server.app.state.db.sessionmaker() as session:
            await session.execute(
                update(Call)
                .where(Call.id == mine.id)
                .values(status="in-progress", answered_at=utcnow() - timedelta(seconds=12))
            )
            await calls.add_line(session, mine.id, "assistant", "Hi, this is Callwright.", utcnow())
            await calls.add_line(session, theirs.id, "assistant", "Not yours.", utcnow())
            await calls.add_line(session, mine.id, "user", "Who is calling?", utcnow())
            await session.commit()
        state = await _state(me)
        assert state["answered"] is True
        assert 12 <= state["connectedSeconds"] <= 14
        assert [(x["seq"], x["user"], x["text"]) for x in state["lines"]] == [
            (1, "assistant", "Hi, this is Callwright."),
            (2, "user", "Who is calling?"),
        ]
        assert all(x["created_at"].endswith("Z") for x in state["lines"])
        # A socket cannot make the database answer without end.
        for _ in range(MAX_STATE_REQUESTS - 2):
            assert await _state(me) is not None
        assert await _state(me) is None
        assert (await _state(them))["callId"] == theirs.id
    finally:
        await close(me, them)


async def test_a_signed_in_socket_gets_no_call_state(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    async with server.client() as c:
        token = str((await c.login("ada@example.com"))["token"])
    s = await open_socket(server, {"token": token})
    try:
        assert await _state(s) is None
    finally:
        await close(s)


async def test_wrong_secrets_and_other_calls_are_refused(server: Server) -> None:
    ada = await add_user(server.app, email="ada@example.com", balance_cents=10_000)
    mine, secret = await _test_call(server)
    other, _ = await _test_call(server)
    users_call = await queued_call(server.app, ada.id)
    async with server.app.state.db.sessionmaker() as session:  # a user's call is never watched
        await session.execute(
            update(Call).where(Call.id == users_call.id).values(viewer_token_hash=sha256_hex("k"))
        )
        await session.commit()
    for auth in (
        {"visitor": "wrong", "callId": mine.id},
        {"visitor": secret, "callId": other.id},  # my secret, another call
        {"visitor": "k", "callId": users_call.id},
        {"visitor": sha256_hex(secret), "callId": mine.id},  # the stored hash is not the secret
        {"visitor": secret},
        {"visitor": secret, "callId": None},
        {"visitor": 12, "callId": mine.id},
        {"visitor": "", "callId": mine.id},
        {"visitor": secret + "\x00", "callId": mine.id},
        {"visitor": secret, "callId": mine.id + "\x00"},
        {"visitor": "x" * 5000, "callId": mine.id},
        {"visitor": secret, "callId": "x" * 5000},
    ):
        await _refused(server, auth)
    ok = await _visitor(server, mine.id, secret)
    await close(ok)


async def test_the_secret_ends_when_the_call_is_finalised(server: Server) -> None:
    call, secret = await _test_call(server)
    watcher = await _visitor(server, call.id, secret)
    try:
        domain: Calls = server.app.state.calls
        await domain.flows.hang_up(call.id)  # a queued call is cancelled, then finalised
        await domain.flows.wait_finalized(call.id, within=5, poll=0.05)
        for _ in range(50):
            if any(d.get("completed") for d in watcher.got):
                break
            await asyncio.sleep(0.1)
        assert [d["message"] for d in watcher.got] == [
            "Call canceled",
            "Call duration & price: 0s",
            CLOSING,
        ]
        assert watcher.got[-1]["completed"] is True
        await watcher.stays(0.1)  # kept a little, for the closing events
        await _refused(server, {"visitor": secret, "callId": call.id})  # spent
        async with server.app.state.db.sessionmaker() as session:
            row = await calls.get(session, call.id)
            assert row is not None
            assert row.viewer_token_hash is None
            # Past the linger, the re-check ends the socket.
            await session.execute(
                update(Call)
                .where(Call.id == call.id)
                .values(finalized_at=utcnow() - timedelta(minutes=1))
            )
            await session.commit()
        await server.realtime.recheck()
        await watcher.ends()
    finally:
        await close(watcher)


async def test_a_visitor_socket_ends_at_its_deadline(server: Server) -> None:
    call, secret = await _test_call(server)
    # A call whose end never came: its socket is dropped with the reconciler's deadline.
    async with server.app.state.db.sessionmaker() as session:
        await session.execute(
            update(Call)
            .where(Call.id == call.id)
            .values(queued_at=utcnow() - timedelta(minutes=call.max_duration + 2, seconds=9))
        )
        await session.commit()
    watcher = await _visitor(server, call.id, secret)
    try:
        await watcher.ends(within=5)
    finally:
        await close(watcher)


async def test_the_landing_test_call_is_watched_by_its_browser_only(server: Server) -> None:
    async with server.client() as c:
        placed = await c.api("POST", "test-call", json={"phone_number": BUSY})
    assert placed.status_code == 200, placed.text
    body = placed.json()
    call_id, secret = body["callId"], body["viewerToken"]
    assert len(secret) >= 43
    watcher = await _visitor(server, call_id, secret)
    try:
        async with server.app.state.db.sessionmaker() as session:
            row = await calls.get(session, call_id)
            assert row is not None
            stored = [str(getattr(row, c.key)) for c in Call.__table__.columns]
        assert secret not in stored, "only the secret's hash is stored"
        for _ in range(100):
            if any(d.get("completed") for d in watcher.got):
                break
            await asyncio.sleep(0.1)
        # It may have joined after "Ringing"; the end is always seen.
        assert [d["message"] for d in watcher.got][-3:] == [
            "Line busy",
            "Call duration & price: 0s",
            CLOSING,
        ]
        assert {d["callId"] for d in watcher.got} == {call_id}
        await _refused(server, {"visitor": secret, "callId": call_id})
    finally:
        await close(watcher)
