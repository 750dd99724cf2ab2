"""The scale-out topology as `scripts/cluster.sh` starts it (2 API processes behind nginx, 2
workers, 2 voice processes, the sandbox network in a process of its own, PostgreSQL and Redis),
started once for both tests:

- 20 sandbox calls placed at once through the proxy all end completed, recorded and billed
  once, and a socket.io client on the *other* API process sees every call's events, its end
  included;
- a rolling restart of the API processes (`scripts/cluster.sh restart-api`) while 10 calls are
  live: no call dropped, no request failed, and each browser's socket reconnects and, catching
  up as the web app does, shows its call's whole transcript, each line once, in order.

It needs PostgreSQL, Redis and nginx and runs about two and a half minutes, so only the
PostgreSQL pass of scripts/test.sh runs it (the SQLite pass skips it)."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.config import REPO_ROOT, Settings
from callwright.kit.serving import free_port
from callwright.models import Call, LedgerEntry, TranscriptEntry, User
from tests.factories import DEFAULT_PASSWORD, add_user
from tests.workers import REDIS_URL

pytestmark = pytest.mark.asyncio

CALLS = 20
#: Calls live through the rolling restart.
LIVE = 10
#: Answers, says hello, hangs up after a few seconds: a whole call that costs little CPU.
HANGS_UP = "+15005550005"
#: Answers and stays silent, hangs up after 45 s (22 s at the cluster's speed): live through
#: the restart, and cheap (no speech to transcribe).
SILENT = "+15005550007"
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


@dataclass
class Cluster:
    """A cluster started by scripts/cluster.sh for this module's tests."""

    port: int
    base: int
    env: dict[str, str]
    folder: Path

    @property
    def log(self) -> Path:
        return self.folder / "cluster.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def api_url(self, number: int) -> str:
        """API process `number` (1 or 2), not through the proxy."""
        return f"http://127.0.0.1:{self.base + number}"

    def run(self, action: str) -> None:
        """`scripts/cluster.sh ACTION` with this cluster's settings."""
        _cluster(action, self.env, self.log)


@pytest.fixture(scope="module")
def cluster(migrated: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """One cluster for the module's tests (its start costs about 30 s)."""
    if not migrated.database_url.startswith("postgresql") or not REDIS_URL:
        pytest.skip("PostgreSQL + Redis: the PostgreSQL pass of scripts/test.sh runs it")
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs nginx-light)")
    folder = tmp_path_factory.mktemp("cluster")
    port = free_port()
    base = random.randrange(20_000, 40_000, 100)
    env = {
        **os.environ,
        "CLUSTER_DIR": str(folder / "cluster"),
        "CLUSTER_PORT": str(port),
        "CLUSTER_BASE_PORT": str(base),
        "CLUSTER_REDIS_URL": REDIS_URL,
        "CLUSTER_SKIP_INSTALL": "1",
        "CLUSTER_SKIP_SEED": "1",
        "CLUSTER_SANDBOX_SPEED": "2",
        "CALLWRIGHT_DATABASE_URL": migrated.database_url,
        "CALLWRIGHT_ENV": "test",
        "CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY": "0",
        "CALLWRIGHT_WARM_UP_VOICE": "true",
    }
    started = Cluster(port=port, base=base, env=env, folder=folder)
    try:
        started.run("start")
        yield started
    finally:
        started.run("stop")


async def _send_calls(
    http: httpx.AsyncClient, headers: dict[str, str], user_id: int, phone: str, count: int
) -> list[str]:
    """`count` calls to `phone` sent at once through the proxy, as Send Call sends them."""
    body = {
        "userId": user_id,
        "phone": phone,
        "prompt": "You are Sarah from Bright Dental, calling to confirm a visit.",
        "voice": "joe",
        "max_duration": 2,
    }
    answers = await asyncio.gather(
        *(http.post("/api/v1/send-call", json=body, headers=headers) for _ in range(count))
    )
    assert [a.status_code for a in answers] == [200] * count, answers[0].text
    return [a.json()["callId"] for a in answers]


async def test_twenty_calls_at_once_through_the_cluster(app: FastAPI, cluster: Cluster) -> None:
    user = await add_user(app, email="cluster@example.com", balance_cents=100_000)
    events: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=cluster.url, timeout=60) as http:
        token, headers = await _signed_in(http, user.email)
        watcher = socketio.AsyncClient(reconnection=False)
        watcher.on("webhook-event", lambda data: events.append(data))
        await watcher.connect(
            cluster.api_url(2), auth={"token": token}, transports=["websocket"], wait_timeout=10
        )
        try:
            ids = set(await _send_calls(http, headers, user.id, HANGS_UP, CALLS))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 180
            while {e["callId"] for e in events if e["completed"]} != ids:
                assert loop.time() < deadline, (
                    f"{len({e['callId'] for e in events if e['completed']})} of {CALLS} ended"
                    f" as seen on the other API process; logs in {cluster.log.parent}"
                )
                await asyncio.sleep(0.5)
        finally:
            await watcher.disconnect()

    await _all_ended_well(app, user.id, ids)


@dataclass
class Browser:
    """The Send Call page following one call, as `useLiveCall` does: the call's kept lines by
    their number from `webhook-event`; on load and on every reconnection of the socket the
    user's live calls fetched again (`live-calls`), whose transcript fills in the lines said
    while the socket was away, and for a call no longer among them its details (`call-details`),
    which say whether it ended meanwhile."""

    user_id: int
    call_id: str
    http: httpx.AsyncClient
    headers: dict[str, str]
    sio: socketio.AsyncClient
    #: What the page shows: seq -> (speaker, text).
    lines: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: How many times each line came on the socket.
    delivered: Counter[int] = field(default_factory=Counter)
    #: Lines that only a catch-up brought.
    caught_up: set[int] = field(default_factory=set)
    connects: int = 0
    #: What the page would show as an error toast (a catch-up that failed).
    errors: list[str] = field(default_factory=list)
    answered: bool = False
    #: The transcript as the page showed it when it learnt the call had ended (before the
    #: closing fetch of the whole transcript).
    at_end: list[tuple[str, str]] | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    _catching_up: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.sio.on("connect", self._connected)
        self.sio.on("webhook-event", self._event)

    async def _connected(self) -> None:
        self.connects += 1
        if self.connects > 1:
            task = asyncio.create_task(self._catch_up_or_note())
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)

    async def _get(self, path: str) -> Any:
        answer = await self.http.get(f"/api/v1/{path}", headers=self.headers)
        assert answer.status_code == 200, f"GET {path}: {answer.status_code} {answer.text}"
        return answer.json()["data"]

    async def _catch_up_or_note(self) -> None:
        try:
            await self.catch_up()
        except AssertionError as failed:
            self.errors.append(str(failed))

    async def catch_up(self) -> None:
        live = {c["call_id"]: c for c in await self._get(f"user/{self.user_id}/live-calls")}
        call = live.get(self.call_id)
        if call is None:
            call = await self._get(f"call-details/{self.call_id}")
        for line in call["transcripts"]:
            if line["seq"] not in self.lines:
                self.caught_up.add(line["seq"])
                self.lines[line["seq"]] = (line["user"], line["text"])
        if call.get("answered_at"):
            self.answered = True
        if call.get("completed"):
            await self._end()

    async def _event(self, event: dict[str, Any]) -> None:
        if event["callId"] != self.call_id:
            return
        if event.get("final") is True and isinstance(event.get("seq"), int):
            self.delivered[event["seq"]] += 1
            self.lines[event["seq"]] = (event["speaker"], event["text"])
        elif event["message"] == "Call connected":
            self.answered = True
        elif event["message"] == "Closing call stream":
            await self._end()

    async def _end(self) -> None:
        if self.ended.is_set():
            return
        # A catch-up under way when the end arrives still lands on the page.
        current = asyncio.current_task()
        await asyncio.gather(*(t for t in self._catching_up if t is not current))
        self.at_end = [self.lines[seq] for seq in sorted(self.lines)]
        self.ended.set()


async def _use(
    http: httpx.AsyncClient, path: str, headers: dict[str, str], answered: list[int]
) -> None:
    """GET `path` every 0.2 s until cancelled, noting each status (0: no answer at all)."""
    while True:
        try:
            answered.append((await http.get(path, headers=headers)).status_code)
        except httpx.TransportError:
            answered.append(0)
        await asyncio.sleep(0.2)


async def test_a_rolling_restart_of_the_api_drops_no_call(app: FastAPI, cluster: Cluster) -> None:
    """`scripts/cluster.sh restart-api` while 10 calls are live: every call ends completed and
    billed once with its whole transcript; every browser's socket reconnects and, with the web
    app's catch-up, shows every line of its call once, in order."""
    user = await add_user(app, email="rolling@example.com", balance_cents=100_000)
    pids = cluster.folder / "cluster" / "pids"
    before = {name: (pids / f"{name}.pid").read_text() for name in ("api1", "api2")}
    loop = asyncio.get_running_loop()
    async with httpx.AsyncClient(base_url=cluster.url, timeout=60) as http:
        token, headers = await _signed_in(http, user.email)
        ids = await _send_calls(http, headers, user.id, SILENT, LIVE)
        # One browser per call, through the proxy, with the web app's socket settings.
        browsers = [
            Browser(
                user.id,
                call_id,
                http,
                headers,
                socketio.AsyncClient(reconnection_attempts=5, reconnection_delay=1),
            )
            for call_id in ids
        ]
        try:
            for browser in browsers:
                await browser.sio.connect(cluster.url, auth={"token": token}, wait_timeout=10)
                # Placed before the socket opened: the page starts from the live calls.
                await browser.catch_up()
            # Restarted once the first lines are kept: the calls' lines (the greeting, which a
            # silent callee never interrupts, is kept at the end of the call) and their ends then
            # come while the sockets are away and the carrier's status callbacks find a process
            # down.
            deadline = loop.time() + 90
            while not (all(b.answered for b in browsers) and any(b.lines for b in browsers)):
                assert loop.time() < deadline, "the calls were not answered or said nothing"
                await asyncio.sleep(0.05)

            # Users go on using the app meanwhile: none of their requests may fail.
            answered: list[int] = []
            traffic = asyncio.create_task(
                _use(http, f"/api/v1/user/{user.id}/calls", headers, answered)
            )
            try:
                await asyncio.to_thread(cluster.run, "restart-api")
            finally:
                traffic.cancel()
                await asyncio.gather(traffic, return_exceptions=True)
            assert len(answered) > 20, "the app was in use through the restart"
            assert set(answered) == {200}, Counter(answered)

            deadline = loop.time() + 120
            while not all(b.ended.is_set() for b in browsers):
                assert loop.time() < deadline, (
                    f"{sum(b.ended.is_set() for b in browsers)} of {LIVE} calls seen ending;"
                    f" logs in {cluster.log.parent}"
                )
                await asyncio.sleep(0.5)
        finally:
            for browser in browsers:
                await browser.sio.disconnect()

    after = {name: (pids / f"{name}.pid").read_text() for name in ("api1", "api2")}
    assert all(before[name] != after[name] for name in before), "both API processes restarted"
    await _all_ended_well(app, user.id, set(ids))
    async with app.state.db.sessionmaker() as session:
        rows = (
            await session.execute(
                select(
                    TranscriptEntry.call_id,
                    TranscriptEntry.seq,
                    TranscriptEntry.speaker,
                    TranscriptEntry.text,
                )
                .where(TranscriptEntry.call_id.in_(ids))
                .order_by(TranscriptEntry.call_id, TranscriptEntry.seq)
            )
        ).all()
    stored: dict[str, list[tuple[str, str]]] = {i: [] for i in ids}
    for row in rows:
        assert row.seq == len(stored[row.call_id]) + 1, "lines numbered 1, 2, ... once each"
        stored[row.call_id].append((row.speaker, row.text))
    for browser in browsers:
        assert stored[browser.call_id], "the call's transcript is kept"
        speaker, greeting = stored[browser.call_id][0]
        assert speaker == "assistant", "the agent speaks first"
        assert "Bright Dental" in greeting, f"the agent's greeting: {greeting!r}"
        assert browser.connects >= 2, "the socket reconnected after its API process stopped"
        assert browser.errors == [], "every catch-up was answered"
        assert all(n == 1 for n in browser.delivered.values()), "no line came twice"
        assert browser.at_end == stored[browser.call_id], (
            f"the page showed {browser.at_end}; caught up: {sorted(browser.caught_up)}"
        )


async def _all_ended_well(app: FastAPI, user_id: int, ids: set[str]) -> list[Call]:
    """Every call completed, recorded, finalised and billed once; the user's balance is what
    the ledger says. Answers the calls."""
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
            select(func.sum(LedgerEntry.amount_cents)).where(LedgerEntry.user_id == user_id)
        )
        balance = await session.scalar(select(User.balance_cents).where(User.id == user_id))
    assert len(calls) == len(ids)
    assert Counter(c.status for c in calls) == {"completed": len(ids)}, [
        (c.status, c.end_reason, c.error) for c in calls
    ]
    assert all(c.recording_path and c.answered_at for c in calls)
    assert all(c.finalized_at is not None for c in calls)
    assert charges == {c.id: 1 for c in calls}, "each call billed once"
    # Holds released, charges taken: the balance is what the ledger says, nothing held.
    assert balance == 100_000 + (spent or 0)
    assert sum(c.cost_cents or 0 for c in calls) == -(spent or 0)
    return calls
