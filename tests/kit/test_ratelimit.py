"""The rate limiter in memory (embedded default) and on Redis (shared by every process)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from callwright.kit.errors import TooManyRequests
from callwright.kit.ratelimit import RateLimiter

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("CALLWRIGHT_TEST_REDIS_URL", "")


@pytest.fixture(params=["memory", "redis"])
async def limiter(request: pytest.FixtureRequest) -> AsyncIterator[RateLimiter]:
    if request.param == "redis":
        if not REDIS_URL:
            pytest.skip("set CALLWRIGHT_TEST_REDIS_URL (scripts/test.sh does)")
        yield RateLimiter(REDIS_URL, namespace=f"test-{uuid.uuid4().hex}")
    else:
        yield RateLimiter()


async def test_hit_allows_the_limit_then_refuses_with_retry_after(limiter: RateLimiter) -> None:
    for _ in range(3):
        await limiter.hit("scope", "key", 3, 60)
    with pytest.raises(TooManyRequests) as caught:
        await limiter.hit("scope", "key", 3, 60)
    assert 1 <= caught.value.retry_after <= 60
    assert caught.value.headers == {"Retry-After": str(caught.value.retry_after)}
    await limiter.hit("scope", "other-key", 3, 60)  # keys are independent


async def test_check_does_not_count_and_clear_resets(limiter: RateLimiter) -> None:
    for _ in range(5):
        await limiter.check("scope", "k", 2, 60)
    await limiter.hit("scope", "k", 2, 60)
    await limiter.hit("scope", "k", 2, 60)
    with pytest.raises(TooManyRequests):
        await limiter.check("scope", "k", 2, 60)
    await limiter.clear("scope", "k", 2, 60)
    await limiter.check("scope", "k", 2, 60)


async def test_two_limiters_on_redis_share_the_count() -> None:
    if not REDIS_URL:
        pytest.skip("set CALLWRIGHT_TEST_REDIS_URL (scripts/test.sh does)")
    namespace = f"test-{uuid.uuid4().hex}"
    a, b = RateLimiter(REDIS_URL, namespace), RateLimiter(REDIS_URL, namespace)
    await a.hit("login-ip", "1.2.3.4", 2, 60)
    await b.hit("login-ip", "1.2.3.4", 2, 60)
    with pytest.raises(TooManyRequests):
        await a.hit("login-ip", "1.2.3.4", 2, 60)
