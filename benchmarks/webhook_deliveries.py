"""Webhook deliveries per second, end to end.

Run: .venv/bin/python benchmarks/webhook_deliveries.py [deliveries] [events_per_transaction]

A fresh SQLite database (or CALLWRIGHT_DATABASE_URL if set), one user with one endpoint, and a
receiver on loopback that verifies every request with `standardwebhooks` (what a customer
runs). The outbox writes `deliveries` deliveries (default 2,000), `events_per_transaction` per
unit of work (default 20); the deliver jobs run in this process (the embedded default's
in-memory broker) and sign, post, log each attempt and mark it delivered.

Prints deliveries per second (from the first event written to the last delivery recorded) and
p50 / p95 of each delivery's latency (written -> recorded delivered).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time

from api_load import bench_settings
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from callwright.config import Settings
from callwright.core import Core
from callwright.developers.service import new_signing_secret
from callwright.kit.db import Database
from callwright.kit.security import hash_password
from callwright.kit.serving import free_port, serving
from callwright.models import User, WebhookDelivery, WebhookEndpoint
from callwright.realtime.events import LiveEvent


async def _nowhere(room: str, event: LiveEvent) -> None:
    """Realtime events reach no socket here."""


async def main(total: int, per_transaction: int, settings: Settings) -> None:
    settings = settings.model_copy(
        update={"webhook_allow_private_targets": True, "webhook_sweep_seconds": 1.0}
    )
    core = Core.build(settings, Database(settings.database_url), _nowhere)
    await core.start(receive=True)
    secret = new_signing_secret()
    verifier = Webhook(secret)
    received = 0

    async def receive(request: Request) -> Response:
        nonlocal received
        verifier.verify((await request.body()).decode(), dict(request.headers))
        received += 1
        return PlainTextResponse("ok")

    port = free_port()
    receiver = Starlette(routes=[Route("/hook", receive, methods=["POST"])])
    async with serving(receiver, port):
        async with core.db.sessionmaker() as session:
            user = User(
                name="Bench",
                email="bench@example.com",
                password_hash=hash_password("bench password"),
                role="user",
            )
            session.add(user)
            await session.flush()
            session.add(
                WebhookEndpoint(
                    user_id=user.id,
                    url=f"http://127.0.0.1:{port}/hook",
                    events=["call.ended"],
                    secret=secret,
                )
            )
            await session.commit()
            user_id = user.id

        started = time.perf_counter()
        written = 0
        while written < total:
            batch = min(per_transaction, total - written)
            async for session in core.db.session():
                for n in range(written, written + batch):
                    await core.outbox.emit(
                        session,
                        user_id=user_id,
                        event="call.ended",
                        data={"call_id": f"call-{n}", "price": 0.49, "metadata": {"n": n}},
                    )
            written += batch
        await core.jobs.drain()  # every deliver job has run (the in-memory broker)
        elapsed = time.perf_counter() - started

        async with core.db.sessionmaker() as session:
            rows = (
                await session.execute(
                    select(WebhookDelivery.created_at, WebhookDelivery.finished_at).where(
                        WebhookDelivery.status == "delivered"
                    )
                )
            ).all()
    await core.close()

    assert received == total, f"the receiver verified {received} of {total}"
    latencies = sorted((done - made).total_seconds() * 1000 for made, done in rows if done)
    print(f"deliveries: {total} ({per_transaction} per transaction), all verified by the receiver")
    print(f"delivered: {len(rows)} in {elapsed:.2f} s = {len(rows) / elapsed:.0f} deliveries/s")
    print(
        f"latency written -> delivered: p50 {statistics.median(latencies):.0f} ms, "
        f"p95 {latencies[int(len(latencies) * 0.95) - 1]:.0f} ms"
    )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    per_tx = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as tmp:
        bench, _env = bench_settings(tmp)  # migrates (outside the event loop)
        asyncio.run(main(count, per_tx, bench))
