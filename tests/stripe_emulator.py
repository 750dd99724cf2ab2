"""A real localstripe (the local Stripe emulator, billing.localstripe) on a free port for the
session: a pytest plugin (see tests/conftest.py), so the payment tests and the schema fuzz
share one."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from callwright.billing import localstripe
from callwright.kit.serving import free_port


@pytest.fixture(scope="session")
def localstripe_base() -> Iterator[str]:
    """The emulator's address; the tests that need it skip, saying why, when it cannot start."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    code = f"from callwright.billing.localstripe import serve; serve({port}, None)"
    process = subprocess.Popen(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 30
    while not localstripe.running(base):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            why = process.stderr.read()[-500:] if process.stderr else b""
            pytest.skip(f"localstripe could not start: {why!r}")
        time.sleep(0.1)
    yield base
    process.terminate()
    process.wait(10)
