"""The composition root of every role (the API process, `callwright worker`): the database, the
job queue, the carrier and the calls domain wired together, the jobs registered, the periodic
jobs scheduled (`kit.schedule`). `main.create_app` adds the web side on top."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import httpx

from callwright.billing.payments import Payments
from callwright.billing.service import Billing
from callwright.calls import tasks
from callwright.calls.domain import Calls
from callwright.calls.events import CallEvents
from callwright.calls.flows import CallFlows
from callwright.calls.lifecycle import CallLife
from callwright.calls.media_hooks import CallMedia
from callwright.calls.post_call import PostCallAnalysis
from callwright.calls.service import CallService
from callwright.campaigns.dialler import TICK_JOB, Dialler
from callwright.campaigns.events import CampaignEvents
from callwright.campaigns.progress import CampaignProgress
from callwright.config import Settings
from callwright.developers import tasks as webhook_tasks
from callwright.developers.delivery import Deliverer
from callwright.developers.outbox import Outbox
from callwright.kit.db import Database
from callwright.kit.jobs import JobQueue
from callwright.kit.schedule import JobScheduler, start_scheduler
from callwright.lab.runner import LabRunner
from callwright.mail.service import Mailer
from callwright.public_api.webhooks import CallWebhooks
from callwright.realtime.server import Publisher, redis_publisher
from callwright.sandbox.network import sandbox_credentials
from callwright.sandbox.numbers import own_numbers_on
from callwright.telephony.base import Carrier
from callwright.telephony.carriers.twilio import TwilioCarrier
from callwright.telephony.registry import SANDBOX, Carriers

log = logging.getLogger(__name__)


def build_carrier(
    settings: Settings, *, sandbox_transport: httpx.AsyncBaseTransport | None = None
) -> Carrier:
    """The carrier the settings name. The sandbox speaks Twilio's protocol: the same carrier
    code, pointed at the local network with the install's sandbox credentials."""
    if settings.carrier == "twilio":
        return TwilioCarrier(
            account_sid=settings.twilio_account_sid,
            auth_token=settings.twilio_auth_token,
            base_url=settings.twilio_api_url,
        )
    return build_sandbox_carrier(settings, transport=sandbox_transport)


def build_sandbox_carrier(
    settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None
) -> Carrier:
    """The sandbox network as a carrier: `TwilioCarrier` at `sandbox_base_url`."""
    sid, token = sandbox_credentials(settings.secret_key)
    return TwilioCarrier(
        account_sid=sid,
        auth_token=token,
        base_url=f"{settings.sandbox_base_url}/sandbox/twilio",
        name="sandbox",
        transport=transport,
    )


def build_carriers(settings: Settings) -> Carriers:
    """The install's carriers: the one the settings name and, when that is a real network, the
    sandbox beside it, which the agent lab's calls always go on (docs/lab.md)."""
    default = build_carrier(settings)
    if default.name == SANDBOX:
        return Carriers(default)
    return Carriers(default, build_sandbox_carrier(settings))


def build_calls(
    settings: Settings, db: Database, carriers: Carriers, publish: Publisher, jobs: JobQueue
) -> Calls:
    """The calls domain, its jobs registered on `jobs`. Who else hears of a call's life
    subscribes to `Calls.life` (see `Core.build`)."""
    events = CallEvents(publish)
    billing = Billing(publish)
    life = CallLife(billing, events)
    flows = CallFlows(settings, db, carriers, events, life, jobs)
    tasks.register(jobs, flows)
    name = carriers.default.name
    return Calls(
        service=CallService(
            settings,
            billing,
            name,
            jobs,
            life,
            test_numbers=own_numbers_on(name),
            lab_numbers=own_numbers_on(SANDBOX) if carriers.lab is not None else None,
        ),
        flows=flows,
        media=CallMedia(settings, db, flows, events),
        events=events,
        billing=billing,
        life=life,
    )


def periodic_jobs(settings: Settings) -> dict[str, float]:
    """The jobs the scheduler sends, each every so many seconds (0: never)."""
    return {
        tasks.RECONCILE_JOB: settings.reconcile_seconds,
        tasks.DIAL_DUE_JOB: settings.dial_due_sweep_seconds,
        TICK_JOB: settings.campaign_tick_seconds,
        webhook_tasks.SWEEP_JOB: settings.webhook_sweep_seconds,
    }


@dataclass
class Core:
    """What every role needs (API, worker): the database, the job queue, the carrier, the calls
    and the mailer, with the jobs registered."""

    settings: Settings
    db: Database
    jobs: JobQueue
    #: The carrier the settings name, and the sandbox beside it for the lab's calls.
    carriers: Carriers
    calls: Calls
    mailer: Mailer
    #: Webhook deliveries, written with what they report and sent after the commit.
    outbox: Outbox
    #: Signs, sends and retries the outbox's deliveries (`outbox.DELIVER_JOB`).
    deliverer: Deliverer
    #: Dials the campaigns' due contacts (`dialler.TICK_JOB`).
    dialler: Dialler
    #: Card top-ups through Stripe and auto-recharge (`payments.RECHARGE_JOB`).
    payments: Payments
    #: Sends the periodic jobs (`periodic_jobs`), in a receiving role with `scheduler` on.
    _scheduler: JobScheduler | None = None

    @classmethod
    def build(cls, settings: Settings, db: Database, publish: Publisher) -> Core:
        jobs = JobQueue(settings.job_broker_url)
        carriers = build_carriers(settings)
        outbox = Outbox(jobs)
        campaign_events = CampaignEvents(outbox, publish)

        async def nudge() -> None:
            await jobs.send(TICK_JOB)

        calls = build_calls(settings, db, carriers, publish, jobs)
        # Who hears of a call's life, in this order (calls.lifecycle): the user's webhooks,
        # the campaign it is an attempt for, the post-call analysis.
        CallWebhooks(settings, outbox).subscribe(calls.life)
        CampaignProgress(campaign_events, nudge).subscribe(calls.life)
        PostCallAnalysis(settings, db, outbox, jobs).subscribe(calls.life)
        dialler = Dialler(settings, db, calls.service, campaign_events)
        jobs.register(TICK_JOB, dialler.tick)
        LabRunner(db, calls.service, calls.flows, concurrency=settings.lab_concurrency).register(
            jobs
        )
        mailer = Mailer(settings, db, jobs)
        deliverer = Deliverer(settings, db, jobs, mailer)
        webhook_tasks.register(jobs, deliverer)
        payments = Payments(settings, calls.billing, mailer, db, jobs)
        for name in periodic_jobs(settings):
            # Quiet wherever they run, not only in the scheduler's process (kit.jobs)
            jobs.routine(name)
        return cls(
            settings, db, jobs, carriers, calls, mailer, outbox, deliverer, dialler, payments
        )

    async def start(self, *, receive: bool) -> None:
        """Connect to the broker; a receiving role also runs queued jobs and, with the
        `scheduler` setting on (one process of a cluster), sends the periodic ones: the
        reconciler, the due-call sweep, the campaign tick and the webhook sweep (it re-queues
        due deliveries: retries, and what a stopped worker left behind)."""
        await self.jobs.start(receive=receive)
        if receive and self.settings.scheduler:
            self._scheduler = start_scheduler(self.jobs, periodic_jobs(self.settings))

    async def close(self) -> None:
        if self._scheduler is not None:
            await self._scheduler.stop()
            self._scheduler = None
        await self.jobs.close()
        await self.deliverer.close()
        await self.carriers.close()
        await self.db.dispose()


async def run_worker(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """`callwright worker`: receive queued jobs (dial, e-mail, reconcile, webhooks) until `stop` is set.
    Its realtime events reach the API processes' sockets through Redis."""
    if not settings.job_broker_url:
        raise RuntimeError(
            "callwright worker needs CALLWRIGHT_JOB_BROKER_URL (a Redis URL); without it the "
            "API process runs the jobs itself"
        )
    core = Core.build(settings, Database(settings.database_url), redis_publisher(settings))
    await core.start(receive=True)
    log.info("worker receiving jobs from %s", settings.job_broker_url)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await core.close()
