"""Background work.

`JobQueue` is the Taskiq seam: jobs (dial a call, deliver an e-mail, reconcile calls) are
registered by name and sent after the commit. With no broker URL it uses Taskiq's in-memory
broker, so the embedded default runs them in this process; with a Redis URL it uses a Redis
list queue and `callwright worker` processes (or the API process itself, with the embedded
worker on) receive them. `spawn()` is for process-local chores (warming up the speech models).
`drain()` lets the shutdown path and the tests wait for what this process started. The
periodic jobs are sent by one scheduler (`kit.schedule`) through `JobQueue.send`.

Redis may restart under a live process (docs/deployment.md, "When Redis or PostgreSQL
restarts"): a job that cannot be sent is held in this process, in order, and sent again as
soon as Redis answers; receivers wait for Redis with a back-off instead of spinning."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine
from typing import Any, ClassVar

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from taskiq import AsyncBroker, InMemoryBroker
from taskiq.api import run_receiver_task
from taskiq.exceptions import SendTaskError
from taskiq_redis import ListQueueBroker
from tenacity import RetryCallState

from callwright.kit.retry import backoff, failure

log = logging.getLogger(__name__)

#: Waits between tries while Redis is unreachable: the first, doubled up to the last.
RETRY_FIRST_S, RETRY_MAX_S = 0.25, 5.0
#: Jobs a process holds while Redis is down, at most (past it the oldest are dropped, logged).
HELD_MAX = 10_000
#: How long one BRPOP waits for a job, in Redis: under redis-py's socket timeout (5 s), which
#: a BRPOP that blocks for ever meets on every idle queue.
BRPOP_WAIT_S = 2
#: What a lost connection to Redis raises (refused, cut by a restart, timed out).
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)

#: A job's result is not kept (nothing reads it back).
Job = Callable[..., Awaitable[object]]


class RoutineJobLines(logging.Filter):
    """Taskiq logs a line at INFO for every job it runs ("Executing task <name> with ID: <id>")
    and, in the process that runs the scheduler (`kit.schedule`), for every job it sends on a
    timer ("Sending task <name> with schedule_id <id>"). For a routine job (the due-call sweep,
    the campaign tick, the reconciler, the webhook sweep) those lines are DEBUG: an idle process
    prints nothing, and they show (marked DEBUG) only where that taskiq logger is set to DEBUG.
    A routine job's failure still logs as an error (`job ... failed`, from `JobQueue.register`),
    and other jobs keep their line. One filter per taskiq logger; the names are shared."""

    #: The routine jobs' names (`JobQueue.routine`).
    names: ClassVar[set[str]] = set()

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__()
        self.logger = logger

    def install(self) -> None:
        """Put the filter on its logger (once)."""
        if self not in self.logger.filters:
            self.logger.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO:
            return True
        args = record.args
        name = args[0] if isinstance(args, tuple) and args else None
        if isinstance(name, str) and name in self.names:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return self.logger.isEnabledFor(logging.DEBUG)
        return True


#: The filters on taskiq's per-job lines: the receiver's (a job run) and the scheduler's (a job
#: sent on its timer), installed once per process.
ROUTINE_JOB_LINES = (
    RoutineJobLines(logging.getLogger("taskiq.receiver.receiver")),
    RoutineJobLines(logging.getLogger("taskiq.cli.scheduler.run")),
)
for _lines in ROUTINE_JOB_LINES:
    _lines.install()


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


class RedisQueue(ListQueueBroker):
    """taskiq-redis's list queue, whose receiver waits out a Redis restart: taskiq-redis's own
    `listen` lets a refused or cut connection end the receiver, which taskiq restarts at once,
    a loop at full speed (a hundred tries and warnings a second) for as long as Redis is down;
    and its BRPOP blocks for ever, so an idle queue met redis-py's 5 s socket timeout."""

    async def listen(self) -> AsyncGenerator[bytes, None]:
        retrying = backoff(
            _redis_down, first=RETRY_FIRST_S, longest=RETRY_MAX_S, before_sleep=_waiting
        )
        while True:
            popped: Any = await retrying(self._pop)
            if retrying.statistics["attempt_number"] > 1:
                log.warning("job broker reachable again")
            if popped:
                message = popped[1]
                yield message if isinstance(message, bytes) else message.encode()

    async def _pop(self) -> Any:
        async with Redis(connection_pool=self.connection_pool) as redis:
            return await redis.brpop([self.queue_name], timeout=BRPOP_WAIT_S)


def _redis_down(exc: BaseException) -> bool:
    return isinstance(exc, REDIS_DOWN)


def _waiting(state: RetryCallState) -> None:
    """Said once an outage: at the first wait."""
    if state.attempt_number == 1:
        log.warning("job broker unreachable (%s); waiting for it", failure(state))


def _not_sent(exc: BaseException) -> bool:
    return isinstance(exc, SendTaskError)


def make_broker(url: str) -> AsyncBroker:
    """In-memory (no URL) or a Redis list queue (redis:// or rediss://)."""
    if not url:
        return InMemoryBroker(propagate_exceptions=False)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisQueue(url, queue_name="callwright:jobs")
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
        #: Jobs not sent yet because Redis was unreachable, in the order they were sent.
        self._held: deque[tuple[str, tuple[Any, ...]]] = deque()
        self._resender: asyncio.Task[None] | None = None

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

    def routine(self, name: str) -> None:
        """Mark job `name` as routine (sent on a timer): its per-run log lines are DEBUG."""
        RoutineJobLines.names.add(name)

    async def send(self, name: str, *args: Any) -> None:
        """Queue job `name`. While Redis is unreachable the job is held and sent once it
        answers again (behind any held before it), so a restart of Redis loses no job this
        process sends; a process that stops before then loses what it holds (logged)."""
        task = self.broker.find_task(name)
        if task is None:
            raise LookupError(f"no job named {name!r} is registered")
        if not self._started:
            await self.start()
        if self.in_memory:
            self._in_flight += 1
            self._idle.clear()
            await task.kiq(*args)
            return
        if self._held:  # Redis is down: keep the order
            self._hold(name, args)
            return
        try:
            await task.kiq(*args)
        except SendTaskError as exc:
            log.warning("job %s not sent (%s); held until the broker answers", name, exc.__cause__)
            self._hold(name, args)

    @property
    def held(self) -> int:
        """How many jobs wait for the broker to answer again."""
        return len(self._held)

    def _hold(self, name: str, args: tuple[Any, ...]) -> None:
        if len(self._held) >= HELD_MAX:
            dropped, _ = self._held.popleft()
            log.error("job %s dropped: %d jobs held while the broker is down", dropped, HELD_MAX)
        self._held.append((name, args))
        if self._resender is None or self._resender.done():
            self._resender = asyncio.create_task(self._resend(), name="job-resender")

    async def _resend(self) -> None:
        """Send the held jobs in order, trying again (sooner first, then every few seconds)
        until the broker takes them: the first try after a restart often meets a pooled
        connection the restart cut."""
        while self._held:
            name, args = self._held[0]
            task = self.broker.find_task(name)
            if task is not None:
                await backoff(_not_sent, first=RETRY_FIRST_S, longest=RETRY_MAX_S)(task.kiq, *args)
            self._held.popleft()
        log.warning("held jobs sent: the broker answers again")

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
        if self._resender is not None:
            self._resender.cancel()
            await asyncio.gather(self._resender, return_exceptions=True)
            self._resender = None
        if self._held:
            log.error("%d held job(s) lost: the broker never answered again", len(self._held))
            self._held.clear()
        if self._receiver is not None:
            self._receiver.cancel()
            await asyncio.gather(self._receiver, return_exceptions=True)
            self._receiver = None
        if self._started:
            self._started = False
            await self.broker.shutdown()
