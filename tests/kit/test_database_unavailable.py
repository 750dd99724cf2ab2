"""A request that cannot reach the database (PostgreSQL restarting, say) is told so with a 503
and Retry-After, and the log gets one line, not a traceback a request."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.exc import IntegrityError

from callwright.config import Settings
from callwright.kit.errors import UNAVAILABLE, install_error_handlers
from callwright.kit.serving import free_port
from callwright.main import create_app

pytestmark = pytest.mark.asyncio


def _app_without_database(tmp_path: Path) -> httpx.AsyncClient:
    # Nothing listens on the port: every connection is refused, as while PostgreSQL restarts.
    url = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/callwright"
    settings = Settings(env="test", data_dir=tmp_path, database_url=url, warm_up_voice=False)
    return _client(create_app(settings))


def _client(app: FastAPI) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def test_an_unreachable_database_answers_503_with_retry_after(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _app_without_database(tmp_path) as client:
        with caplog.at_level(logging.WARNING, logger="callwright.kit.errors"):
            response = await client.get("/api/v1/posts")
    assert response.status_code == 503
    assert response.headers["retry-after"] == "5"
    assert response.json() == {"success": False, "message": UNAVAILABLE, "errors": {}}
    lines = [r for r in caplog.records if r.name == "callwright.kit.errors"]
    assert len(lines) == 1
    assert "GET /api/v1/posts: unavailable (ConnectionRefusedError" in lines[0].getMessage()
    assert lines[0].exc_info is None


async def test_v1_is_told_in_blands_shape(tmp_path: Path) -> None:
    """The `/v1` API answers every error in Bland's shape, this one too (issue 27)."""
    async with _app_without_database(tmp_path) as client:
        response = await client.get("/v1/calls", headers={"authorization": "cw_" + "k" * 40})
    assert response.status_code == 503
    assert response.headers["retry-after"] == "5"
    assert response.json() == {"status": "error", "message": UNAVAILABLE, "errors": {}}


async def test_another_database_error_is_still_a_500_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/insert")
    async def insert() -> None:
        raise IntegrityError("INSERT", {}, Exception("duplicate key"))

    async with _client(app) as client:
        with caplog.at_level(logging.ERROR, logger="callwright.kit.errors"):
            response = await client.get("/insert")
    assert response.status_code == 500
    assert response.json()["message"] == "Server Error"
    [line] = [r for r in caplog.records if r.name == "callwright.kit.errors"]
    assert line.exc_info is not None
