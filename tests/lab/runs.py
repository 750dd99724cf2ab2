"""What the lab's tests share: waiting for a run to end."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.factories import ApiClient


async def finished_run(client: ApiClient, run_id: str, within: float = 240) -> dict[str, Any]:
    """The run (`GET lab/runs/{run_id}`) once it is no longer running."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        run: dict[str, Any] = (await client.api("GET", f"lab/runs/{run_id}")).json()["data"]
        if run["status"] != "running":
            return run
        await asyncio.sleep(0.5)
    raise AssertionError(f"the run {run_id} did not end within {within} s")
