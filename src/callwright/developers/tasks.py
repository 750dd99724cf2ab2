"""The webhook jobs, by name. The composition root registers them (`register`); senders only
need the names (`outbox.DELIVER_JOB`), so emitting an event does not import the deliverer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from callwright.developers.outbox import DELIVER_JOB
from callwright.kit.jobs import JobQueue

if TYPE_CHECKING:
    from callwright.developers.delivery import Deliverer


#: Re-queue the due deliveries: retries, and those a stopped worker left (sent every few
#: seconds by the scheduler: kit.schedule).
SWEEP_JOB = "webhooks.sweep"


def register(jobs: JobQueue, deliverer: Deliverer) -> None:
    jobs.register(DELIVER_JOB, deliverer.deliver)
    jobs.register(SWEEP_JOB, deliverer.sweep)
