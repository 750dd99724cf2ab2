"""The calls domain (`calls.domain.Calls`) as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.calls.domain import Calls
from callwright.kit.deps import from_app

CallsDep = Annotated[Calls, Depends(from_app("calls"))]
