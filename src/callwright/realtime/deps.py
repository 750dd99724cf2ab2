"""The app's Realtime as a request dependency (for endpoints that end sockets)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.realtime.server import Realtime


def _realtime(request: Request) -> Realtime:
    realtime: Realtime = request.app.state.realtime
    return realtime


SocketsDep = Annotated[Realtime, Depends(_realtime)]
