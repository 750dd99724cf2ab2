"""GET voices: the voices this server can speak, each with a sample made once and cached."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel

from callwright.auth.deps import CurrentUser
from callwright.kit.deps import SettingsDep
from callwright.kit.envelope import Envelope
from callwright.kit.errors import or_404
from callwright.speech import tts
from callwright.speech.audio import PHONE_RATE, mp3_bytes

router = APIRouter(tags=["voices"])
SAMPLE_TEXT = "Hi, this is your Callwright assistant. I can call your customers and hold a friendly conversation for you."
_locks: dict[str, asyncio.Lock] = {}


class VoiceOut(BaseModel):
    name: str
    description: str
    recording_url: str
    engine: str
    gender: str


class VoicesOut(Envelope):
    voices: list[VoiceOut]


@router.get("/voices")
async def list_voices(_user: CurrentUser, request: Request) -> VoicesOut:
    return VoicesOut(
        voices=[
            VoiceOut(
                name=v.name,
                description=v.description,
                recording_url=str(request.url_for("voice_sample", name=v.name).path),
                engine=v.engine,
                gender=v.gender,
            )
            for v in tts.catalogue()
        ]
    )


@router.get("/voices/{name}/sample.mp3", name="voice_sample", response_class=FileResponse)
async def voice_sample(name: str, _user: CurrentUser, settings: SettingsDep) -> FileResponse:
    voice = or_404(tts.find(name), "Unknown voice.")
    path = settings.data_dir / "voice-samples" / f"{voice.name}.mp3"
    lock = _locks.setdefault(voice.name, asyncio.Lock())
    async with lock:
        if not path.is_file():
            await asyncio.to_thread(_make_sample, voice, path)
    return FileResponse(
        path, media_type="audio/mpeg", headers={"Cache-Control": "private, max-age=86400"}
    )


def _make_sample(voice: tts.Voice, path: Path) -> None:
    pcm = tts.synthesize(voice, SAMPLE_TEXT, PHONE_RATE * 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(mp3_bytes(pcm, PHONE_RATE * 2, 1, kbps=32))
    partial.replace(path)
