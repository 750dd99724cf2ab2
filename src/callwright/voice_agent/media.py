"""The carrier's media websocket: one Pipecat pipeline per live call.

A stream is accepted only from the carrier the call was placed with: the upgrade request must
carry the carrier's signature (Twilio's X-Twilio-Signature; the sandbox signs the same way), and
the stream's `start` message must bring back the call's single-use secret, which it spends. A
second connection for the same call is refused (a transfer's listening stream, and the agent's
return after a failed transfer, bring secrets of their own: docs/actions.md). Nothing the client sends sets the call's
behaviour: the plan comes from the call row, the speed from the settings of the call's carrier."""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from callwright.voice_agent.deps import EnginesDep, MediaCallsDep
from callwright.voice_agent.listen import ListenSession
from callwright.voice_agent.session import CallSession

log = logging.getLogger(__name__)
router = APIRouter()
#: WebSocket close code for a refused stream (policy violation).
REFUSED = 1008


@router.websocket("/media/twilio")
async def twilio_media(websocket: WebSocket, media: MediaCallsDep, engines: EnginesDep) -> None:
    """Twilio Media Streams (and the sandbox, which speaks the same protocol)."""
    headers = {k.lower(): v for k, v in websocket.headers.items()}
    if not media.verify(headers):
        log.warning("media stream refused: no valid carrier signature")
        await websocket.close(code=REFUSED)  # before accept: the upgrade is answered 403
        return
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
        await websocket.close(code=REFUSED)
        return
    params = details.get("customParameters") or {}
    if not isinstance(params, dict):
        params = {}
    call_id = str(params.get("callId", ""))
    leg = str(params.get("leg") or "agent")
    plan = await media.claim(call_id, str(params.get("token", "")), leg)
    if plan is None:
        log.warning("media stream refused for call %r: bad or spent secret, or call over", call_id)
        await websocket.close(code=REFUSED)
        return
    if plan.leg == "listen":
        # A transfer's listening stream (both tracks, one way): recorded and transcribed.
        await ListenSession(websocket, plan, media.hooks(call_id, "listen"), engines).run()
        return
    session = CallSession(
        websocket,
        plan,
        media.hooks(call_id, plan.leg),
        engines,
        stream_sid=str(details.get("streamSid", start.get("streamSid", ""))),
        speed=plan.speed,
    )
    await session.run()
