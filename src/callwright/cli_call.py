"""`callwright call`: an embedded server on a free port, one call, its live events."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import typer

from callwright.config import get_settings
from callwright.speech import tts

_TERMINAL = ("completed", "no-answer", "busy", "failed", "canceled")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def place_call(
    to: str,
    prompt: str,
    voice: str,
    max_duration: int,
    wait_for_greeting: bool,
    background: str,
    speed: float,
) -> int:
    if tts.find(voice) is None:
        typer.echo(
            f"unknown voice {voice!r}; try: {', '.join(v.name for v in tts.catalogue())}", err=True
        )
        return 2
    if background not in ("null", "office", "cafe", "restaurant", "none"):
        typer.echo("background must be null, office, cafe, restaurant or none", err=True)
        return 2
    return asyncio.run(_run(to, prompt, voice, max_duration, wait_for_greeting, background, speed))


async def _run(
    to: str,
    prompt: str,
    voice: str,
    max_duration: int,
    wait_for_greeting: bool,
    background: str,
    speed: float,
) -> int:
    import uvicorn

    from callwright.calls import repository as calls
    from callwright.main import create_app
    from callwright.models import Call

    port = _free_port()
    settings = get_settings().model_copy(
        update={
            "app_url": f"http://127.0.0.1:{port}",
            "port": port,
            "sandbox_speed": speed,
            "warm_up_voice": False,
        }
    )
    app = create_app(settings)
    started = time.perf_counter()

    async def publish(room: str, event: str, data: dict[str, Any]) -> None:
        if room == "admin" and event == "webhook-event":
            typer.echo(
                f"[{time.perf_counter() - started:6.1f}s] {data['category']:6}  {data['message']}"
            )

    app.state.calls.publish = publish
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            return 1
        await asyncio.sleep(0.05)
    typer.echo("loading the speech models...")
    await asyncio.to_thread(app.state.voice_engines.transcriber.load)
    await asyncio.to_thread(tts.warm_up, tts.find(voice) or tts.default_voice())
    carrier = app.state.calls.carrier.name
    typer.echo(
        f"calling {to} through the {carrier} carrier (voice {voice}, brain: {_brain(settings)})"
    )
    started = time.perf_counter()
    async for session in app.state.db.session():
        row = await app.state.calls.create(
            session,
            Call(
                kind="cli",
                to_number=to,
                from_number=settings.from_number,
                prompt=prompt,
                voice=voice,
                background_audio=background,
                max_duration=max_duration,
                wait_for_greeting=wait_for_greeting,
            ),
        )
        call_id = row.id
    code = 0
    try:
        while True:
            await asyncio.sleep(0.3)
            async for session in app.state.db.session():
                call = await calls.get(session, call_id)
            if call is not None and call.finalized_at is not None:
                break
    except (KeyboardInterrupt, asyncio.CancelledError):
        typer.echo("hanging up...")
        await app.state.calls.hang_up(call_id)
        code = 130
    async for session in app.state.db.session():
        call = await calls.get(session, call_id)
        lines = await calls.transcript(session, call_id)
    assert call is not None
    transcript_path = settings.data_dir / "transcripts" / f"{call_id}.txt"
    transcript_path.parent.mkdir(parents=True, exist_ok=True)
    transcript_path.write_text("".join(f"{e.speaker}: {e.text}\n" for e in lines))
    typer.echo("")
    typer.echo(f"call {call_id}: {call.status}, {call.duration_seconds or 0} s")
    if call.recording_path:
        typer.echo(f"recording:  {app.state.calls.recordings / call.recording_path}")
    typer.echo(f"transcript: {transcript_path}")
    server.should_exit = True
    await serving
    return code if call.status in _TERMINAL else 1


def _brain(settings: Any) -> str:
    return (
        f"LLM {settings.llm_model} at {settings.llm_base_url}"
        if settings.llm_base_url
        else "offline demo policy"
    )
