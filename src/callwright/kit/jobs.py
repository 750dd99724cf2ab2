"""Background work.

`JobQueue` is the Taskiq seam: jobs (dial a call, deliver an e-mail, reconcile calls) are
registered by name and sent after the commit. With no broker URL it uses Taskiq's in-memory
broker, so the embedded default runs them in this process; with a Redis URL it uses a Redis
list queue and `callwright worker` processes (or the API process itself, with the embedded
worker on) receive them. `spawn()` is for process-local chores (warming up the speech models).
`drain()` lets the shutdown path and the tests wait for what this process started."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from taskiq import AsyncBroker, InMemoryBroker
from taskiq.api import run_receiver_task

log = logging.getLogger(__name__)

#: A job's result is not kept (nothing reads it back).
Job = Callable[..., Awaitable[object]]


class BackgroundJobs:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "job") -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background job %s failed", task.get_name(), exc_info=task.exception())

    async def drain(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def make_broker(url: str) -> AsyncBroker:
    """In-memory (no URL) or a Redis list queue (redis:// or rediss://)."""
    if not url:
        return InMemoryBroker(propagate_exceptions=False)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from taskiq_redis import ListQueueBroker

        return ListQueueBroker(url, queue_name="callwright:jobs")
    raise ValueError(f"unsupported job broker URL {url!r}: use redis://host:port/db")


class JobQueue(BackgroundJobs):
    def __init__(self, broker_url: str = "") -> None:
        super().__init__()
        self.broker = make_broker(broker_url)
        self.in_memory = isinstance(self.broker, InMemoryBroker)
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._receiver: asyncio.Task[None] | None = None
        self._started = False

    def register(self, name: str, job: Job) -> None:
        """Register `job` under `name` (the same name in every process)."""

        async def run(*args: Any) -> None:
            try:
                await job(*args)
            except Exception:
                log.exception("job %s%r failed", name, args)
            finally:
                if self.in_memory:
                    self._in_flight -= 1
                    if self._in_flight == 0:
                        self._idle.set()

        run.__name__ = name.replace(".", "_")
        self.broker.register_task(run, task_name=name)

    async def send(self, name: str, *args: Any) -> None:
        task = self.broker.find_task(name)
        if task is None:
            raise LookupError(f"no job named {name!r} is registered")
        if not self._started:
            await self.start()
        if self.in_memory:
            self._in_flight += 1
            self._idle.clear()
        await task.kiq(*args)

    async def start(self, *, receive: bool = False) -> None:
        """Connect to the broker; with `receive`, also run jobs sent to it (a worker)."""
        if not self._started:
            self._started = True
            await self.broker.startup()
        if receive and not self.in_memory and self._receiver is None:
            self._receiver = asyncio.create_task(
                run_receiver_task(self.broker, max_async_tasks=50), name="job-receiver"
            )

    async def drain(self) -> None:
        await super().drain()
        await self._idle.wait()

    async def close(self) -> None:
        await self.drain()
        if self._receiver is not None:
            self._receiver.cancel()
            await asyncio.gather(self._receiver, return_exceptions=True)
            self._receiver = None
        if self._started:
            self._started = False
            await self.broker.shutdown()
