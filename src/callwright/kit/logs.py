"""The processes' log lines, for the person watching a terminal: where to sign in, each call's
start and end (one line each), warnings and errors. Routine work sent on a timer (the due-call
sweep, the campaign tick, the reconciler, the webhook sweep) logs below INFO, its runs and the
scheduler's sends (`kit.jobs.RoutineJobLines`), and `callwright serve` leaves uvicorn's access
log off unless asked (`--access-log`), so an idle server, or a browser polling a call, prints
nothing."""

from __future__ import annotations

import logging

from callwright.kit import jobs

FORMAT = "%(levelname)s %(name)s: %(message)s"


def configure(level: int = logging.INFO) -> None:
    """The root logger at `level` with our format (once per process; a no-op where handlers
    are already set, as under pytest), with taskiq's per-job lines for routine jobs quieted."""
    logging.basicConfig(level=level, format=FORMAT)
    for lines in jobs.ROUTINE_JOB_LINES:
        lines.install()
