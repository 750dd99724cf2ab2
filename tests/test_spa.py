"""The built web app goes out compressed (the build's brotli and gzip variants, picked from
Accept-Encoding) and hashed assets are cached for a year; index.html is revalidated (issue 20)."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from callwright.kit.errors import install_error_handlers
from callwright.main import IMMUTABLE, _mount_spa

pytestmark = pytest.mark.asyncio

SCRIPT = b"console.log('callwright');" * 200
INDEX = b'<!doctype html><script type="module" src="/assets/index-abc123.js"></script>' * 20
FAKE_BROTLI = b"\x1b brotli stand-in"  # served as the build wrote it: the bytes are not read
# Made once, with a fixed time in the header: the file written and the bytes expected are the same
# (two gzip.compress calls a second apart differ in the header's time stamp).
GZIP_SCRIPT = gzip.compress(SCRIPT, mtime=0)


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "assets" / "index-abc123.js").write_bytes(SCRIPT)
    (dist / "assets" / "index-abc123.js.gz").write_bytes(GZIP_SCRIPT)
    (dist / "assets" / "index-abc123.js.br").write_bytes(FAKE_BROTLI)
    (dist / "assets" / "logo-def456.png").write_bytes(b"\x89PNG tiny")  # no variants
    (dist / "index.html").write_bytes(INDEX)
    (dist / "index.html.gz").write_bytes(gzip.compress(INDEX))
    (dist / "favicon.svg").write_bytes(b"<svg/>")
    app = FastAPI()
    install_error_handlers(app)
    _mount_spa(app, dist)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def _get(client: httpx.AsyncClient, path: str, accept: str) -> tuple[httpx.Response, bytes]:
    """The response and its body as sent (not decoded: the test has no brotli decoder)."""
    async with client.stream("GET", path, headers={"Accept-Encoding": accept}) as response:
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, raw


@pytest.mark.parametrize(
    ("accept", "encoding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip", "gzip"),
        ("br;q=0, gzip;q=0.8", "gzip"),
        ("*", "br"),
        ("identity", None),
        ("", None),
    ],
)
async def test_hashed_assets_go_out_compressed_and_cached_for_a_year(
    client: httpx.AsyncClient, accept: str, encoding: str | None
) -> None:
    response, raw = await _get(client, "/assets/index-abc123.js", accept)
    assert response.status_code == 200
    assert response.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert response.headers["vary"] == "Accept-Encoding"
    assert response.headers["content-type"].startswith(
        ("text/javascript", "application/javascript")
    )
    assert response.headers.get("content-encoding") == encoding
    expected = {"br": FAKE_BROTLI, "gzip": GZIP_SCRIPT, None: SCRIPT}[encoding]
    assert raw == expected
    assert int(response.headers["content-length"]) == len(expected)


async def test_an_asset_without_variants_goes_out_as_it_is(client: httpx.AsyncClient) -> None:
    response, raw = await _get(client, "/assets/logo-def456.png", "gzip, br")
    assert (response.status_code, raw) == (200, b"\x89PNG tiny")
    assert "content-encoding" not in response.headers
    assert response.headers["cache-control"] == IMMUTABLE


@pytest.mark.parametrize("path", ["/", "/dashboard/send-call"])
async def test_index_is_compressed_but_always_revalidated(
    client: httpx.AsyncClient, path: str
) -> None:
    response, raw = await _get(client, path, "gzip, br")
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["content-encoding"] == "gzip"  # the build wrote no .br for it
    assert response.headers["content-type"].startswith("text/html")
    assert gzip.decompress(raw) == INDEX


async def test_top_level_files_are_revalidated(client: httpx.AsyncClient) -> None:
    response, raw = await _get(client, "/favicon.svg", "gzip")
    assert (raw, response.headers["cache-control"]) == (b"<svg/>", "no-cache")


@pytest.mark.parametrize(
    "path", ["/assets/missing.js", "/assets/%2e%2e/index.html", "/assets/index-abc123.js.gz"]
)
async def test_only_the_builds_assets_are_served(client: httpx.AsyncClient, path: str) -> None:
    response, _ = await _get(client, path, "gzip")
    assert response.status_code == 404
