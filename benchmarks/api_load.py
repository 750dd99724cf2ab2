"""Read-path latency under load: 100,000 calls over 200 users, 20 concurrent clients.

Run: .venv/bin/python benchmarks/api_load.py [calls] [requests_per_endpoint]

Seeds a fresh SQLite database (or CALLWRIGHT_DATABASE_URL if set) with `calls` calls (default
100,000) spread over 200 users, each with a few transcript lines on the calls it reads, then
runs the app under uvicorn on loopback and has 20 concurrent clients request
`GET user/{id}/stats`, `GET user/{id}/calls?page=..&per_page=7` and `GET call-details/{id}`,
each as a random user reading their own data. Prints p50 and p95 per endpoint.
Target on SQLite: p95 at most 50 ms each.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import aiohttp
import httpx
from alembic import command
from sqlalchemy import insert, select

from callwright.auth import tokens
from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.kit.db import Database
from callwright.kit.security import hash_password
from callwright.kit.serving import free_port
from callwright.kit.time import utcnow
from callwright.models import Call, TranscriptEntry, User

USERS = 200
CLIENTS = 20
STATUSES = ["completed"] * 7 + ["no-answer", "busy", "failed"]


async def seed_users(
    db: Database, n: int, name: Callable[[int], str], email: Callable[[int], str], admins: int = 0
) -> list[int]:
    """`n` verified users with $100 each, the i-th named `name(i)` at `email(i)`, the first
    `admins` of them admins; their ids in order."""
    password = hash_password("benchmark password")
    now = utcnow()
    async with db.sessionmaker() as session:
        await session.execute(
            insert(User),
            [
                {
                    "name": name(i),
                    "email": email(i),
                    "password_hash": password,
                    "role": "admin" if i < admins else "user",
                    "balance_cents": 10_000,
                    "email_verified_at": now,
                }
                for i in range(n)
            ],
        )
        await session.commit()
        return [int(u) for u in (await session.scalars(select(User.id).order_by(User.id))).all()]


async def seed(db: Database, n_calls: int) -> tuple[list[tuple[int, str]], dict[int, list[str]]]:
    rng = random.Random(7)  # noqa: S311 - reproducible data, not security
    now = utcnow()
    user_ids = await seed_users(
        db, USERS, lambda i: f"Load User {i}", lambda i: f"load{i}@example.com"
    )
    sample: dict[int, list[str]] = {u: [] for u in user_ids}
    batch: list[dict[str, object]] = []
    lines: list[dict[str, object]] = []
    async with db.sessionmaker() as session:
        for i in range(n_calls):
            user_id = user_ids[i % USERS]
            created = now - timedelta(minutes=rng.randint(0, 60 * 24 * 90))
            seconds = rng.randint(0, 600)
            call_id = str(uuid.UUID(int=rng.getrandbits(128)))
            batch.append(
                {
                    "id": call_id,
                    "user_id": user_id,
                    "kind": "user",
                    "carrier": "sandbox",
                    "from_number": "+18885550100",
                    "to_number": f"+1555{rng.randint(1000000, 9999999)}",
                    "prompt": "You are Sam from Acme Dental, confirming an appointment.",
                    "voice": "joe",
                    "status": rng.choice(STATUSES),
                    "queued_at": created,
                    "answered_at": created,
                    "ended_at": created + timedelta(seconds=seconds),
                    "finalized_at": created + timedelta(seconds=seconds),
                    "duration_seconds": seconds,
                    "hold_cents": 1470,
                    "cost_cents": 49,
                    "max_duration": 30,
                    "created_at": created,
                }
            )
            if len(sample[user_id]) < 20:
                sample[user_id].append(call_id)
                lines += [
                    {
                        "call_id": call_id,
                        "seq": n,
                        "speaker": "assistant" if n % 2 else "user",
                        "text": f"Line {n} of the conversation.",
                        "created_at": created,
                    }
                    for n in range(1, 9)
                ]
            if len(batch) == 5000:
                await session.execute(insert(Call), batch)
                batch = []
        if batch:
            await session.execute(insert(Call), batch)
        await session.execute(insert(TranscriptEntry), lines)
        await session.commit()
        issued = [(u, await tokens.issue(session, u, 600, "benchmark")) for u in user_ids]
        await session.commit()
    return issued, sample


async def _worker(
    client: aiohttp.ClientSession,
    api: str,
    queue: asyncio.Queue[tuple[int, str]],
    path_of: Callable[[int], str],
    samples: list[float],
) -> None:
    while not queue.empty():
        user_id, token = queue.get_nowait()
        started = time.perf_counter()
        async with client.get(
            api + path_of(user_id), headers={"Authorization": f"Bearer {token}"}
        ) as response:
            body = await response.read()
        samples.append(time.perf_counter() - started)
        assert response.status == 200, body


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    base: str,
    issued: list[tuple[int, str]],
    sample: dict[int, list[str]],
    n: int,
    server_pid: int | None = None,
) -> None:
    rng = random.Random(11)  # noqa: S311
    endpoints = {
        "GET user/{id}/stats": lambda u: f"user/{u}/stats",
        "GET user/{id}/calls (page of 7)": lambda u: (
            f"user/{u}/calls?page={rng.randint(1, 70)}&per_page=7"
        ),
        "GET call-details/{id}": lambda u: f"call-details/{rng.choice(sample[u])}",
    }
    # aiohttp rather than httpx: on a 2-core machine the load generator shares the CPU with the
    # server, and httpx spends about 2 ms of CPU per request (it capped even /health at ~420
    # req/s here), aiohttp about a quarter of that.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=CLIENTS)) as client:
        for name, path_of in endpoints.items():
            queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
            for _ in range(n):
                queue.put_nowait(rng.choice(issued))
            samples: list[float] = []

            started = time.perf_counter()
            cpu_before = cpu_seconds(server_pid) if server_pid else 0.0
            await asyncio.gather(
                *(
                    _worker(client, f"{base}/api/v1/", queue, path_of, samples)
                    for _ in range(CLIENTS)
                )
            )
            wall = time.perf_counter() - started
            samples.sort()
            p95 = samples[int(len(samples) * 0.95) - 1]
            cpu = ""
            if server_pid:
                per_request = (cpu_seconds(server_pid) - cpu_before) / len(samples)
                cpu = f"   server CPU {per_request * 1000:4.2f} ms/req"
            print(
                f"{name:34} p50 {statistics.median(samples) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   "
                f"{len(samples) / wall:6.0f} req/s   n={len(samples)}{cpu}"
            )


async def wait_healthy(base: str) -> None:
    """Waits up to a minute (a busy box starts the server slowly)."""
    async with httpx.AsyncClient() as client:
        for _ in range(300):
            try:
                if (await client.get(f"{base}/api/v1/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError("the server did not start")


@dataclass
class Server:
    url: str
    pid: int


@asynccontextmanager
async def served(settings: Settings, env: dict[str, str]) -> AsyncIterator[Server]:
    """`callwright serve` in its own process, as in production (so the clients here do not
    take the server's CPU); yields its base URL and process id once healthy."""
    server = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "callwright"),
        "serve",
        "--port",
        str(settings.port),
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        await wait_healthy(settings.app_url)
        yield Server(settings.app_url, server.pid)
    finally:
        server.terminate()
        await server.wait()


def bench_settings(tmp: str) -> tuple[Settings, dict[str, str]]:
    """Settings for a fresh, migrated database in `tmp` (or CALLWRIGHT_DATABASE_URL), on a
    free port, and the same as environment variables for the served process."""
    port = free_port()
    env = os.environ | {
        "CALLWRIGHT_ENV": "test",
        "CALLWRIGHT_DATA_DIR": tmp,
        "CALLWRIGHT_APP_URL": f"http://127.0.0.1:{port}",
        "CALLWRIGHT_SECRET_KEY": "benchmark-secret-key-0123456789abcdef",
        "CALLWRIGHT_WARM_UP_VOICE": "false",
        "CALLWRIGHT_FRONTEND_DIST": str(Path(tmp) / "none"),
        # Benchmarks run at any hour: measured is the work, not the calling window.
        "CALLWRIGHT_CALLING_HOURS": "00:00-24:00",
        "CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY": "0",
    }
    cfg = Settings(
        env="test",
        data_dir=Path(tmp),
        database_url=os.environ.get("CALLWRIGHT_DATABASE_URL", ""),
        app_url=f"http://127.0.0.1:{port}",
        port=port,
        secret_key="benchmark-secret-key-0123456789abcdef",
        warm_up_voice=False,
        frontend_dist=Path(tmp) / "none",
    )
    command.upgrade(_alembic_config(cfg), "head")
    return cfg, env


async def main(n_calls: int, n_requests: int, settings: Settings, env: dict[str, str]) -> None:
    db = Database(settings.database_url)
    started = time.perf_counter()
    issued, sample = await seed(db, n_calls)
    await db.dispose()
    print(f"seeded {n_calls} calls over {USERS} users in {time.perf_counter() - started:.0f} s")
    async with served(settings, env) as server:
        await measure(server.url, issued, sample, n_requests, server.pid)


if __name__ == "__main__":
    calls_n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    requests_n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(calls_n, requests_n, *bench_settings(tmp)))
