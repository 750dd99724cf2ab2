"""Periodic jobs on Taskiq's scheduler: the reconciler, the due-call sweep, the campaign tick
and the webhook sweep are sent on their intervals by one scheduler, so a cluster of receiving
processes runs one stream of them, not one per process (`Settings.scheduler` picks the process:
docs/deployment.md, "One scheduler process").

The scheduler is Taskiq's own loop (`taskiq.api.run_scheduler_task`) over a fixed, in-memory
`ScheduleSource`; what it sends goes through `JobQueue.send`, so a job sent while Redis is down
is held and sent once it answers, and the in-memory broker's count of jobs in flight (what
`JobQueue.drain` waits for) includes it. Its per-send INFO line is DEBUG for these routine jobs
(`kit.jobs.RoutineJobLines`).

Taskiq's intervals are whole seconds, at least 1: an interval is rounded up (0.2 -> 1 s, 2.5 ->
3 s); 0 turns that job's schedule off. The loop wakes on each whole second and sends a job as
soon as it starts (an interval schedule that never ran is due), then every interval: a
process that starts the scheduler reconciles and sweeps at once."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Mapping
from typing import Any

from taskiq import ScheduledTask, ScheduleSource, TaskiqScheduler
from taskiq.api import run_scheduler_task

from callwright.kit.jobs import JobQueue

log = logging.getLogger(__name__)


def whole_seconds(seconds: float) -> int:
    """A setting's interval as Taskiq takes it: whole seconds, rounded up, at least 1."""
    return max(1, math.ceil(seconds))


class Intervals(ScheduleSource):
    """Each job every so many seconds (job name -> seconds; 0: never), fixed at start."""

    def __init__(self, every: Mapping[str, float]) -> None:
        self.schedules = [
            ScheduledTask(
                task_name=name,
                labels={},
                args=[],
                kwargs={},
                schedule_id=name,
                interval=whole_seconds(seconds),
            )
            for name, seconds in every.items()
            if seconds > 0
        ]

    async def get_schedules(self) -> list[ScheduledTask]:
        return list(self.schedules)


class JobScheduler(TaskiqScheduler):
    """Taskiq's scheduler, sending through our `JobQueue` (which owns the broker: the scheduler
    neither starts nor stops it)."""

    def __init__(self, jobs: JobQueue, source: Intervals) -> None:
        super().__init__(jobs.broker, [source])
        self.jobs = jobs
        self.source = source
        #: The sends Taskiq's loop started (each in a task of its own) and not finished yet.
        self._sending: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        """The job queue started the broker."""

    async def shutdown(self) -> None:
        """The job queue stops the broker."""

    async def on_ready(self, source: ScheduleSource, task: ScheduledTask) -> None:
        sending = asyncio.current_task()
        if sending is not None:
            self._sending.add(sending)
        try:
            await self.jobs.send(task.task_name, *task.args)
        except Exception:  # raised in Taskiq's task, it would only be logged at exit
            log.exception("could not queue %s", task.task_name)
        finally:
            if sending is not None:
                self._sending.discard(sending)

    def start(self) -> None:
        """Run Taskiq's scheduler loop in this process until `stop`."""
        for task in self.source.schedules:
            self.jobs.routine(task.task_name)  # a line per send would bury the terminal
        self._loop = asyncio.create_task(run_scheduler_task(self), name="job-scheduler")
        self._loop.add_done_callback(_stopped)

    async def stop(self) -> None:
        """Stop the loop and wait for the sends it started (before the broker closes)."""
        if self._loop is not None:
            self._loop.cancel()
            await asyncio.gather(self._loop, return_exceptions=True)
            self._loop = None
        await asyncio.gather(*self._sending, return_exceptions=True)


def _stopped(loop: asyncio.Task[None]) -> None:
    """Said if Taskiq's loop ever ends by itself: the periodic jobs are no longer sent."""
    if not loop.cancelled() and loop.exception() is not None:
        log.error("the job scheduler stopped: no periodic job is sent", exc_info=loop.exception())


def start_scheduler(jobs: JobQueue, every: Mapping[str, float]) -> JobScheduler | None:
    """Send each job of `every` (name -> seconds; 0: off) on its interval from this process;
    None when every schedule is off."""
    source = Intervals(every)
    if not source.schedules:
        return None
    scheduler = JobScheduler(jobs, source)
    scheduler.start()
    return scheduler
