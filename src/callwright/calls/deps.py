"""The calls domain (`calls.domain.Calls`) as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.calls.domain import Calls


def _calls(request: Request) -> Calls:
    calls: Calls = request.app.state.calls
    return calls


CallsDep = Annotated[Calls, Depends(_calls)]
