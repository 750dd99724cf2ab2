"""Private PostgreSQL and Redis servers for the restart tests (`tests/test_restarts.py`): each
test starts its own on a free port, stops and starts it again mid-call, and removes it at the
end. The machine's shared servers (5432, 6379) are never touched: other runs use them."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from callwright.kit.serving import free_port

#: Debian's PostgreSQL server binaries (the test command installs them), the newest first.
PG_BINS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
#: How long a server may take to answer after a start.
START_WITHIN = 30.0


def have_servers() -> bool:
    """Whether this machine can run private servers (PostgreSQL's binaries and redis-server)."""
    return bool(PG_BINS) and shutil.which("redis-server") is not None


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class PrivateRedis:
    """`redis-server` on a free port, without persistence: a restart loses what it held, as a
    Redis without AOF or RDB does."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - a fixed command line
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_WITHIN
        while not _answers(self.port):
            assert self.process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """Killed (`kill -9`): what it held is gone, its clients' connections drop."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run its commands as the postgres user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PrivatePostgres:
    """A PostgreSQL cluster of its own (`initdb` in a temporary folder, trust authentication),
    stopped with `pg_ctl stop -m immediate` (a crash: no shutdown checkpoint, every connection
    cut) and started again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="callwright-pg-"))
        self.data = self.folder / "data"
        self.bin = PG_BINS[0]
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run(  # noqa: S603 - PostgreSQL's own tools
            _as_postgres([str(self.bin / command[0]), *command[1:]]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def create(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off"
        )
        log = self.folder / "server.log"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(log), "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    server = PrivatePostgres()
    try:
        server.create()
        server.start()
        yield server
    finally:
        server.remove()
