"""Where files that outlive a process are kept (the calls' recordings): a local folder, or a
bucket of S3-compatible storage (AWS S3, MinIO, Cloudflare R2, ...), chosen by the `S3` settings
(`build_store`). Both speak the same small interface: put, stat, read, delete, a health check,
and an HTTP response that answers Range requests (206), so a player can seek in a recording.

boto3 blocks: every S3 call runs in a worker thread. A file name is a plain name (`{id}.mp3`):
the folder store never leaves its folder, the S3 store prefixes it (`CALLWRIGHT_S3_PREFIX`)."""

from __future__ import annotations

import asyncio
import os
import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config as BotoConfig
from botocore.exceptions import BotoCoreError, ClientError
from starlette.responses import FileResponse, Response, StreamingResponse

from callwright.config import Settings

#: Bytes read from the storage per chunk of a streamed response.
CHUNK = 64 * 1024


class StoreError(Exception):
    """The storage refused or did not answer (the message says which and why)."""


@dataclass(frozen=True)
class Stored:
    size: int
    #: When it was last written (seconds since the epoch).
    modified: float
    #: The storage's validator for If-Range (S3's ETag); empty when it has none.
    etag: str = ""


def _plain(name: str) -> str:
    """The name alone: a stored path never names a folder outside the store."""
    plain = Path(name).name
    if not plain or plain in {".", ".."}:
        raise ValueError(f"not a file name: {name!r}")
    return plain


def _disposition(kind: str, filename: str) -> str:
    return f'{kind}; filename="{filename}"'


def byte_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The one range (first, last byte, inclusive) a `Range` header asks of `size` bytes; None
    to answer the whole file (no header, another unit, several ranges or a malformed one, which
    RFC 9110 lets a server ignore). ValueError: a range that starts past the end (416)."""
    if not header or not header.strip().lower().startswith("bytes="):
        return None
    spec = header.strip()[len("bytes=") :].strip()
    if "," in spec or "-" not in spec:
        return None
    first_text, last_text = (part.strip() for part in spec.split("-", 1))
    if not (first_text.isdigit() or first_text == "") or not (
        last_text.isdigit() or last_text == ""
    ):
        return None
    if first_text == "":  # a suffix: the last N bytes
        if last_text == "" or int(last_text) == 0 or size == 0:
            raise ValueError("unsatisfiable range")
        return max(0, size - int(last_text)), size - 1
    first = int(first_text)
    last = int(last_text) if last_text else size - 1
    if last_text and last < first:
        return None
    if first >= size:
        raise ValueError("unsatisfiable range")
    return first, min(last, size - 1)


class Store(ABC):
    """A flat set of named files."""

    #: What and where it is, for the System page ("folder /srv/var/recordings").
    where: str

    @abstractmethod
    def location(self, name: str) -> str:
        """Where the file is, for people (a path, or `s3://bucket/key`)."""

    @abstractmethod
    async def put(self, name: str, data: bytes) -> None:
        """Write the whole file (a reader sees the old one or the new one, never a part)."""

    @abstractmethod
    async def stat(self, name: str) -> Stored | None:
        """Its size and age, None when there is no such file."""

    @abstractmethod
    async def read(self, name: str) -> bytes:
        """The whole file (FileNotFoundError when there is none)."""

    @abstractmethod
    async def delete(self, name: str) -> None:
        """Remove it (nothing happens when there is none)."""

    @abstractmethod
    async def check(self) -> str:
        """Whether files can be kept here now: a sentence saying so, or StoreError why not."""

    @abstractmethod
    async def response(
        self,
        name: str,
        range_header: str | None,
        *,
        media_type: str,
        filename: str,
        disposition: str = "attachment",
        if_range: str | None = None,
    ) -> Response | None:
        """The file as an HTTP response, 206 with the bytes a Range asks for; None when there
        is no such file."""


class FolderStore(Store):
    """Files in a local folder (or a shared mount: NFS and the like)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.where = f"folder {folder}"

    def path(self, name: str) -> Path:
        return self.folder / _plain(name)

    def location(self, name: str) -> str:
        return str(self.path(name))

    def _write(self, name: str, data: bytes) -> None:
        target = self.path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}.partial")
        partial.write_bytes(data)
        partial.replace(target)

    async def put(self, name: str, data: bytes) -> None:
        await asyncio.to_thread(self._write, name, data)

    async def stat(self, name: str) -> Stored | None:
        try:
            found = self.path(name).stat()
        except FileNotFoundError:
            return None
        return Stored(found.st_size, found.st_mtime)

    async def read(self, name: str) -> bytes:
        return await asyncio.to_thread(self.path(name).read_bytes)

    async def delete(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)

    def _probe(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        probe = self.folder / f".health-{uuid.uuid4().hex}"
        probe.write_bytes(b"ok")
        probe.unlink()

    async def check(self) -> str:
        try:
            await asyncio.to_thread(self._probe)
        except OSError as exc:
            raise StoreError(f"The folder {self.folder} is not writable: {exc}") from exc
        return f"The folder {self.folder} is writable."

    async def response(
        self,
        name: str,
        range_header: str | None,
        *,
        media_type: str,
        filename: str,
        disposition: str = "attachment",
        if_range: str | None = None,
    ) -> Response | None:
        # Starlette's FileResponse reads the request's Range and If-Range itself.
        path = self.path(name)
        if not path.is_file():
            return None
        return FileResponse(
            path, media_type=media_type, filename=filename, content_disposition_type=disposition
        )


def _client_error(exc: ClientError) -> tuple[str, str]:
    error: dict[str, Any] = exc.response.get("Error", {})
    status = str(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", ""))
    return str(error.get("Code") or status), str(error.get("Message") or "")


class S3Store(Store):
    """Objects in a bucket of S3-compatible storage, under a prefix."""

    def __init__(
        self,
        bucket: str,
        *,
        prefix: str = "",
        endpoint_url: str = "",
        region: str = "",
        access_key_id: str = "",
        secret_access_key: str = "",
    ) -> None:
        self.bucket = bucket
        self.prefix = prefix
        where = f"S3 bucket {bucket}" + (f", prefix {prefix}" if prefix else "")
        self.where = where + (f" at {endpoint_url}" if endpoint_url else "")
        # Without keys, boto3's own chain: AWS_* variables, ~/.aws, an instance's role.
        self.client: Any = boto3.session.Session().client(
            "s3",
            endpoint_url=endpoint_url or None,
            region_name=region or None,
            aws_access_key_id=access_key_id or None,
            aws_secret_access_key=secret_access_key or None,
            config=BotoConfig(
                connect_timeout=3,
                read_timeout=20,
                retries={"mode": "standard", "max_attempts": 3},
                # Another service than AWS: bucket in the path (no DNS per bucket needed).
                s3={"addressing_style": "path" if endpoint_url else "auto"},
            ),
        )

    def key(self, name: str) -> str:
        return self.prefix + _plain(name)

    def location(self, name: str) -> str:
        return f"s3://{self.bucket}/{self.key(name)}"

    def _fail(self, doing: str, exc: Exception) -> StoreError:
        if isinstance(exc, ClientError):
            code, message = _client_error(exc)
            why = _REASONS.get(code, f"{code} {message}".strip())
            return StoreError(f"S3 {doing} in bucket {self.bucket} failed: {why}")
        return StoreError(f"S3 {doing} in bucket {self.bucket} failed: {exc}")

    async def put(self, name: str, data: bytes) -> None:
        try:
            await asyncio.to_thread(
                self.client.put_object,
                Bucket=self.bucket,
                Key=self.key(name),
                Body=data,
                ContentType=_content_type(name),
            )
        except (ClientError, BotoCoreError) as exc:
            raise self._fail(f"PUT {self.key(name)}", exc) from exc

    async def stat(self, name: str) -> Stored | None:
        try:
            head = await asyncio.to_thread(
                self.client.head_object, Bucket=self.bucket, Key=self.key(name)
            )
        except ClientError as exc:
            if _client_error(exc)[0] in {"404", "NoSuchKey", "NotFound"}:
                return None
            raise self._fail(f"HEAD {self.key(name)}", exc) from exc
        except BotoCoreError as exc:
            raise self._fail(f"HEAD {self.key(name)}", exc) from exc
        return Stored(
            int(head["ContentLength"]),
            head["LastModified"].timestamp(),
            str(head.get("ETag", "")),
        )

    async def _get(self, name: str, byte_range: str | None = None) -> Any:
        extra = {"Range": byte_range} if byte_range else {}
        try:
            answer = await asyncio.to_thread(
                self.client.get_object, Bucket=self.bucket, Key=self.key(name), **extra
            )
        except ClientError as exc:
            if _client_error(exc)[0] in {"404", "NoSuchKey", "NotFound"}:
                raise FileNotFoundError(self.key(name)) from exc
            raise self._fail(f"GET {self.key(name)}", exc) from exc
        except BotoCoreError as exc:
            raise self._fail(f"GET {self.key(name)}", exc) from exc
        return answer["Body"]

    async def read(self, name: str) -> bytes:
        body = await self._get(name)
        try:
            data: bytes = await asyncio.to_thread(body.read)
        finally:
            body.close()
        return data

    async def delete(self, name: str) -> None:
        try:
            await asyncio.to_thread(
                self.client.delete_object, Bucket=self.bucket, Key=self.key(name)
            )
        except (ClientError, BotoCoreError) as exc:
            raise self._fail(f"DELETE {self.key(name)}", exc) from exc

    async def check(self) -> str:
        try:
            await asyncio.to_thread(self.client.head_bucket, Bucket=self.bucket)
        except ClientError as exc:
            if _client_error(exc)[0] in {"400", "403"}:
                # A HEAD answer has no body to say why: a listing's error names the cause
                # (an unknown key, a wrong secret, a missing permission).
                try:
                    await asyncio.to_thread(
                        self.client.list_objects_v2, Bucket=self.bucket, MaxKeys=1
                    )
                except ClientError as named:
                    raise self._fail("HEAD", named) from exc
            raise self._fail("HEAD", exc) from exc
        except BotoCoreError as exc:
            raise self._fail("HEAD", exc) from exc
        return f"The bucket {self.bucket} answered HEAD with these credentials."

    async def response(
        self,
        name: str,
        range_header: str | None,
        *,
        media_type: str,
        filename: str,
        disposition: str = "attachment",
        if_range: str | None = None,
    ) -> Response | None:
        found = await self.stat(name)
        if found is None:
            return None
        modified = formatdate(found.modified, usegmt=True)
        headers = {
            "accept-ranges": "bytes",
            "content-disposition": _disposition(disposition, filename),
            "last-modified": modified,
        }
        if found.etag:
            headers["etag"] = found.etag
        if if_range and if_range.strip() not in {found.etag, modified}:
            range_header = None  # the file changed since the client's copy: all of it
        try:
            wanted = byte_range(range_header, found.size)
        except ValueError:
            headers["content-range"] = f"bytes */{found.size}"
            return Response(status_code=416, headers=headers)
        if wanted is None:
            first, last, status = 0, found.size - 1, 200
        else:
            (first, last), status = wanted, 206
            headers["content-range"] = f"bytes {first}-{last}/{found.size}"
        headers["content-length"] = str(last - first + 1)
        if found.size == 0:
            return Response(b"", status_code=200, headers=headers, media_type=media_type)
        body = await self._get(name, f"bytes={first}-{last}" if status == 206 else None)
        return StreamingResponse(
            _chunks(body), status_code=status, headers=headers, media_type=media_type
        )


async def _chunks(body: Any) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(body.read, CHUNK):
            yield chunk
    finally:
        body.close()


_CONTENT_TYPES = {".mp3": "audio/mpeg", ".wav": "audio/wav"}

#: What S3's error codes mean for an operator (HEAD answers carry only the status code).
_REASONS = {
    "404": "no such bucket: check CALLWRIGHT_S3_BUCKET",
    "NoSuchBucket": "no such bucket: check CALLWRIGHT_S3_BUCKET",
    "403": "access denied: check CALLWRIGHT_S3_ACCESS_KEY_ID and CALLWRIGHT_S3_SECRET_ACCESS_KEY "
    "and the key's permissions on the bucket",
    "AccessDenied": "access denied: check the key's permissions on the bucket",
    "InvalidAccessKeyId": "the storage does not know this access key: check "
    "CALLWRIGHT_S3_ACCESS_KEY_ID",
    "SignatureDoesNotMatch": "the secret does not match the access key: check "
    "CALLWRIGHT_S3_SECRET_ACCESS_KEY",
    "301": "the bucket is in another region: check CALLWRIGHT_S3_REGION",
    "PermanentRedirect": "the bucket is in another region: check CALLWRIGHT_S3_REGION",
}


def _content_type(name: str) -> str:
    return _CONTENT_TYPES.get(os.path.splitext(name)[1].lower(), "application/octet-stream")


def build_store(settings: Settings, folder: Path) -> Store:
    """The recordings' store the settings name: the bucket when `CALLWRIGHT_S3_BUCKET` is set,
    else `folder`."""
    if not settings.s3_bucket:
        return FolderStore(folder)
    return S3Store(
        settings.s3_bucket,
        prefix=settings.s3_prefix,
        endpoint_url=settings.s3_endpoint_url,
        region=settings.s3_region,
        access_key_id=settings.s3_access_key_id,
        secret_access_key=settings.s3_secret_access_key,
    )
