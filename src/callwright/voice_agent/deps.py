"""What the media endpoint and the system report reach on the app: the calls' media side and
the speech engines (for a websocket or a request)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.kit.deps import from_app
from callwright.voice_agent.contract import MediaCalls
from callwright.voice_agent.session import Engines

MediaCallsDep = Annotated[MediaCalls, Depends(from_app("media_calls"))]
EnginesDep = Annotated[Engines, Depends(from_app("voice_engines"))]
