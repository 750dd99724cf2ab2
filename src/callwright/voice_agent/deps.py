"""What the media endpoint and the system report reach on the app: the calls' media side and
the speech engines (a websocket's connection or a request's)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from callwright.voice_agent.contract import MediaCalls
from callwright.voice_agent.session import Engines


def _media_calls(connection: HTTPConnection) -> MediaCalls:
    media: MediaCalls = connection.app.state.media_calls
    return media


def _engines(connection: HTTPConnection) -> Engines:
    engines: Engines = connection.app.state.voice_engines
    return engines


MediaCallsDep = Annotated[MediaCalls, Depends(_media_calls)]
EnginesDep = Annotated[Engines, Depends(_engines)]
