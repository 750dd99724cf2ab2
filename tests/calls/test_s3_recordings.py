"""Recordings in S3-compatible storage (CALLWRIGHT_S3_BUCKET), against moto's S3 server: a
call's MP3 lands in the bucket under the prefix, the dashboard's players stream it from there
(a Range answered with 206, so the call page can seek), the reconciler's salvage of a dead
voice process's spool writes there too, and a bucket that refuses the MP3 leaves the spool for
the reconciler instead of losing the recording. One whole sandbox call runs with S3 on."""

from __future__ import annotations

import os
import time

import numpy as np
from fastapi import FastAPI

from callwright.calls import flows as flows_module
from callwright.calls.media_hooks import MediaHooks
from callwright.calls.recordings import spooled
from callwright.kit.storage import S3Store
from callwright.models import Call
from callwright.speech.audio import mp3_bytes, stereo, tone
from callwright.voice_agent.contract import Recording
from tests.calls.test_recording_spool import RATE, _spooled_call
from tests.factories import add_user, signed_in
from tests.live import Live, decode_mp3
from tests.s3_server import PREFIX, S3


async def _row(app: FastAPI, call_id: str) -> Call:
    async with app.state.db.sessionmaker() as session:
        call: Call | None = await session.get(Call, call_id)
    assert call is not None
    return call


def _recording(seconds: float) -> Recording:
    samples = stereo(tone(440, seconds), tone(660, seconds))
    return Recording(samples.reshape(-1), RATE, seconds)


async def test_a_finished_calls_mp3_lands_in_the_bucket_under_the_prefix(
    app: FastAPI, s3: S3, s3_store: S3Store
) -> None:
    user = await add_user(app, email="s3-call@example.com", balance_cents=1000)
    call_id = await _spooled_call(app, user.id, ended_ago=0)
    folder = app.state.calls.media.recordings
    hooks: MediaHooks = app.state.media_calls.hooks(call_id)
    await hooks.finished(_recording(2.0))

    assert f"{PREFIX}{call_id}.mp3" in s3.objects()
    assert not (folder / f"{call_id}.mp3").exists(), "nothing on the local disk"
    assert not spooled(folder, call_id), "the spool is gone once the MP3 is stored"
    call = await _row(app, call_id)
    assert call.recording_path == f"{call_id}.mp3"
    assert call.finalized_at is not None
    body = s3.client().get_object(Bucket=s3.bucket, Key=f"{PREFIX}{call_id}.mp3")["Body"]
    samples, rate = decode_mp3(body.read())
    assert rate == RATE
    assert abs(len(samples) / rate - 2.0) < 0.2


async def test_the_players_stream_the_recording_from_the_bucket_with_ranges(
    app: FastAPI, s3_store: S3Store
) -> None:
    client, user = await signed_in(app, "s3-player@example.com", balance_cents=1000)
    call_id = await _spooled_call(app, user.id, ended_ago=0)
    mp3 = mp3_bytes(stereo(tone(440, 3.0), tone(660, 3.0)), RATE, 2)
    await s3_store.put(f"{call_id}.mp3", mp3)
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call_id)
        assert row is not None
        row.recording_path = f"{call_id}.mp3"
        await session.commit()
    async with client:
        whole = await client.api("GET", f"download-recording/{call_id}")
        part = await client.api(
            "GET", f"play-recording/{call_id}", headers={"Range": "bytes=100-1099"}
        )
        tail = await client.api("GET", f"play-recording/{call_id}", headers={"Range": "bytes=-10"})
        past = await client.api(
            "GET", f"play-recording/{call_id}", headers={"Range": f"bytes={len(mp3)}-"}
        )
        await s3_store.delete(f"{call_id}.mp3")
        gone = await client.api("GET", f"play-recording/{call_id}")
    assert (whole.status_code, whole.content) == (200, mp3)
    assert whole.headers["content-disposition"] == (
        f'attachment; filename="recording_{call_id}.mp3"'
    )
    assert part.status_code == 206
    assert part.content == mp3[100:1100]
    assert part.headers["content-range"] == f"bytes 100-1099/{len(mp3)}"
    assert part.headers["content-type"] == "audio/mpeg"
    assert part.headers["content-disposition"].startswith("inline")
    assert (tail.status_code, tail.content) == (206, mp3[-10:])
    assert past.status_code == 416
    assert gone.status_code == 404


async def test_a_bucket_out_of_reach_answers_503_not_a_crash(app: FastAPI, s3: S3) -> None:
    client, user = await signed_in(app, "s3-down@example.com", balance_cents=1000)
    call_id = await _spooled_call(app, user.id, ended_ago=0)
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call_id)
        assert row is not None
        row.recording_path = f"{call_id}.mp3"
        await session.commit()
    flows = app.state.calls.flows
    kept, flows.store = flows.store, s3.store(secret_access_key="wrong-secret")
    try:
        async with client:
            answer = await client.api("GET", f"play-recording/{call_id}")
    finally:
        flows.store = kept
    assert answer.status_code == 503
    assert "storage" in answer.json()["message"]


async def test_the_reconcilers_salvage_writes_to_the_bucket(
    app: FastAPI, s3: S3, s3_store: S3Store
) -> None:
    user = await add_user(app, email="s3-orphan@example.com", balance_cents=1000)
    grace = flows_module.MEDIA_GRACE.total_seconds()
    dead = await _spooled_call(app, user.id, ended_ago=grace + 5)
    folder = app.state.calls.media.recordings
    old = time.time() - grace - 5
    for spool in spooled(folder, dead):
        os.utime(spool, (old, old))

    assert await app.state.calls.flows.reconcile() == 1
    assert f"{PREFIX}{dead}.mp3" in s3.objects()
    assert not (folder / f"{dead}.mp3").exists()
    assert not spooled(folder, dead)
    call = await _row(app, dead)
    assert call.recording_path == f"{dead}.mp3"
    assert call.finalized_at is not None
    samples, _ = decode_mp3(await s3_store.read(f"{dead}.mp3"))
    assert abs(len(samples) / RATE - 3.0) < 0.2  # the agent's 3 s spooled


async def test_a_bucket_that_refuses_the_mp3_leaves_the_spool_to_the_reconciler(
    app: FastAPI, s3: S3, s3_store: S3Store
) -> None:
    user = await add_user(app, email="s3-refused@example.com", balance_cents=1000)
    call_id = await _spooled_call(app, user.id, ended_ago=0)
    folder = app.state.calls.media.recordings
    flows = app.state.calls.flows
    flows.store = s3.store(secret_access_key="wrong-secret")
    hooks: MediaHooks = app.state.media_calls.hooks(call_id)
    await hooks.finished(_recording(2.0))
    call = await _row(app, call_id)
    assert call.media_ended_at is None, "not finalised without its recording"
    assert call.recording_path is None
    assert spooled(folder, call_id), "the spool is kept"

    flows.store = s3_store  # the bucket answers again
    grace = flows_module.MEDIA_GRACE.total_seconds()
    old = time.time() - grace - 5
    for spool in spooled(folder, call_id):
        os.utime(spool, (old, old))
    async with app.state.db.sessionmaker() as session:
        row = await session.get(Call, call_id)
        assert row is not None
        assert row.ended_at is not None
        row.ended_at = row.ended_at - flows_module.MEDIA_GRACE * 2
        await session.commit()
    assert await flows.reconcile() == 1
    assert f"{PREFIX}{call_id}.mp3" in s3.objects()
    assert (await _row(app, call_id)).recording_path == f"{call_id}.mp3"


async def test_a_sandbox_call_with_s3_on_records_into_the_bucket(live: Live, s3: S3) -> None:
    """The whole path: the voice pipeline's recording at the call's end goes to the bucket, and
    the player streams it from there."""
    flows = live.calls.flows
    kept, flows.store = flows.store, s3.store()
    try:
        call_id = await live.place("+15005550005")  # answers, hangs up after a few seconds
        call = await live.wait_finalized(call_id, within=60)
    finally:
        flows.store = kept
    assert call.recording_path == f"{call_id}.mp3"
    assert f"{PREFIX}{call_id}.mp3" in s3.objects()
    assert not (live.calls.media.recordings / f"{call_id}.mp3").exists()
    body = s3.client().get_object(Bucket=s3.bucket, Key=f"{PREFIX}{call_id}.mp3")["Body"]
    samples, _ = decode_mp3(body.read())
    assert np.abs(samples.astype(float)).mean() > 10, "sound, not silence"
