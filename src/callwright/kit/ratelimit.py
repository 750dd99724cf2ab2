"""Rate limits on the `limits` library: in memory by default, Redis when configured (shared by
every process)."""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from callwright.kit.errors import TooManyRequests


class RateLimiter:
    def __init__(self, redis_url: str = "", namespace: str = "callwright") -> None:
        self.storage: Storage
        if redis_url:
            uri = redis_url.replace("redis://", "async+redis://", 1)
            self.storage = RedisStorage(uri, implementation="redispy", key_prefix=namespace)
        else:
            self.storage = MemoryStorage()
        self.limiter = MovingWindowRateLimiter(self.storage)

    async def hit(
        self, scope: str, key: str, limit: int, window_seconds: int, message: str | None = None
    ) -> None:
        """Count one attempt; raise 429 (with Retry-After, and `message` when given) when the
        window is full."""
        item = RateLimitItemPerSecond(limit, window_seconds, namespace=scope)
        if not await self.limiter.hit(item, key):
            await self._refuse(scope, key, limit, window_seconds, message)

    async def check(
        self, scope: str, key: str, limit: int, window_seconds: int, message: str | None = None
    ) -> None:
        """Raise 429 if the window is already full, without counting."""
        item = RateLimitItemPerSecond(limit, window_seconds, namespace=scope)
        if not await self.limiter.test(item, key):
            await self._refuse(scope, key, limit, window_seconds, message)

    async def _refuse(
        self, scope: str, key: str, limit: int, window_seconds: int, message: str | None
    ) -> None:
        retry_after = await self.retry_after(scope, key, limit, window_seconds)
        if message is None:
            raise TooManyRequests(retry_after)
        raise TooManyRequests(retry_after, message)

    async def retry_after(self, scope: str, key: str, limit: int, window_seconds: int) -> int:
        item = RateLimitItemPerSecond(limit, window_seconds, namespace=scope)
        stats = await self.limiter.get_window_stats(item, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def clear(self, scope: str, key: str, limit: int, window_seconds: int) -> None:
        item = RateLimitItemPerSecond(limit, window_seconds, namespace=scope)
        await self.limiter.clear(item, key)

    async def reset(self) -> None:
        await self.storage.reset()
