"""GET voices: the voices this server can speak, each with a sample made once and cached;
GET languages (public): the languages a call can be held in, with the voices that speak them."""

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
from callwright.speech import languages, tts
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
    #: The language it speaks (a code of GET /languages).
    language: str


class VoicesOut(Envelope):
    voices: list[VoiceOut]


class LanguageOut(BaseModel):
    #: BCP-47 ("en-US"): what an agent's or a call's `language` takes.
    code: str
    name: str
    #: The voices that speak it (names of GET /voices), the first the default.
    voices: list[str]


class LanguagesOut(Envelope):
    #: The languages that passed the offline round-trip benchmark (docs/voice-engine.md) and
    #: that an installed voice speaks.
    languages: list[LanguageOut]
    default: str


@router.get("/languages")
async def list_languages() -> LanguagesOut:
    """Public: the languages offered, each with the voices that speak it."""
    offered = [
        LanguageOut(code=lang.code, name=lang.name, voices=[v.name for v in voices])
        for lang in languages.offered()
        if (voices := tts.speaking(lang.code))
    ]
    return LanguagesOut(languages=offered, default=languages.DEFAULT)


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
                language=v.language,
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
