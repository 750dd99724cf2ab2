"""Login cost: how long an argon2id check takes here, and login latency through the whole app.

Run: .venv/bin/python benchmarks/auth_login.py [rounds]
Prints the median and p95 of (1) hashing and verifying a password with the production argon2
parameters and (2) POST /api/v1/login over ASGI against a fresh SQLite database.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from alembic import command

from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.kit.security import hash_password, verify_password
from callwright.main import create_app
from callwright.models.user import Role
from callwright.seed import ensure_account


def _summary(name: str, samples: list[float]) -> None:
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print(
        f"{name:34} median {statistics.median(samples) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   n={len(samples)}"
    )


async def main(rounds: int, settings: Settings) -> None:
    hashed = hash_password("benchmark password")
    samples = []
    for _ in range(rounds):
        t = time.perf_counter()
        verify_password(hashed, "benchmark password")
        samples.append(time.perf_counter() - t)
    _summary("argon2id verify", samples)

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with app.state.db.sessionmaker() as session:
            await ensure_account(
                session,
                role=Role.USER,
                email="bench@example.com",
                name="B",
                password="benchmark password",
            )
            await session.commit()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            samples = []
            for _ in range(rounds):
                client.cookies.clear()
                t = time.perf_counter()
                r = await client.post(
                    "/api/v1/login",
                    json={"email": "bench@example.com", "password": "benchmark password"},
                )
                samples.append(time.perf_counter() - t)
                assert r.status_code == 200, r.text
            _summary("POST /api/v1/login (SQLite, ASGI)", samples)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            env="test",
            data_dir=Path(tmp),
            secret_key="benchmark-secret-key-0123456789abcdef",
            login_max_attempts_per_ip=10**6,
            frontend_dist=Path(tmp) / "none",
        )
        command.upgrade(_alembic_config(settings), "head")
        asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 50, settings))
