"""A local S3: moto in server mode (`moto.server`, a real HTTP server that speaks S3's wire
protocol) on a free port for the session, with authentication on, so wrong credentials are
refused as S3 refuses them. A pytest plugin (see tests/conftest.py): the recordings' tests of
tests/kit, tests/calls, tests/public_api and tests/system share one server.

`s3` is the server (its address, a bucket, an access key allowed everything); `s3_store`
puts the session app's recordings in that bucket for one test."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import httpx
import pytest
from fastapi import FastAPI

from callwright.config import Settings
from callwright.kit.serving import free_port
from callwright.kit.storage import S3Store

REGION = "us-east-1"
#: The objects' prefix in the tests (not the default, so its use is seen).
PREFIX = "tests/recordings/"


@dataclass(frozen=True)
class S3:
    endpoint: str
    bucket: str
    access_key_id: str
    secret_access_key: str

    def client(self) -> Any:
        """A boto3 client with the allowed key, to look in the bucket behind the app's back."""
        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=self.access_key_id,
            aws_secret_access_key=self.secret_access_key,
        )

    def settings(self, base: Settings, **changes: Any) -> Settings:
        """`base` with its recordings in the bucket (`changes` on top)."""
        values = {
            "s3_bucket": self.bucket,
            "s3_endpoint_url": self.endpoint,
            "s3_region": REGION,
            "s3_access_key_id": self.access_key_id,
            "s3_secret_access_key": self.secret_access_key,
            "s3_prefix": PREFIX,
        }
        return base.model_copy(update=values | changes)

    def store(self, **changes: Any) -> S3Store:
        values = {
            "prefix": PREFIX,
            "endpoint_url": self.endpoint,
            "region": REGION,
            "access_key_id": self.access_key_id,
            "secret_access_key": self.secret_access_key,
        }
        return S3Store(self.bucket, **(values | changes))

    def objects(self) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=self.bucket)
        return sorted(item["Key"] for item in listed.get("Contents", []))


def _set_up(endpoint: str) -> S3:
    """Before authentication is on: a user allowed every S3 action, its key, and a bucket."""
    anyone: dict[str, Any] = {
        "endpoint_url": endpoint,
        "region_name": REGION,
        "aws_access_key_id": "setup",
        "aws_secret_access_key": "setup",
    }
    iam = boto3.session.Session().client("iam", **anyone)
    iam.create_user(UserName="callwright")
    iam.put_user_policy(
        UserName="callwright",
        PolicyName="recordings",
        PolicyDocument=(
            '{"Version": "2012-10-17", "Statement": '
            '[{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}'
        ),
    )
    key = iam.create_access_key(UserName="callwright")["AccessKey"]
    bucket = f"callwright-{uuid.uuid4().hex[:8]}"
    boto3.session.Session().client("s3", **anyone).create_bucket(Bucket=bucket)
    return S3(endpoint, bucket, key["AccessKeyId"], key["SecretAccessKey"])


@pytest.fixture(scope="session")
def s3() -> Iterator[S3]:
    """moto's S3 server; the tests that need it skip, saying why, when it cannot start."""
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    code = f"from moto.server import main; main(['-H', '127.0.0.1', '-p', '{port}'])"
    process = subprocess.Popen(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{endpoint}/moto-api/data.json", timeout=1)
            break
        except httpx.HTTPError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                why = process.stderr.read()[-500:] if process.stderr else b""
                pytest.skip(f"moto's S3 server could not start: {why!r}")
            time.sleep(0.1)
    try:
        server = _set_up(endpoint)
        # From now on every request must be signed by a key the server knows.
        httpx.post(f"{endpoint}/moto-api/reset-auth", content=b"0", timeout=5).raise_for_status()
        yield server
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def s3_store(app: FastAPI, s3: S3, monkeypatch: pytest.MonkeyPatch) -> S3Store:
    """The session app keeps its recordings in the bucket for this test (its calls' MP3s, the
    reconciler's salvage, both players)."""
    store = s3.store()
    monkeypatch.setattr(app.state.calls.flows, "store", store)
    return store
