from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.factories import ApiClient, add_user
from tests.live import decode_mp3

pytestmark = pytest.mark.asyncio


async def test_voices_list_with_samples_made_once(app: FastAPI, client: ApiClient) -> None:
    await add_user(app, email="ada@example.com")
    assert (await client.get("/api/v1/voices")).status_code == 401
    await client.login("ada@example.com")
    body = (await client.api("GET", "voices")).json()
    assert body["success"] is True
    names = [v["name"] for v in body["voices"]]
    assert names[0] == "joe"
    assert "tanner-british" in names
    kal = next(v for v in body["voices"] if v["name"] == "kal")
    assert kal["description"]
    assert kal["recording_url"] == "/api/v1/voices/kal/sample.mp3"
    first = await client.get(kal["recording_url"])
    assert first.status_code == 200
    assert first.headers["content-type"] == "audio/mpeg"
    samples, rate = decode_mp3(first.content)
    assert len(samples) / rate > 3, "a real spoken sentence"
    cached = app.state.settings.data_dir / "voice-samples" / "kal.mp3"
    assert cached.is_file()
    stamp = cached.stat().st_mtime_ns
    again = await client.get(kal["recording_url"])
    assert again.content == first.content
    assert cached.stat().st_mtime_ns == stamp, "generated once, then served from the cache"
    assert (await client.get("/api/v1/voices/nobody/sample.mp3")).status_code == 404
