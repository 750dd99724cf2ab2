"""`kill -9` of a voice process with calls live (PostgreSQL + Redis): an API process (with the
sandbox network) and a `callwright voice` process apart; three calls are talking when the
voice process is killed. Each call is ended at the carrier, finalised by the reconciler within
a bounded time, billed exactly once for the seconds the carrier reported, and keeps its partial
transcript (written line by line) and its recording (the spool the voice process wrote as the
call went, turned into the MP3).

The PostgreSQL pass of scripts/test.sh runs it (the SQLite pass skips it)."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.calls import flows as flows_module
from callwright.calls.recordings import spooled
from callwright.config import Settings
from callwright.models import Call, CallEvent, LedgerEntry, TranscriptEntry
from tests.factories import add_user
from tests.live import decode_mp3, place_call
from tests.workers import REDIS_URL, voice_stage

pytestmark = pytest.mark.asyncio

#: Long conversations (docs/sandbox.md): busy now, curious, interested.
PEOPLE = ["+15005550100", "+15005550102", "+15005550103"]
#: Killed once each call has this many transcript lines and seconds of recording spooled.
LINES, SPOOLED_SECONDS = 2, 2


async def _lines(app: FastAPI, call_id: str) -> int:
    async with app.state.db.sessionmaker() as session:
        count = await session.scalar(select(func.count()).where(TranscriptEntry.call_id == call_id))
    return int(count or 0)


async def _progress(app: FastAPI, ids: list[str], folder: Path) -> str:
    """Where each call stands (for a failure's message)."""
    async with app.state.db.sessionmaker() as session:
        calls = {c.id: c for c in await session.scalars(select(Call).where(Call.id.in_(ids)))}
    parts = []
    for i in ids:
        sizes = [f.stat().st_size for f in spooled(folder, i)]
        parts.append(f"{calls[i].status} lines={await _lines(app, i)} spooled={sizes}")
    return "; ".join(parts)


async def test_a_killed_voice_process_loses_no_call(
    app: FastAPI, migrated: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not migrated.database_url.startswith("postgresql") or not REDIS_URL:
        pytest.skip("PostgreSQL + Redis: the PostgreSQL pass of scripts/test.sh runs it")
    # The reconciler takes a media host for dead sooner than in production (20 s).
    monkeypatch.setattr(flows_module, "MEDIA_GRACE", timedelta(seconds=3))
    user = await add_user(app, email="voicekill@example.com", balance_cents=10_000)
    async with voice_stage(migrated, tmp_path) as stage:
        api, voice, log = stage.api, stage.voice, stage.log
        loop = asyncio.get_running_loop()
        ids: list[str] = []
        for number in PEOPLE:
            ids.append(await place_call(api, number, user_id=user.id))
        # Killed once every call is talking and has recorded a few seconds.
        folder = migrated.data_dir / "recordings"
        deadline = loop.time() + 120
        while not all(
            [await _lines(api, i) >= LINES for i in ids]
            + [
                any(f.stat().st_size >= 8000 * 4 * SPOOLED_SECONDS for f in spooled(folder, i))
                for i in ids
            ]
        ):
            assert voice.poll() is None, log.read_text()
            assert loop.time() < deadline, await _progress(api, ids, folder)
            await asyncio.sleep(0.2)
        heard = {i: await _lines(api, i) for i in ids}
        voice.send_signal(signal.SIGKILL)
        voice.wait()
        killed_at = loop.time()

        flows = api.state.calls.flows
        while True:
            await flows.reconcile()
            async with api.state.db.sessionmaker() as session:
                done = await session.scalar(
                    select(func.count()).where(Call.id.in_(ids), Call.finalized_at.is_not(None))
                )
            if done == len(ids):
                break
            assert loop.time() - killed_at < 60, "the reconciler did not close the calls"
            await asyncio.sleep(1)
        network = api.state.sandbox
        assert all(c.ended is not None for c in network.calls.values()), "ended at the carrier"

    async with app.state.db.sessionmaker() as session:
        calls = list(await session.scalars(select(Call).where(Call.id.in_(ids))))
        charges = Counter(
            await session.scalars(
                select(LedgerEntry.call_id).where(
                    LedgerEntry.call_id.in_(ids), LedgerEntry.kind == "charge"
                )
            )
        )
        lost = Counter(
            await session.scalars(
                select(CallEvent.call_id).where(
                    CallEvent.call_id.in_(ids), CallEvent.message == flows_module.MEDIA_LOST
                )
            )
        )
    for call in calls:
        assert call.status in ("completed", "failed"), (call.status, call.error)
        assert call.duration_seconds, call.id
        assert charges[call.id] == 1, "billed once"
        assert call.cost_cents is not None
        assert lost[call.id] == 1
        assert await _lines(app, call.id) >= heard[call.id], "the transcript so far is kept"
        assert call.recording_path, "the recording so far is kept"
        samples, rate = decode_mp3((folder / call.recording_path).read_bytes())
        assert samples.shape[1] == 2
        assert len(samples) / rate >= SPOOLED_SECONDS
        # Both voices: the agent left, the callee right.
        assert np.abs(samples[:, 0]).max() > 1000, "the agent is heard"
        assert np.abs(samples[:, 1]).max() > 1000, "the callee is heard"
        assert not spooled(folder, call.id), "the spool is gone once used"
