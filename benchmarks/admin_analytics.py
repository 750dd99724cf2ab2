"""Admin analytics at scale: 1,000,000 calls over 5,000 users.

Run: .venv/bin/python benchmarks/admin_analytics.py [calls] [requests_per_endpoint]

Seeds a fresh SQLite database (or CALLWRIGHT_DATABASE_URL if set) with `calls` finished calls
(default 1,000,000) spread over a year and 5,000 users, runs `callwright serve` in its own
process, and has one admin request, one after another:

- `GET admin/stats` (the eight overall statistics),
- `GET admin/analytics` (the nine charts' data),
- `GET admin/calls` searched by a user's e-mail and sorted by duration (10 per page),
- `GET admin/calls` searched by a number prefix, newest first,
- `GET admin/calls` unsearched, newest first, page 50,
- `GET admin/top-users` (the admin home's Top Users by Call Volume).

The first statistics request rolls every finished hour up into `call_stats_hourly` (once); its
time is printed apart. Prints p50 and p95 per endpoint. Target on SQLite: p95 at most 250 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import timedelta

import httpx
from api_load import STATUSES, bench_settings, seed_users, served
from sqlalchemy import insert

from callwright.auth import tokens
from callwright.config import Settings
from callwright.kit.db import Database
from callwright.kit.time import utcnow
from callwright.models import Call

USERS = 5000


async def seed(db: Database, n_calls: int) -> str:
    """The users, the calls, and an admin's bearer token."""
    rng = random.Random(5)  # noqa: S311 - reproducible data, not security
    now = utcnow()
    user_ids = await seed_users(
        db,
        USERS,
        lambda i: f"Customer {i:04d}",
        lambda i: f"customer{i:04d}@example.com",
        admins=1,
    )
    batch: list[dict[str, object]] = []
    async with db.sessionmaker() as session:
        for _ in range(n_calls):
            created = now - timedelta(minutes=rng.randint(60, 60 * 24 * 365))
            status = rng.choice(STATUSES)
            seconds = rng.randint(1, 1200) if status == "completed" else 0
            batch.append(
                {
                    "id": str(uuid.UUID(int=rng.getrandbits(128))),
                    "user_id": rng.choice(user_ids),
                    "kind": "user",
                    "carrier": "sandbox",
                    "from_number": "+18885550100",
                    "to_number": f"+1{rng.randint(200, 999)}{rng.randint(1000000, 9999999)}",
                    "prompt": "You are Sam from Acme Dental, confirming an appointment.",
                    "voice": "joe",
                    "status": status,
                    "queued_at": created,
                    "ended_at": created + timedelta(seconds=seconds),
                    "finalized_at": created + timedelta(seconds=seconds),
                    "duration_seconds": seconds,
                    "recording_path": f"{created:%Y%m%d}.wav" if seconds else None,
                    "hold_cents": 1470,
                    "cost_cents": (seconds + 59) // 60 * 49,
                    "max_duration": 30,
                    "created_at": created,
                }
            )
            if len(batch) == 10_000:
                await session.execute(insert(Call), batch)
                batch = []
        if batch:
            await session.execute(insert(Call), batch)
        await session.commit()
        token = await tokens.issue(session, user_ids[0], 600, "benchmark")
        await session.commit()
    return token


async def measure(base: str, token: str, n: int) -> None:
    rng = random.Random(3)  # noqa: S311
    headers = {"Authorization": f"Bearer {token}"}
    endpoints: dict[str, Callable[[], str]] = {
        "GET admin/stats": lambda: "admin/stats",
        "GET admin/analytics": lambda: "admin/analytics?tz_offset=60",
        "GET admin/calls q=<e-mail> sort=-length": lambda: (
            f"admin/calls?q=customer{rng.randint(1, USERS - 1):04d}@&sort=-call_length&per_page=10"
        ),
        "GET admin/calls q=<number prefix>": lambda: f"admin/calls?q=%2B1{rng.randint(200, 999)}55",
        "GET admin/calls page 50": lambda: "admin/calls?page=50&per_page=10",
        "GET admin/top-users": lambda: "admin/top-users?limit=5",
    }
    async with httpx.AsyncClient(
        base_url=f"{base}/api/v1/", headers=headers, timeout=120
    ) as client:
        started = time.perf_counter()
        first = await client.get("admin/stats")
        assert first.status_code == 200, first.text
        print(
            f"first admin/stats (builds the rollup): {(time.perf_counter() - started) * 1000:.0f} ms"
        )
        for name, path_of in endpoints.items():
            samples: list[float] = []
            for _ in range(n):
                started = time.perf_counter()
                response = await client.get(path_of())
                samples.append(time.perf_counter() - started)
                assert response.status_code == 200, response.text
            samples.sort()
            p95 = samples[max(0, int(len(samples) * 0.95) - 1)]
            print(
                f"{name:40} p50 {statistics.median(samples) * 1000:6.1f} ms   "
                f"p95 {p95 * 1000:6.1f} ms   n={len(samples)}"
            )


async def main(n_calls: int, n_requests: int, settings: Settings, env: dict[str, str]) -> None:
    db = Database(settings.database_url)
    started = time.perf_counter()
    token = await seed(db, n_calls)
    await db.dispose()
    print(f"seeded {n_calls} calls over {USERS} users in {time.perf_counter() - started:.0f} s")
    async with served(settings, env) as server:
        await measure(server.url, token, n_requests)


if __name__ == "__main__":
    calls_n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    requests_n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(calls_n, requests_n, *bench_settings(tmp)))
