"""The call jobs, by name. The composition root registers them (`register`); senders only need
the names, so placing a call does not import the flows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from callwright.kit.jobs import JobQueue

if TYPE_CHECKING:
    from callwright.calls.flows import CallFlows

#: Dial a queued call (sent after the commit that stored it).
DIAL_JOB = "calls.dial"
#: Finish calls whose end never arrived (sent every minute by a receiving role).
RECONCILE_JOB = "calls.reconcile"


def register(jobs: JobQueue, flows: CallFlows) -> None:
    jobs.register(DIAL_JOB, flows.dial)
    jobs.register(RECONCILE_JOB, flows.reconcile)
