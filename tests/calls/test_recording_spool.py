"""A live call's recording spool and what the reconciler makes of it when the call's voice
process died: the spool becomes the call's MP3 (agent left, callee right), the call is
finalised and billed once; a spool still growing means the process lives, so it waits."""

from __future__ import annotations

import os
import time
from datetime import timedelta

import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.calls import flows as flows_module
from callwright.calls.media_hooks import MediaHooks
from callwright.calls.recordings import salvage_recording, spooled
from callwright.kit.time import utcnow
from callwright.models import Call, CallEvent, LedgerEntry
from tests.factories import add_user, queued_call
from tests.live import decode_mp3

pytestmark = pytest.mark.asyncio

RATE = 8000


def _tone(seconds: float, hz: float) -> bytes:
    t = np.arange(int(seconds * RATE)) / RATE
    return (np.sin(2 * np.pi * hz * t) * 12_000).astype(np.int16).tobytes()


async def _spooled_call(app: FastAPI, user_id: int, *, ended_ago: float) -> str:
    """An answered call the carrier ended `ended_ago` seconds ago, whose media never reported
    its end, with 3 s of the agent and 2 s of the callee spooled in slices."""
    call = await queued_call(app, user_id)
    hooks: MediaHooks = app.state.media_calls.hooks(call.id)
    for _ in range(2):
        await hooks.recorded(_tone(1, 300), _tone(1.5, 700), RATE)
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call.id)
        assert row is not None
        ended = utcnow() - timedelta(seconds=ended_ago)
        row.status, row.carrier_call_id = "completed", f"CA{call.id.replace('-', '')}"
        row.answered_at, row.ended_at = ended - timedelta(seconds=4), ended
        row.duration_seconds, row.answered_by = 4, "human"
        await session.commit()
    return call.id


async def test_the_spool_becomes_the_recording_agent_left_callee_right(app: FastAPI) -> None:
    user = await add_user(app, email="spool@example.com", balance_cents=1000)
    call_id = await _spooled_call(app, user.id, ended_ago=0)
    folder = app.state.settings.data_dir / "recordings"
    assert [p.name.split("-")[-1] for p in spooled(folder, call_id)] == ["agent.pcm", "callee.pcm"]
    name = await salvage_recording(app.state.calls.media.store, folder, call_id)
    assert name == f"{call_id}.mp3"
    samples, rate = decode_mp3((folder / name).read_bytes())
    assert rate == RATE
    assert abs(len(samples) / rate - 3.0) < 0.2  # the longer track, the other padded
    left, right = samples[:, 0].astype(float), samples[:, 1].astype(float)
    one = slice(int(0.2 * rate), int(1.8 * rate))  # both sides speak in the first 2 s
    assert np.abs(left[one]).mean() > 2000
    assert np.abs(right[one]).mean() > 2000
    tail = slice(int(2.3 * rate), int(2.8 * rate))  # only the agent's track runs on
    assert np.abs(left[tail]).mean() > 2000
    assert np.abs(right[tail]).mean() < 300
    # The agent's 700 Hz is on the left, the callee's 300 Hz on the right.
    spectrum = np.abs(np.fft.rfft(left[one]))
    assert np.argmax(spectrum) * rate / (2 * len(spectrum)) == pytest.approx(700, abs=20)
    assert not spooled(folder, call_id), "the spool is gone"


async def test_the_reconciler_closes_a_call_whose_voice_process_died(app: FastAPI) -> None:
    user = await add_user(app, email="orphan@example.com", balance_cents=1000)
    grace = flows_module.MEDIA_GRACE.total_seconds()
    dead = await _spooled_call(app, user.id, ended_ago=grace + 5)
    alive = await _spooled_call(app, user.id, ended_ago=grace + 5)
    folder = app.state.settings.data_dir / "recordings"
    old = time.time() - grace - 5
    for spool in spooled(folder, dead):
        os.utime(spool, (old, old))  # its process stopped writing long ago

    assert await app.state.calls.flows.reconcile() == 1
    async with app.state.db.sessionmaker() as session:
        closed, waiting = await session.get(Call, dead), await session.get(Call, alive)
        charges = await session.scalar(
            select(func.count()).where(LedgerEntry.call_id == dead, LedgerEntry.kind == "charge")
        )
        notes = list(
            await session.scalars(select(CallEvent.message).where(CallEvent.call_id == dead))
        )
    assert closed is not None
    assert waiting is not None
    assert closed.finalized_at is not None
    assert closed.recording_path == f"{dead}.mp3"
    assert charges == 1
    assert closed.cost_cents is not None
    assert flows_module.MEDIA_LOST in notes
    assert waiting.finalized_at is None, "a spool written just now: its process lives"
    assert spooled(folder, alive)
    assert await app.state.calls.flows.reconcile() == 0, "closed once"
