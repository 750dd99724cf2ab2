"""`callwright call`: an embedded server on a free port, one call, its live events."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace

import typer

from callwright.config import Settings, get_settings
from callwright.kit.phone import dial_number
from callwright.kit.serving import free_port, serving
from callwright.sandbox.numbers import own_numbers_on
from callwright.speech import tts

BACKGROUNDS = ("null", "office", "cafe", "restaurant", "none")


@dataclass(frozen=True)
class CallOptions:
    to: str
    prompt: str
    voice: str
    max_duration: int
    wait_for_greeting: bool
    background: str
    speed: float


def place_call(options: CallOptions) -> int:
    try:
        # The send-call rule, and the same E.164 spelling a request's number gets.
        settings = get_settings()
        to = dial_number(options.to, settings.default_region, own_numbers_on(settings.carrier))
        options = replace(options, to=to)
    except ValueError as error:
        typer.echo(str(error), err=True)
        return 2
    if tts.find(options.voice) is None:
        names = ", ".join(v.name for v in tts.catalogue())
        typer.echo(f"unknown voice {options.voice!r}; try: {names}", err=True)
        return 2
    if options.background not in BACKGROUNDS:
        typer.echo("background must be " + ", ".join(BACKGROUNDS), err=True)
        return 2
    return asyncio.run(_run(options))


async def _run(options: CallOptions) -> int:
    from callwright.calls import repository as calls
    from callwright.calls.domain import Calls
    from callwright.calls.service import CallOrder
    from callwright.main import create_app
    from callwright.realtime.events import LiveEvent, WebhookEvent
    from callwright.realtime.server import ADMIN_ROOM

    port = free_port()
    settings = get_settings().model_copy(
        update={
            "app_url": f"http://127.0.0.1:{port}",
            "port": port,
            "sandbox_speed": options.speed,
            "warm_up_voice": False,
        }
    )
    app = create_app(settings)
    started = [time.perf_counter()]

    async def publish(room: str, event: LiveEvent) -> None:
        if room == ADMIN_ROOM and isinstance(event, WebhookEvent):
            elapsed = time.perf_counter() - started[0]
            typer.echo(f"[{elapsed:6.1f}s] {event.category:6}  {event.message}")

    domain: Calls = app.state.calls
    domain.events.publish = publish
    async with serving(app, port):
        typer.echo("loading the speech models...")
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        await asyncio.to_thread(tts.warm_up, tts.find(options.voice) or tts.default_voice())
        typer.echo(
            f"calling {options.to} through the {domain.flows.carrier.name} carrier "
            f"(voice {options.voice}, brain: {_brain(settings)})"
        )
        started[0] = time.perf_counter()
        async for session in app.state.db.session():
            row = await domain.service.place(
                session,
                CallOrder(
                    kind="cli",
                    to_number=options.to,
                    prompt=options.prompt,
                    voice=options.voice,
                    background_audio=options.background,
                    max_duration=options.max_duration,
                    wait_for_greeting=options.wait_for_greeting,
                ),
            )
            call_id = row.id
        code = 0
        try:
            call = await domain.flows.wait_finalized(call_id)
        except (KeyboardInterrupt, asyncio.CancelledError):
            typer.echo("hanging up...")
            await domain.flows.hang_up(call_id)
            call = await domain.flows.wait_finalized(call_id, within=30)
            code = 130
        async for session in app.state.db.session():
            lines = await calls.transcript(session, call_id)
        transcript_path = settings.data_dir / "transcripts" / f"{call_id}.txt"
        transcript_path.parent.mkdir(parents=True, exist_ok=True)
        transcript_path.write_text("".join(f"{e.speaker}: {e.text}\n" for e in lines))
        typer.echo("")
        typer.echo(f"call {call_id}: {call.status}, {call.duration_seconds or 0} s")
        if call.recording_path:
            typer.echo(f"recording:  {domain.media.store.location(call.recording_path)}")
        typer.echo(f"transcript: {transcript_path}")
        return code


def _brain(settings: Settings) -> str:
    if settings.llm_base_url:
        return f"LLM {settings.llm_model} at {settings.llm_base_url}"
    return "offline demo policy"
