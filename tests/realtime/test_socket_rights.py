"""Sockets end with the rights they were opened with (issue 15, finding 8b): logout, a
password reset (by link or by an admin), a password change, a role change, a deletion and the
token's expiry disconnect them, across processes through Redis as within one."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import delete, update

from callwright.config import Settings
from callwright.kit.time import utcnow
from callwright.models import ApiToken
from callwright.realtime.events import WebhookEvent
from callwright.realtime.server import ADMIN_ROOM, user_room
from tests.factories import add_user, outbox, query_of
from tests.realtime.conftest import Server, Socket, close, open_socket, serve

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("CALLWRIGHT_TEST_REDIS_URL", "")
EVENT = WebhookEvent(call_id="x", message="Call connected", category="call", completed=False)


async def _socket(server: Server, token: str) -> Socket:
    return await open_socket(server, {"token": token})


async def _login(server: Server, email: str) -> str:
    async with server.client() as c:
        return str((await c.login(email))["token"])


async def test_logout_ends_that_tokens_sockets_only(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    first, second = await _login(server, "ada@example.com"), await _login(server, "ada@example.com")
    a, b = await _socket(server, first), await _socket(server, second)
    try:
        async with server.client(first) as c:
            assert (await c.api("POST", "logout")).status_code == 200
        await a.ends()
        await b.stays()
    finally:
        await close(a, b)


async def test_a_reset_link_ends_every_socket(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    s = await _socket(server, await _login(server, "ada@example.com"))
    try:
        async with server.client() as c:
            await c.api("POST", "forgot-password", json={"email": "ada@example.com"})
            link = next(m.link for m in await outbox(server.app) if m.kind == "reset-password")
            assert link
            reset = await c.api(
                "POST",
                "reset-password",
                json={
                    "token": query_of(link)["token"],
                    "email": "ada@example.com",
                    "password": "brand new secret",
                },
            )
            assert reset.status_code == 200
        await s.ends()
    finally:
        await close(s)


async def test_a_password_change_ends_the_other_sessions_sockets(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    mine, other = await _login(server, "ada@example.com"), await _login(server, "ada@example.com")
    a, b = await _socket(server, mine), await _socket(server, other)
    try:
        async with server.client(mine) as c:
            changed = await c.api(
                "PUT",
                "user/password",
                json={
                    "old_password": "correct horse battery",
                    "new_password": "brand new secret",
                    "new_password_confirmation": "brand new secret",
                },
            )
            assert changed.status_code == 200, changed.text
        await b.ends()
        await a.stays()
    finally:
        await close(a, b)


async def test_an_admin_password_set_ends_sessions_and_sockets(server: Server) -> None:
    await add_user(server.app, email="boss@example.com", role="admin")
    user = await add_user(server.app, email="ada@example.com")
    boss, token = await _login(server, "boss@example.com"), await _login(server, "ada@example.com")
    s = await _socket(server, token)
    try:
        async with server.client(boss) as c:
            response = await c.api(
                "PUT", f"admin/users/{user.id}", json={"password": "N3wPassword"}
            )
            assert response.status_code == 200, response.text
            await s.ends()
            c.token = token
            assert (await c.api("GET", "user/profile")).status_code == 401
            c.token = boss
            assert (await c.api("GET", "user/profile")).status_code == 200
    finally:
        await close(s)


async def test_a_demoted_admin_reconnects_without_the_admin_room(server: Server) -> None:
    await add_user(server.app, email="boss@example.com", role="admin")
    demoted = await add_user(server.app, email="was@example.com", role="admin")
    boss, token = await _login(server, "boss@example.com"), await _login(server, "was@example.com")
    s = await _socket(server, token)
    try:
        async with server.client(boss) as c:
            response = await c.api("PUT", f"admin/users/{demoted.id}", json={"role": "user"})
            assert response.status_code == 200, response.text
        await s.ends()
        again = await _socket(server, token)  # the token stays valid, with the user's rights
        try:
            await server.realtime.publish(ADMIN_ROOM, EVENT)
            await server.realtime.publish(user_room(demoted.id), EVENT)
            await asyncio.sleep(0.3)
            assert len(again.got) == 1
        finally:
            await close(again)
    finally:
        await close(s)


async def test_deleting_a_user_ends_their_sockets(server: Server) -> None:
    await add_user(server.app, email="boss@example.com", role="admin")
    user = await add_user(server.app, email="ada@example.com")
    boss = await _login(server, "boss@example.com")
    s = await _socket(server, await _login(server, "ada@example.com"))
    try:
        async with server.client(boss) as c:
            assert (await c.api("DELETE", f"admin/users/{user.id}")).status_code == 200
        await s.ends()
    finally:
        await close(s)


async def test_a_socket_ends_when_its_token_expires(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    token = await _login(server, "ada@example.com")
    async with server.app.state.db.sessionmaker() as session:
        await session.execute(
            update(ApiToken)
            .where(ApiToken.id == int(token.split("|")[0]))
            .values(expires_at=utcnow() + timedelta(seconds=1))
        )
        await session.commit()
    s = await _socket(server, token)
    try:
        await s.ends(within=5)
    finally:
        await close(s)


async def test_the_recheck_ends_sockets_whose_token_vanished_unannounced(server: Server) -> None:
    await add_user(server.app, email="ada@example.com")
    kept, gone = await _login(server, "ada@example.com"), await _login(server, "ada@example.com")
    a, b = await _socket(server, kept), await _socket(server, gone)
    try:
        async with server.app.state.db.sessionmaker() as session:  # no message: straight SQL
            await session.execute(delete(ApiToken).where(ApiToken.id == int(gone.split("|")[0])))
            await session.commit()
        await server.realtime.recheck()
        await b.ends()
        await a.stays()
    finally:
        await close(a, b)


async def test_logout_in_one_process_ends_the_socket_in_another(
    app: FastAPI, migrated: Settings
) -> None:
    if not REDIS_URL:
        pytest.skip("set CALLWRIGHT_TEST_REDIS_URL (scripts/test.sh does)")
    async with (
        serve(migrated, redis_url=REDIS_URL) as one,
        serve(migrated, redis_url=REDIS_URL) as other,
    ):
        await add_user(one.app, email="ada@example.com")
        token = await _login(one, "ada@example.com")
        s = await _socket(other, token)
        try:
            await asyncio.sleep(0.3)  # both control listeners subscribed
            async with one.client(token) as c:
                assert (await c.api("POST", "logout")).status_code == 200
            await s.ends()
        finally:
            await close(s)
