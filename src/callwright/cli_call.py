"""`callwright call`: an embedded server on a free port, one call, its live events."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import typer

from callwright.calls.builder import CallRequest, OrderRefused, order_from
from callwright.calls.service import CallOrder
from callwright.config import Settings, get_settings
from callwright.kit.phone import dial_number
from callwright.kit.serving import free_port, serving
from callwright.sandbox.numbers import own_numbers_on
from callwright.speech import tts

if TYPE_CHECKING:
    from fastapi import FastAPI

    from callwright.models import Call

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
    if options.background not in BACKGROUNDS:
        typer.echo("background must be " + ", ".join(BACKGROUNDS), err=True)
        return 2
    return asyncio.run(_run(options))


def _order(options: CallOptions) -> CallOrder | None:
    """The call's order (the checks every call gets); None, said why, when it is refused."""
    request = CallRequest(
        kind="cli",
        to_number=options.to,
        settings={
            "prompt": options.prompt,
            "voice": options.voice,
            "background_audio": options.background,
            "max_duration": options.max_duration,
            "wait_for_greeting": options.wait_for_greeting,
        },
    )
    try:
        return order_from(request)
    except OrderRefused as refused:
        names = ", ".join(v.name for v in tts.catalogue())
        hint = f" Voices: {names}." if refused.field == "voice" else ""
        typer.echo(f"{refused.message}{hint}", err=True)
        return None


def _settings(speed: float) -> Settings:
    """This run's settings: the embedded server on a free port."""
    port = free_port()
    return get_settings().model_copy(
        update={
            "app_url": f"http://127.0.0.1:{port}",
            "port": port,
            "sandbox_speed": speed,
            "warm_up_voice": False,
        }
    )


async def _run(options: CallOptions) -> int:
    from callwright.calls.domain import Calls
    from callwright.main import create_app
    from callwright.realtime.events import LiveEvent, WebhookEvent
    from callwright.realtime.server import ADMIN_ROOM

    order = _order(options)
    if order is None:
        return 2
    settings = _settings(options.speed)
    app = create_app(settings)
    started = [time.perf_counter()]

    async def publish(room: str, event: LiveEvent) -> None:
        if room == ADMIN_ROOM and isinstance(event, WebhookEvent):
            elapsed = time.perf_counter() - started[0]
            typer.echo(f"[{elapsed:6.1f}s] {event.category:6}  {event.message}")

    domain: Calls = app.state.calls
    domain.events.publish = publish
    async with serving(app, settings.port):
        typer.echo("loading the speech models...")
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        await asyncio.to_thread(tts.warm_up, tts.find(order.voice) or tts.default_voice())
        typer.echo(
            f"calling {order.to_number} through the {domain.flows.carrier.name} carrier "
            f"(voice {order.voice}, brain: {_brain(settings)})"
        )
        started[0] = time.perf_counter()
        async for session in app.state.db.session():
            call_id = (await domain.service.place(session, order)).id
        code = 0
        try:
            call = await domain.flows.wait_finalized(call_id)
        except (KeyboardInterrupt, asyncio.CancelledError):
            typer.echo("hanging up...")
            await domain.flows.hang_up(call_id)
            call = await domain.flows.wait_finalized(call_id, within=30)
            code = 130
        await _report(app, call, settings)
        return code


async def _report(app: FastAPI, call: Call, settings: Settings) -> None:
    """The call's end: its status and length, where its recording and transcript are."""
    from callwright.calls import repository as calls

    async for session in app.state.db.session():
        lines = await calls.transcript(session, call.id)
    transcript_path = settings.data_dir / "transcripts" / f"{call.id}.txt"
    transcript_path.parent.mkdir(parents=True, exist_ok=True)
    transcript_path.write_text("".join(f"{e.speaker}: {e.text}\n" for e in lines))
    typer.echo("")
    typer.echo(f"call {call.id}: {call.status}, {call.duration_seconds or 0} s")
    if call.recording_path:
        typer.echo(f"recording:  {app.state.calls.media.store.location(call.recording_path)}")
    typer.echo(f"transcript: {transcript_path}")


def _brain(settings: Settings) -> str:
    if settings.llm_base_url:
        return f"LLM {settings.llm_model} at {settings.llm_base_url}"
    return "offline demo policy"
