"""E-mail through a real SMTP server on loopback (aiosmtpd): the links in the messages work."""

from __future__ import annotations

import email
import socket
from collections.abc import AsyncIterator, Iterator
from email.message import Message

import pytest
from aiosmtpd.controller import Controller
from fastapi import FastAPI

from callwright.config import Settings
from callwright.main import create_app
from tests.conftest import make_client
from tests.factories import add_user, first_link, link_path, outbox, query_of

pytestmark = pytest.mark.asyncio


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))  # type: ignore[attr-defined]
        return "250 Message accepted for delivery"

    def text_of(self, index: int) -> str:
        msg = self.messages[index]
        for part in msg.walk():
            if part.get_content_type() == "text/plain":
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                return payload.decode()
        raise AssertionError("no text part")


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@pytest.fixture
async def smtp_app(
    app: FastAPI, settings: Settings, smtp: tuple[Inbox, int]
) -> AsyncIterator[FastAPI]:
    _inbox, port = smtp
    mail_settings = settings.model_copy(
        update={"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_starttls": False}
    )
    application = create_app(mail_settings)
    async with application.router.lifespan_context(application):
        yield application


async def test_verification_mail_arrives_and_its_link_verifies(
    smtp_app: FastAPI, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    async with make_client(smtp_app) as client:
        response = await client.api(
            "POST",
            "register",
            json={"name": "Mailed", "email": "mailed@example.com", "password": "long enough"},
        )
        assert response.status_code == 201
        await smtp_app.state.jobs.drain()
        assert len(inbox.messages) == 1
        message = inbox.messages[0]
        assert message["To"] == "mailed@example.com"
        assert message["Subject"] == "Verify your Callwright e-mail address"
        link = first_link(inbox.text_of(0))
        verified = await client.get(link_path(link))
        assert verified.headers["location"] == "/login?verified=true"
        await client.login("mailed@example.com", "long enough")
    stored = await outbox(smtp_app, "mailed@example.com")
    assert stored[0].status == "sent"
    assert stored[0].sent_at is not None


async def test_reset_mail_arrives_and_its_link_resets(
    smtp_app: FastAPI, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    await add_user(smtp_app, email="ada@example.com")
    async with make_client(smtp_app) as client:
        await client.api("POST", "forgot-password", json={"email": "ada@example.com"})
        await smtp_app.state.jobs.drain()
        params = query_of(first_link(inbox.text_of(0)))
        response = await client.api(
            "POST",
            "reset-password",
            json={"token": params["token"], "email": params["email"], "password": "via smtp reset"},
        )
        assert response.status_code == 200
        await client.login("ada@example.com", "via smtp reset")


async def test_unreachable_smtp_keeps_message_pending(app: FastAPI, settings: Settings) -> None:
    broken = settings.model_copy(
        update={"smtp_host": "127.0.0.1", "smtp_port": 1, "smtp_starttls": False}
    )
    application = create_app(broken)
    async with application.router.lifespan_context(application), make_client(application) as client:
        response = await client.api(
            "POST",
            "register",
            json={"name": "P", "email": "p@example.com", "password": "long enough"},
        )
        assert response.status_code == 201, "the request does not wait for, or fail on, SMTP"
        await application.state.jobs.drain()
    stored = await outbox(app, "p@example.com")
    assert stored[0].status == "pending"
    assert stored[0].attempts == 1
    assert stored[0].error
