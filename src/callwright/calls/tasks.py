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
#: Dial the scheduled calls whose time has come (sent every few seconds by a receiving role).
DIAL_DUE_JOB = "calls.dial_due"
#: Analyse a finished call with its settings and report `call.analyzed` (sent after the
#: commit that finalised it, for calls with an owner: calls.post_call).
ANALYZE_JOB = "calls.analyze"


def register(jobs: JobQueue, flows: CallFlows) -> None:
    jobs.register(DIAL_JOB, flows.dial)
    jobs.register(RECONCILE_JOB, flows.reconcile)
    jobs.register(DIAL_DUE_JOB, flows.dial_due)
