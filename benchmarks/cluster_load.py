"""200 simulated browser users on the scale-out topology.

Run (the cluster first: docs/deployment.md):
    CALLWRIGHT_CALLING_HOURS=00:00-24:00 CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY=0 \\
        scripts/cluster.sh start
    .venv/bin/python benchmarks/cluster_load.py [seconds] [users]
    scripts/cluster.sh stop

Seeds `users` (default 200) verified users with $100 each into the cluster's database
(CALLWRIGHT_DATABASE_URL, default the cluster's PostgreSQL database `callwright`; reused on a
second run), each with a bearer token, then for `seconds` (default 60) every user behaves as an
open browser tab on the proxy (CLUSTER_URL, default http://127.0.0.1:8080):
- the dashboard polls its figures and its latest calls every 5 s (`GET user/{id}/stats`,
  `GET user/{id}/calls?page=1&per_page=7`);
- the call logs are paged every 15 s (`GET user/{id}/calls?page=N&per_page=10`);
- in each group of 20 users one places a call every 3 s (`POST send-call`), to the sandbox's
  busy number: the whole call path (hold, dial job, carrier, signed status callbacks, release)
  without media, so the load measures the API and its jobs, not the voice processes.
Every user starts at a random moment of its first period. Prints, per endpoint, the requests,
the throughput, p50 and p95, and the errors; then how many of the calls placed ended.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
from api_load import seed_users
from sqlalchemy import func, select

from callwright.auth import tokens
from callwright.kit.db import Database
from callwright.models import Call, User

BUSY = "+15005550002"
EMAIL = "load-cluster-{}@example.com"


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    calls: list[str] = field(default_factory=list)


async def users_with_tokens(db: Database, n: int) -> list[tuple[int, str]]:
    async with db.sessionmaker() as session:
        existing = list(
            (
                await session.scalars(
                    select(User.id).where(User.email.like("load-cluster-%")).order_by(User.id)
                )
            ).all()
        )
    if len(existing) < n:
        await seed_users(
            db,
            n - len(existing),
            lambda i: f"Cluster Load {len(existing) + i}",
            lambda i: EMAIL.format(len(existing) + i),
        )
        async with db.sessionmaker() as session:
            existing = list(
                (
                    await session.scalars(
                        select(User.id).where(User.email.like("load-cluster-%")).order_by(User.id)
                    )
                ).all()
            )
    async with db.sessionmaker() as session:
        issued = [(u, await tokens.issue(session, u, 600, "load")) for u in existing[:n]]
        await session.commit()
    return issued


async def request(
    http: aiohttp.ClientSession,
    stats: Stats,
    name: str,
    method: str,
    url: str,
    token: str,
    body: dict[str, object] | None = None,
) -> dict[str, object] | None:
    started = time.perf_counter()
    try:
        async with http.request(
            method, url, json=body, headers={"Authorization": f"Bearer {token}"}
        ) as response:
            data = await response.read()
            stats.latencies[name].append(time.perf_counter() - started)
            if response.status != 200:
                stats.errors[name].append(f"{response.status} {data[:120]!r}")
                return None
            answer: dict[str, object] = await response.json(content_type=None)
            return answer
    except (aiohttp.ClientError, TimeoutError) as exc:
        stats.errors[name].append(type(exc).__name__)
        return None


async def every(
    period: float, until: float, rng: random.Random, work: Callable[[], Awaitable[None]]
) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, period))
    while loop.time() < until:
        started = loop.time()
        await work()
        await asyncio.sleep(max(0.0, period - (loop.time() - started)))


async def browser(
    http: aiohttp.ClientSession,
    base: str,
    user: tuple[int, str],
    calls: bool,
    until: float,
    stats: Stats,
    rng: random.Random,
) -> None:
    user_id, token = user
    api = f"{base}/api/v1"

    async def dashboard() -> None:
        await request(
            http, stats, "GET user/{id}/stats", "GET", f"{api}/user/{user_id}/stats", token
        )
        await request(
            http,
            stats,
            "GET user/{id}/calls (dashboard)",
            "GET",
            f"{api}/user/{user_id}/calls?page=1&per_page=7",
            token,
        )

    async def call_logs() -> None:
        page = rng.randint(1, 3)
        await request(
            http,
            stats,
            "GET user/{id}/calls (call logs)",
            "GET",
            f"{api}/user/{user_id}/calls?page={page}&per_page=10",
            token,
        )

    async def send_call() -> None:
        answer = await request(
            http,
            stats,
            "POST send-call",
            "POST",
            f"{api}/send-call",
            token,
            {"userId": user_id, "phone": BUSY, "prompt": "Load test call.", "max_duration": 1},
        )
        if answer and "callId" in answer:
            stats.calls.append(str(answer["callId"]))

    tasks = [every(5, until, rng, dashboard), every(15, until, rng, call_logs)]
    if calls:
        tasks.append(every(3, until, rng, send_call))
    await asyncio.gather(*tasks)


async def main(seconds: float, n_users: int) -> None:
    base = os.environ.get("CLUSTER_URL", "http://127.0.0.1:8080")
    db = Database(
        os.environ.get(
            "CALLWRIGHT_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/callwright"
        )
    )
    users = await users_with_tokens(db, n_users)
    stats = Stats()
    rng = random.Random(5)  # noqa: S311 - a reproducible schedule, not security
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    connector = aiohttp.TCPConnector(limit=n_users)
    timeout = aiohttp.ClientTimeout(total=30)
    print(f"{n_users} users for {seconds:.0f} s on {base}")
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        started = time.perf_counter()
        await asyncio.gather(
            *(
                browser(http, base, user, i % 20 == 0, until, stats, rng)
                for i, user in enumerate(users)
            )
        )
        wall = time.perf_counter() - started
    print(f"{'endpoint':34} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
    total = 0
    for name, samples in sorted(stats.latencies.items()):
        samples.sort()
        total += len(samples)
        p95 = samples[max(0, int(len(samples) * 0.95) - 1)]
        print(
            f"{name:34} {len(samples):8} {len(samples) / wall:7.1f} "
            f"{statistics.median(samples) * 1000:8.1f} {p95 * 1000:8.1f} {len(stats.errors[name]):7}"
        )
    print(f"{'all':34} {total:8} {total / wall:7.1f}")
    for name, errors in stats.errors.items():
        if errors:
            print(f"  {name}: first errors {errors[:3]}")
    deadline = loop.time() + 60
    ended = 0
    while loop.time() < deadline:
        async with db.sessionmaker() as session:
            ended = int(
                await session.scalar(
                    select(func.count()).where(
                        Call.id.in_(stats.calls), Call.finalized_at.is_not(None)
                    )
                )
                or 0
            )
        if ended == len(stats.calls):
            break
        await asyncio.sleep(1)
    print(f"calls placed {len(stats.calls)}, ended and settled {ended}")
    await db.dispose()


if __name__ == "__main__":
    asyncio.run(
        main(
            float(sys.argv[1]) if len(sys.argv) > 1 else 60.0,
            int(sys.argv[2]) if len(sys.argv) > 2 else 200,
        )
    )
