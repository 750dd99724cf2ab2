"""Callwright's roles as real processes for the restart and fault tests (`callwright worker`,
`callwright voice`): the same database, secret and data folder as the test's settings, jobs
through the Redis broker the tests use."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from callwright.config import Settings

REDIS_URL = os.environ.get("CALLWRIGHT_TEST_REDIS_URL", "")
SRC = Path(__file__).resolve().parents[1] / "src"


def worker_process(
    settings: Settings, log: Path, **env: str
) -> AbstractContextManager[subprocess.Popen[bytes]]:
    """A worker until the block ends (stopped with SIGTERM then, unless the test killed it);
    `env` adds or overrides its CALLWRIGHT_ settings. Its output goes to `log`."""
    return role_process(settings, log, ["worker"], **env)


@contextmanager
def role_process(
    settings: Settings, log: Path, command: list[str], **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """`callwright COMMAND...` (`worker`, `voice --port P`) as `worker_process` runs it."""
    environment = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "CALLWRIGHT_ENV": "test",
        "CALLWRIGHT_DATA_DIR": str(settings.data_dir),
        "CALLWRIGHT_DATABASE_URL": settings.database_url,
        "CALLWRIGHT_SECRET_KEY": settings.secret_key,
        "CALLWRIGHT_JOB_BROKER_URL": REDIS_URL,
        "CALLWRIGHT_REDIS_URL": "",
        "CALLWRIGHT_WARM_UP_VOICE": "false",
        **env,
    }
    with log.open("ab") as out:
        process = subprocess.Popen(  # noqa: S603 - our own CLI
            [sys.executable, "-c", "from callwright.cli import app; app()", *command],
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
