"""What the benchmarks that run the app in their own process share: settings for a fresh data
directory (a migrated SQLite database unless `CALLWRIGHT_DATABASE_URL` names another) on a free
port, and running a benchmark's coroutine on them with its wall time printed."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from alembic import command

from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.kit.serving import free_port

SECRET_KEY = "benchmark-secret-key-0123456789abcdef"


def fresh_settings(tmp: str, **overrides: Any) -> Settings:
    """Settings on `tmp` and a free port, the database migrated; `overrides` are fields."""
    port = free_port()
    fields: dict[str, Any] = {
        "env": "test",
        "data_dir": Path(tmp),
        "app_url": f"http://127.0.0.1:{port}",
        "port": port,
        "secret_key": SECRET_KEY,
        "warm_up_voice": False,
        "frontend_dist": Path(tmp) / "none",
    }
    if os.environ.get("CALLWRIGHT_DATABASE_URL"):
        fields["database_url"] = os.environ["CALLWRIGHT_DATABASE_URL"]
    settings = Settings(**(fields | overrides))
    command.upgrade(_alembic_config(settings), "head")
    return settings


def run_fresh(main: Callable[[Settings], Coroutine[Any, Any, None]], **overrides: Any) -> None:
    """Run `main` on fresh settings (a temporary directory, removed after) and print how long
    it took."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = fresh_settings(tmp, **overrides)
        started = time.perf_counter()
        asyncio.run(main(settings))
        print(f"wall time {time.perf_counter() - started:.0f} s")
