"""Typed access to the app-wide singletons kept on app.state."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.config import Settings
from callwright.kit.jobs import JobQueue
from callwright.kit.ratelimit import RateLimiter


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def _jobs(request: Request) -> JobQueue:
    jobs: JobQueue = request.app.state.jobs
    return jobs


def client_ip(request: Request) -> str:
    """The client's address: the socket peer, or what a trusted proxy says in X-Forwarded-For
    (kit.proxies.ClientAddressMiddleware decides it, from CALLWRIGHT_TRUSTED_PROXIES only)."""
    return request.client.host if request.client else "unknown"


SettingsDep = Annotated[Settings, Depends(_settings)]
LimiterDep = Annotated[RateLimiter, Depends(_limiter)]
JobsDep = Annotated[JobQueue, Depends(_jobs)]
ClientIP = Annotated[str, Depends(client_ip)]
