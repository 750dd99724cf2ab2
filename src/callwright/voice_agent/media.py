"""The carrier's media websocket: one Pipecat pipeline per live call."""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from callwright.calls.flows import CallEngine
from callwright.voice_agent.session import Engines, run_call

log = logging.getLogger(__name__)
router = APIRouter()


@router.websocket("/media/twilio")
async def twilio_media(websocket: WebSocket) -> None:
    """Twilio Media Streams (and the sandbox, which speaks the same protocol)."""
    engine: CallEngine = websocket.app.state.calls
    engines: Engines = websocket.app.state.voice_engines
    await websocket.accept()
    try:
        start: dict[str, object] = {}
        for _ in range(3):  # "connected", then "start"
            message = json.loads(await websocket.receive_text())
            if message.get("event") == "start":
                start = message
                break
    except (WebSocketDisconnect, ValueError):
        return
    details = start.get("start")
    if not isinstance(details, dict):
        await websocket.close(code=1008)
        return
    params = details.get("customParameters") or {}
    call_id = str(params.get("callId", ""))
    plan = await engine.plan(call_id) if call_id else None
    if plan is None:
        log.warning("media stream for an unknown or finished call %r", call_id)
        await websocket.close(code=1008)
        return
    try:
        speed = float(params.get("sandboxSpeed", 1.0)) if engine.carrier.name == "sandbox" else 1.0
    except ValueError:
        speed = 1.0
    await run_call(
        websocket,
        plan,
        engine.hooks(call_id),
        engines,
        stream_sid=str(details.get("streamSid", start.get("streamSid", ""))),
        speed=speed,
    )
