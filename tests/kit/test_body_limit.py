"""Issue 15, finding 7: every request body is bounded before it is read into memory (a
declared length is refused unread; a chunked body is cut where it crosses the limit); 413 in
the app's error shape; the admin's posts get the larger upload limit; websockets pass."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.types import Message, Scope

from callwright.config import Settings
from callwright.kit.body_limit import BodySizeLimit
from tests.conftest import make_client
from tests.factories import signed_in

pytestmark = pytest.mark.asyncio

MIB = 1024 * 1024
CHUNK = 64 * 1024


class Sender:
    """A client that would send `total` bytes in 64 KiB chunks, counting what the app pulls."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.pulled = 0
        self.messages: list[Message] = []

    async def receive(self) -> Message:
        size = min(CHUNK, self.total - self.pulled)
        self.pulled += size
        return {"type": "http.request", "body": b" " * size, "more_body": self.pulled < self.total}

    async def send(self, message: Message) -> None:
        self.messages.append(message)

    @property
    def status(self) -> int:
        return int(self.messages[0]["status"])

    def json(self) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in self.messages[1:]))


def _scope(path: str, headers: list[tuple[bytes, bytes]], method: str = "POST") -> Scope:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("203.0.113.9", 5555),
        "server": ("testserver", 80),
    }


async def test_a_declared_length_over_the_limit_is_refused_unread(app: FastAPI) -> None:
    sender = Sender(200 * MIB)
    scope = _scope("/api/v1/login", [(b"content-length", str(200 * MIB).encode())])
    await app(scope, sender.receive, sender.send)
    assert sender.status == 413
    assert sender.json() == {
        "success": False,
        "message": "The request body is too large (at most 1 MiB).",
        "errors": {},
    }
    assert sender.pulled == 0


async def test_a_chunked_body_is_cut_where_it_crosses_the_limit(app: FastAPI) -> None:
    sender = Sender(200 * MIB)  # no Content-Length: Transfer-Encoding: chunked
    await app(_scope("/api/v1/login", []), sender.receive, sender.send)
    assert sender.status == 413
    assert sender.json()["message"] == "The request body is too large (at most 1 MiB)."
    assert sender.pulled <= MIB + CHUNK  # at most one chunk past the limit was ever held


async def test_a_chunked_body_read_outside_fastapi_is_answered_too() -> None:
    async def reads_everything(scope: Scope, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass

    limited = BodySizeLimit(reads_everything, max_bytes=MIB, upload_max_bytes=4 * MIB)
    sender = Sender(10 * MIB)
    await limited(_scope("/anything", []), sender.receive, sender.send)
    assert sender.status == 413
    assert sender.pulled <= MIB + CHUNK


async def test_a_body_within_the_limit_reaches_the_endpoint(app: FastAPI) -> None:
    async with make_client(app) as client:
        response = await client.api(
            "POST", "login", json={"email": "a@b.co", "password": "x" * (MIB // 2)}
        )
    assert response.status_code != 413


async def test_anonymous_big_bodies_are_refused_on_public_routes(app: FastAPI) -> None:
    big = {"email": "a@b.co", "phone": "+15551230000", "message": "x" * (2 * MIB)}
    async with make_client(app) as client:
        for path in ("contact", "register", "test-call"):
            response = await client.api("POST", path, json=big)
            assert response.status_code == 413, path
            assert response.json()["success"] is False


async def test_posts_get_the_upload_limit_and_nothing_else_does(app: FastAPI) -> None:
    # 450,000 characters (under the post's 500,000) of three UTF-8 bytes each: 1.3 MB.
    content = "<p>" + "\u20ac" * 450_000 + "</p>"
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    async with admin:
        post = {"title": "Big", "description": "A long one", "content": content}
        created = await admin.api("POST", "admin/posts", json=post)
        assert created.status_code == 201, created.text[:200]
        post_id = created.json()["data"]["id"]
        updated = await admin.api("PUT", f"admin/posts/{post_id}", json=post)
        assert updated.status_code == 200, updated.text[:200]
        # The same size elsewhere is refused, and so is a post over the upload limit.
        task = await admin.api("PUT", "admin/test-call-task", json={"task": content})
        assert task.status_code == 413
        huge = {**post, "content": "x" * (5 * MIB)}
        assert (await admin.api("POST", "admin/posts", json=huge)).status_code == 413


async def test_the_limits_come_from_the_settings(settings: Settings) -> None:
    assert (settings.max_body_bytes, settings.max_upload_body_bytes) == (MIB, 4 * MIB)

    async def ok(scope: Scope, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    limited = BodySizeLimit(
        ok, max_bytes=2048, upload_max_bytes=8192, upload_routes=[("POST", "/up/[0-9]+")]
    )
    for path, size, status in (
        ("/x", 2048, 200),
        ("/x", 2049, 413),
        ("/up/1", 8192, 200),
        ("/up/1", 8193, 413),
    ):
        sender = Sender(size)
        headers = [(b"content-length", str(size).encode())]
        await limited(_scope(path, headers), sender.receive, sender.send)
        assert sender.status == status, (path, size)
    sender = Sender(10)
    await limited(_scope("/x", [(b"content-length", b"12abc")]), sender.receive, sender.send)
    assert sender.status == 400


async def test_websockets_and_lifespan_pass_untouched() -> None:
    seen: list[str] = []

    async def inner(scope: Scope, receive: Any, send: Any) -> None:
        seen.append(scope["type"])
        assert receive is receiving

    async def receiving() -> Message:
        return {"type": "websocket.connect"}

    async def sending(message: Message) -> None:
        raise AssertionError("nothing is answered")

    limited = BodySizeLimit(inner, max_bytes=1024, upload_max_bytes=1024)
    await limited({"type": "websocket", "path": "/media", "headers": []}, receiving, sending)
    await limited({"type": "lifespan"}, receiving, sending)
    assert seen == ["websocket", "lifespan"]


async def test_csv_uploads_get_the_upload_limit(app: FastAPI) -> None:
    """A campaign's contacts file and a do-not-call import may be up to 4 MiB, not 1 MiB (the
    2 MiB files here are refused for their content, 422, not for their size); 5 MiB is 413."""
    client, _ = await signed_in(app, "uploader@example.com")
    admin, _ = await signed_in(app, "lists@example.com", role="admin")
    async with client, admin:
        agent = await client.api(
            "POST", "agents", json={"name": "A", "prompt": "Hello there.", "voice": "joe"}
        )
        campaign = await client.api(
            "POST", "campaigns", json={"name": "C", "agent_id": agent.json()["data"]["id"]}
        )
        routes = (
            (client, f"campaigns/{campaign.json()['data']['id']}/contacts"),
            (client, "do-not-call/import"),
            (admin, "admin/do-not-call/import"),
        )
        for who, path in routes:
            for size, status in ((2 * MIB, 422), (5 * MIB, 413)):
                text = "name,city\n" + "Ada,Paris\n" * (size // 10)
                files = {"file": ("list.csv", text.encode(), "text/csv")}
                response = await who.api("POST", path, files=files)
                assert response.status_code == status, (path, size, response.text[:200])
