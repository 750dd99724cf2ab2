"""The app's Realtime as a request dependency (for endpoints that end sockets)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.kit.deps import from_app
from callwright.realtime.server import Realtime

SocketsDep = Annotated[Realtime, Depends(from_app("realtime"))]
