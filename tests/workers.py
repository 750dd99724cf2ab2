"""Callwright's roles as real processes for the restart and fault tests (`callwright worker`,
`callwright voice`): the same database, secret and data folder as the test's settings, jobs
through the Redis broker the tests use."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from fastapi import FastAPI

from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from tests.live import TEST_SPEED

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


@dataclass
class VoiceStage:
    """An API process in the test's loop (with the sandbox network, hosting no call) and a
    `callwright voice` process apart that hosts the calls."""

    api: FastAPI
    url: str
    voice: subprocess.Popen[bytes]
    log: Path


@asynccontextmanager
async def voice_stage(settings: Settings, tmp_path: Path, **env: str) -> AsyncIterator[VoiceStage]:
    """An API process on `settings` and a voice process (`env` adds to its settings), up and
    its speech models loaded; the voice process is killed at the end if it still runs."""
    api_port, voice_port = free_port(), free_port()
    api_url, voice_url = f"http://127.0.0.1:{api_port}", f"http://127.0.0.1:{voice_port}"
    settings = settings.model_copy(
        update={
            "app_url": api_url,
            "media_url": voice_url,
            "sandbox_speed": TEST_SPEED,
            "host_calls": False,
        }
    )
    api = create_app(settings)
    log = tmp_path / "voice.log"
    voice_env = {
        "CALLWRIGHT_APP_URL": api_url,
        "CALLWRIGHT_MEDIA_URL": voice_url,
        "CALLWRIGHT_SANDBOX_SPEED": str(TEST_SPEED),
        "CALLWRIGHT_WARM_UP_VOICE": "true",
        **env,
    }
    loop = asyncio.get_running_loop()
    with role_process(settings, log, ["voice", "--port", str(voice_port)], **voice_env) as voice:
        try:
            async with serving(api.state.realtime.wrap(api), api_port), httpx.AsyncClient() as http:
                deadline = loop.time() + 90
                while True:  # up, and its models loaded (the warm-up runs at start)
                    assert voice.poll() is None, log.read_text()
                    assert loop.time() < deadline, log.read_text()
                    try:
                        if (await http.get(f"{voice_url}/api/v1/health")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.3)
                yield VoiceStage(api, api_url, voice, log)
        finally:
            if voice.poll() is None:
                voice.kill()
