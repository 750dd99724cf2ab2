"""The call API's acceptance rate (webhook deliveries per second: benchmarks/webhook_deliveries.py).

Run: .venv/bin/python benchmarks/api_calls.py [requests]

`POST /v1/calls` accepted per second, with p50/p95, from 20 concurrent API clients against
`callwright serve` on a fresh SQLite database (or CALLWRIGHT_DATABASE_URL), in a process of
its own. "Accepted" is the whole request up to the answer: the key checked and rate limited,
   the body validated, the price held from the balance (a ledger entry), the call stored and
   its `call.queued` webhook written. Each call is scheduled a day ahead (`start_time`), so no
   dial job runs and no sandbox call starts: what is measured is the API's acceptance, not
   the voice pipeline. Each request goes to a number of its own (Bland's rule allows one call
   per number every 10 s), spread over 200 users with a key each (a key takes 120 requests a
   minute).

Figures come from a quiet machine; this script only prints them (no timed assertions).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from itertools import cycle

import aiohttp
from api_load import bench_settings, seed_users, served
from sqlalchemy import insert

from callwright.config import Settings
from callwright.developers.keys import new_key
from callwright.kit.db import Database
from callwright.models import ApiKey

CLIENTS = 20
USERS = 200
TASK = "You are Sam from Acme Dental, confirming {{name}}'s cleaning tomorrow at 3 pm."


async def seed_keys(db: Database) -> list[str]:
    """200 users with $100 each and one API key each; the keys."""
    user_ids = await seed_users(
        db, USERS, lambda i: f"API User {i}", lambda i: f"api{i}@example.com"
    )
    keys = []
    rows = []
    for user_id in user_ids:
        key, prefix, key_hash = new_key()
        keys.append(key)
        rows.append(
            {"user_id": user_id, "name": "benchmark", "prefix": prefix, "key_hash": key_hash}
        )
    async with db.sessionmaker() as session:
        await session.execute(insert(ApiKey), rows)
        await session.commit()
    return keys


async def _client(
    http: aiohttp.ClientSession,
    url: str,
    work: asyncio.Queue[tuple[int, str]],
    start_time: str,
    samples: list[float],
) -> None:
    while not work.empty():
        n, key = work.get_nowait()
        body = {
            "phone_number": f"+1555{2000000 + n:07d}",
            "task": TASK,
            "request_data": {"name": f"Customer {n}"},
            "metadata": {"n": n},
            "max_duration": 5,
            "start_time": start_time,
        }
        started = time.perf_counter()
        async with http.post(url, json=body, headers={"authorization": key}) as response:
            answer = await response.read()
        samples.append(time.perf_counter() - started)
        assert response.status == 200, answer


async def accept_rate(base: str, keys: list[str], n: int) -> None:
    work: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
    for i, key in zip(range(n), cycle(keys), strict=False):
        work.put_nowait((i, key))
    later = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S +00:00")
    samples: list[float] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=CLIENTS)) as http:
        started = time.perf_counter()
        await asyncio.gather(
            *(_client(http, f"{base}/v1/calls", work, later, samples) for _ in range(CLIENTS))
        )
        wall = time.perf_counter() - started
    samples.sort()
    p95 = samples[max(0, int(len(samples) * 0.95) - 1)]
    print(
        f"POST /v1/calls (scheduled, {CLIENTS} clients)   {len(samples) / wall:6.0f} accepted/s   "
        f"p50 {statistics.median(samples) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   "
        f"n={len(samples)}"
    )


async def main(n_requests: int, settings: Settings, env: dict[str, str]) -> None:
    db = Database(settings.database_url)
    keys = await seed_keys(db)
    await db.dispose()
    async with served(settings, env) as server:
        await accept_rate(server.url, keys, n_requests)


if __name__ == "__main__":
    requests_n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(requests_n, *bench_settings(tmp)))
