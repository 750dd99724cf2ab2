"""Tries again with back-off, on tenacity: the database's persisted writes (`kit.db`), the job
broker's sends and receives (`kit.jobs`), socket.io's Redis listener (`realtime.server`)."""

from __future__ import annotations

from collections.abc import Callable

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_before_delay,
    stop_never,
    wait_exponential,
)


def backoff(
    retry_on: Callable[[BaseException], bool],
    *,
    first: float,
    longest: float,
    within: float | None = None,
    before_sleep: Callable[[RetryCallState], None] | None = None,
) -> AsyncRetrying:
    """Try again while what failed satisfies `retry_on`, waiting `first` seconds, then twice as
    long each time up to `longest`; for ever, or while the next try would start within
    `within` seconds of the first. What ends the tries is raised as it was raised."""
    return AsyncRetrying(
        retry=retry_if_exception(retry_on),
        wait=wait_exponential(multiplier=first, max=longest),
        stop=stop_never if within is None else stop_before_delay(within),
        before_sleep=before_sleep,
        reraise=True,
    )


def failure(state: RetryCallState) -> BaseException | None:
    """What the try before this wait raised."""
    return state.outcome.exception() if state.outcome is not None else None
