"""The scale-out topology as `scripts/cluster.sh` starts it (2 API processes behind nginx, 2
workers, 2 voice processes, the sandbox network in a process of its own, PostgreSQL and Redis):
20 sandbox calls placed at once through the proxy all end completed, recorded and billed once,
and a socket.io client on the *other* API process sees every call's events, its end included.

It needs PostgreSQL, Redis and nginx and runs about two minutes, so only the PostgreSQL pass of
scripts/test.sh runs it (the SQLite pass skips it)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.config import REPO_ROOT, Settings
from callwright.kit.serving import free_port
from callwright.models import Call, LedgerEntry, User
from tests.factories import DEFAULT_PASSWORD, add_user
from tests.workers import REDIS_URL

pytestmark = pytest.mark.asyncio

CALLS = 20
#: Answers, says hello, hangs up after a few seconds: a whole call that costs little CPU.
HANGS_UP = "+15005550005"
SCRIPT = REPO_ROOT / "scripts" / "cluster.sh"
BASH = shutil.which("bash") or "/bin/bash"


def _cluster(action: str, env: dict[str, str], log: Path) -> None:
    with log.open("ab") as out:
        done = subprocess.run(  # noqa: S603 - our own script
            [BASH, str(SCRIPT), action],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=240,
            check=False,
        )
    assert done.returncode == 0, log.read_text()[-4000:]


async def _signed_in(http: httpx.AsyncClient, email: str) -> tuple[str, dict[str, str]]:
    """A bearer token and the CSRF header, as the SPA gets them."""
    assert (await http.get("/api/v1/sanctum/csrf-cookie")).status_code == 204
    csrf = {"X-XSRF-TOKEN": http.cookies["XSRF-TOKEN"]}
    login = await http.post(
        "/api/v1/login", json={"email": email, "password": DEFAULT_PASSWORD}, headers=csrf
    )
    assert login.status_code == 200, login.text
    token = str(login.json()["token"])
    return token, {**csrf, "Authorization": f"Bearer {token}"}


async def test_twenty_calls_at_once_through_the_cluster(
    app: FastAPI, migrated: Settings, tmp_path: Path
) -> None:
    if not migrated.database_url.startswith("postgresql") or not REDIS_URL:
        pytest.skip("PostgreSQL + Redis: the PostgreSQL pass of scripts/test.sh runs it")
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs nginx-light)")
    port = free_port()
    base = random.randrange(20_000, 40_000, 100)
    env = {
        **os.environ,
        "CLUSTER_DIR": str(tmp_path / "cluster"),
        "CLUSTER_PORT": str(port),
        "CLUSTER_BASE_PORT": str(base),
        "CLUSTER_REDIS_URL": REDIS_URL,
        "CLUSTER_SKIP_INSTALL": "1",
        "CLUSTER_SKIP_SEED": "1",
        "CLUSTER_SANDBOX_SPEED": "2",
        "CALLWRIGHT_DATABASE_URL": migrated.database_url,
        "CALLWRIGHT_ENV": "test",
        "CALLWRIGHT_CALLING_HOURS": "00:00-24:00",
        "CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY": "0",
        "CALLWRIGHT_WARM_UP_VOICE": "true",
    }
    user = await add_user(app, email="cluster@example.com", balance_cents=100_000)
    log = tmp_path / "cluster.log"
    events: list[dict[str, Any]] = []
    other_api = f"http://127.0.0.1:{base + 2}"
    try:
        _cluster("start", env, log)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            token, headers = await _signed_in(http, user.email)
            watcher = socketio.AsyncClient(reconnection=False)
            watcher.on("webhook-event", lambda data: events.append(data))
            await watcher.connect(
                other_api, auth={"token": token}, transports=["websocket"], wait_timeout=10
            )
            try:
                body = {
                    "userId": user.id,
                    "phone": HANGS_UP,
                    "prompt": "You are Sarah from Bright Dental, calling to confirm a visit.",
                    "voice": "joe",
                    "max_duration": 2,
                }
                answers = await asyncio.gather(
                    *(
                        http.post("/api/v1/send-call", json=body, headers=headers)
                        for _ in range(CALLS)
                    )
                )
                assert [a.status_code for a in answers] == [200] * CALLS, answers[0].text
                ids = {a.json()["callId"] for a in answers}
                loop = asyncio.get_running_loop()
                deadline = loop.time() + 180
                while {e["callId"] for e in events if e["completed"]} != ids:
                    assert loop.time() < deadline, (
                        f"{len({e['callId'] for e in events if e['completed']})} of {CALLS} ended"
                        f" as seen on the other API process; logs in {tmp_path}"
                    )
                    await asyncio.sleep(0.5)
            finally:
                await watcher.disconnect()
    finally:
        _cluster("stop", env, log)

    async with app.state.db.sessionmaker() as session:
        calls = list(await session.scalars(select(Call).where(Call.id.in_(ids))))
        charges = Counter(
            await session.scalars(
                select(LedgerEntry.call_id).where(
                    LedgerEntry.call_id.in_(ids), LedgerEntry.kind == "charge"
                )
            )
        )
        spent = await session.scalar(
            select(func.sum(LedgerEntry.amount_cents)).where(LedgerEntry.user_id == user.id)
        )
        balance = await session.scalar(select(User.balance_cents).where(User.id == user.id))
    assert len(calls) == CALLS
    assert Counter(c.status for c in calls) == {"completed": CALLS}, [
        (c.status, c.end_reason, c.error) for c in calls
    ]
    assert all(c.recording_path and c.answered_at for c in calls)
    assert all(c.finalized_at is not None for c in calls)
    assert charges == {c.id: 1 for c in calls}, "each call billed once"
    # Holds released, charges taken: the balance is what the ledger says, nothing held.
    assert balance == 100_000 + (spent or 0)
    assert sum(c.cost_cents or 0 for c in calls) == -(spent or 0)
