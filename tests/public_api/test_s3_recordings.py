"""`GET /v1/recordings/{id}` with the recordings in S3-compatible storage (moto's S3 server):
the MP3 and the WAV made from it are streamed from the bucket, and a Range answers 206 with the
bytes asked for."""

from __future__ import annotations

import io
import wave

from fastapi import FastAPI
from sqlalchemy import update

from callwright.kit.storage import S3Store
from callwright.models import Call
from callwright.speech.audio import mp3_bytes, stereo, tone
from tests.factories import queued_call
from tests.public_api.test_v1_api import api, keyed
from tests.s3_server import PREFIX, S3


async def test_the_recording_streams_from_the_bucket_as_mp3_and_wav_with_ranges(
    app: FastAPI, s3: S3, s3_store: S3Store
) -> None:
    user, key = await keyed(app)
    call = await queued_call(app, user.id)
    mp3 = mp3_bytes(stereo(tone(440, 1.0), tone(660, 1.0)), 8000, 2)
    await s3_store.put(f"{call.id}.mp3", mp3)
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(Call).where(Call.id == call.id).values(recording_path=f"{call.id}.mp3")
        )
        await session.commit()
    mpeg = {"accept": "audio/mpeg"}
    async with api(app, key) as client:
        as_mp3 = await client.get(f"/v1/recordings/{call.id}", headers=mpeg)
        part = await client.get(f"/v1/recordings/{call.id}", headers=mpeg | {"range": "bytes=0-99"})
        wav = await client.get(f"/v1/recordings/{call.id}")
        wav_part = await client.get(f"/v1/recordings/{call.id}", headers={"range": "bytes=-44"})
    assert (as_mp3.status_code, as_mp3.content) == (200, mp3)
    assert as_mp3.headers["content-type"] == "audio/mpeg"
    assert part.status_code == 206
    assert part.content == mp3[:100]
    assert part.headers["content-range"] == f"bytes 0-99/{len(mp3)}"

    assert wav.status_code == 200
    assert wav.headers["content-type"] == "audio/wav"
    with wave.open(io.BytesIO(wav.content)) as w:
        assert (w.getnchannels(), w.getframerate()) == (2, 8000)
        assert w.getnframes() >= 7000
    assert f"{PREFIX}{call.id}.wav" in s3.objects(), "made once, kept in the bucket"
    assert wav_part.status_code == 206
    assert wav_part.content == wav.content[-44:]
    assert not (app.state.calls.media.recordings / f"{call.id}.wav").exists()


async def test_no_recording_in_the_bucket_is_404(app: FastAPI, s3_store: S3Store) -> None:
    user, key = await keyed(app)
    call = await queued_call(app, user.id)
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(Call).where(Call.id == call.id).values(recording_path=f"{call.id}.mp3")
        )
        await session.commit()
    async with api(app, key) as client:
        wav = await client.get(f"/v1/recordings/{call.id}")
        mp3 = await client.get(f"/v1/recordings/{call.id}", headers={"accept": "audio/mpeg"})
    assert wav.status_code == mp3.status_code == 404
    assert "CALL_RECORDING_NOT_FOUND" in wav.text
