"""The recordings' stores (kit/storage.py), each against the real thing: a folder, and a bucket
of moto's S3 server (S3's wire protocol over HTTP). Both keep, find, read and remove a file the
same way, and answer an HTTP Range with 206 and the bytes asked for."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from callwright.kit.storage import FolderStore, S3Store, Store, StoreError, byte_range
from tests.s3_server import PREFIX, S3

DATA = bytes(range(256)) * 40  # 10240 bytes


@pytest.fixture(params=["folder", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "folder":
        return FolderStore(tmp_path / "recordings")
    server: S3 = request.getfixturevalue("s3")
    return server.store()


def _client(store: Store) -> httpx.AsyncClient:
    """An HTTP client of a one-route app that answers `GET /{name}` with the store's response
    (the Range and If-Range headers passed on, as the recording endpoints do)."""

    async def get(request: Request) -> Response:
        response = await store.response(
            request.path_params["name"],
            request.headers.get("range"),
            media_type="audio/mpeg",
            filename="r.mp3",
            disposition="inline",
            if_range=request.headers.get("if-range"),
        )
        return response or Response(status_code=404)

    app = Starlette(routes=[Route("/{name}", get)])
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://store")


async def test_a_file_is_kept_found_read_and_removed(store: Store) -> None:
    name = "call-1.mp3"
    assert await store.stat(name) is None
    await store.put(name, DATA)
    found = await store.stat(name)
    assert found is not None
    assert found.size == len(DATA)
    assert await store.read(name) == DATA
    await store.put(name, b"again")
    assert await store.read(name) == b"again"
    await store.delete(name)
    assert await store.stat(name) is None
    await store.delete(name)  # nothing there: no error
    with pytest.raises(FileNotFoundError):
        await store.read(name)


async def test_a_name_never_leaves_the_store(tmp_path: Path) -> None:
    store = FolderStore(tmp_path / "recordings")
    await store.put("../../outside.mp3", b"x")
    assert (tmp_path / "recordings" / "outside.mp3").read_bytes() == b"x"
    assert not (tmp_path.parent / "outside.mp3").exists()


async def test_s3_keeps_files_under_the_prefix(s3: S3) -> None:
    store = s3.store()
    await store.put("prefixed.mp3", DATA)
    assert f"{PREFIX}prefixed.mp3" in s3.objects()
    head = s3.client().head_object(Bucket=s3.bucket, Key=f"{PREFIX}prefixed.mp3")
    assert head["ContentType"] == "audio/mpeg"
    assert store.location("prefixed.mp3") == f"s3://{s3.bucket}/{PREFIX}prefixed.mp3"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("bytes=0-99", (0, 99)),
        ("bytes=100-", (100, 10239)),
        ("bytes=-100", (10140, 10239)),
        ("bytes=10000-20000", (10000, 10239)),  # the end is clamped
        ("bytes=-99999", (0, 10239)),
        ("bytes=5-2", None),  # malformed: ignored, the whole file
        ("bytes=0-1,5-6", None),  # several ranges: the whole file
        ("items=0-5", None),
        ("bytes=abc", None),
    ],
)
def test_byte_range(header: str | None, expected: tuple[int, int] | None) -> None:
    assert byte_range(header, len(DATA)) == expected


@pytest.mark.parametrize("header", ["bytes=10240-", "bytes=99999-100000", "bytes=-0"])
def test_a_range_past_the_end_is_unsatisfiable(header: str) -> None:
    with pytest.raises(ValueError, match="unsatisfiable"):
        byte_range(header, len(DATA))


async def test_responses_answer_ranges(store: Store) -> None:
    await store.put("ranged.mp3", DATA)
    async with _client(store) as client:
        whole = await client.get("/ranged.mp3")
        part = await client.get("/ranged.mp3", headers={"range": "bytes=1000-1999"})
        tail = await client.get("/ranged.mp3", headers={"range": "bytes=-24"})
        past = await client.get("/ranged.mp3", headers={"range": "bytes=20000-"})
        missing = await client.get("/none.mp3")
    assert (whole.status_code, whole.content) == (200, DATA)
    assert whole.headers["content-type"] == "audio/mpeg"
    assert whole.headers["content-disposition"] == 'inline; filename="r.mp3"'
    assert whole.headers["accept-ranges"] == "bytes"
    assert (part.status_code, part.content) == (206, DATA[1000:2000])
    assert part.headers["content-range"] == f"bytes 1000-1999/{len(DATA)}"
    assert part.headers["content-length"] == "1000"
    assert (tail.status_code, tail.content) == (206, DATA[-24:])
    assert past.status_code == 416
    assert past.headers["content-range"] == f"bytes */{len(DATA)}"
    assert missing.status_code == 404


async def test_s3_range_reads_only_the_bytes_asked_for(s3: S3) -> None:
    """The part is asked of S3 with a Range (not read whole and cut here)."""
    store = s3.store()
    await store.put("big.mp3", DATA)
    seen: list[dict[str, object]] = []
    get_object = store.client.get_object

    def spy(**kwargs: object) -> object:
        seen.append(kwargs)
        return get_object(**kwargs)

    store.client.get_object = spy
    async with _client(store) as client:
        part = await client.get("/big.mp3", headers={"range": "bytes=10-19"})
        # If-Range naming another version of the file: the whole (new) file.
        stale = await client.get(
            "/big.mp3", headers={"range": "bytes=10-19", "if-range": '"old-etag"'}
        )
        fresh = await client.get(
            "/big.mp3", headers={"range": "bytes=10-19", "if-range": part.headers["etag"]}
        )
    assert (part.status_code, part.content) == (206, DATA[10:20])
    assert seen[0]["Range"] == "bytes=10-19"
    assert (stale.status_code, stale.content) == (200, DATA)
    assert (fresh.status_code, fresh.content) == (206, DATA[10:20])


async def test_checks_say_why_a_store_cannot_keep_files(s3: S3, tmp_path: Path) -> None:
    assert "answered HEAD" in await s3.store().check()
    with pytest.raises(StoreError, match="no such bucket"):
        await S3Store(
            "no-such-bucket",
            endpoint_url=s3.endpoint,
            access_key_id=s3.access_key_id,
            secret_access_key=s3.secret_access_key,
        ).check()
    with pytest.raises(StoreError, match="CALLWRIGHT_S3_SECRET_ACCESS_KEY"):
        await s3.store(secret_access_key="wrong-secret").check()
    with pytest.raises(StoreError, match="does not know this access key"):
        await s3.store(access_key_id="AKIAUNKNOWN000000000").check()
    with pytest.raises(StoreError, match="failed"):
        await s3.store(secret_access_key="wrong-secret").put("x.mp3", b"x")

    assert "is writable" in await FolderStore(tmp_path / "ok").check()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="not writable"):
        await FolderStore(blocker / "recordings").check()
