"""The dialler: a job (`campaigns.tick`, sent every few seconds by a receiving role and after
each campaign call ends) that dials each running campaign's next due contacts within every
limit: its schedule in each callee's zone, its concurrency cap, its pace, the balance (a
campaign pauses itself when a call's hold no longer fits) and its spending cap.

Each attempt is a call row written, with the contact marked `calling`, in the transaction that
chose it; the dial itself is a job sent after that commit. A crash between the two leaves a
queued call that the due-call sweep dials within seconds (its dial job is sent again; the dial's
claim makes a repeat harmless), never a lost contact; and a contact is `calling` until its call
has ended, so it is never dialled twice at once. The campaign's row is locked (`FOR UPDATE`) for
the choice on PostgreSQL, so several worker processes never exceed the concurrency cap together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import InsufficientBalance, hold_for
from callwright.calls.builder import CallRequest, FlowChoice, build_order, tools_over
from callwright.calls.service import CallOrder, CallService
from callwright.campaigns import repository, rules
from callwright.campaigns import service as campaigns
from callwright.campaigns.events import CampaignEvents
from callwright.compliance.calling_hours import OutsideCallingHours
from callwright.compliance.do_not_call import OnDoNotCallList
from callwright.compliance.frequency import TooManyCallsToNumber
from callwright.config import Settings
from callwright.kit.db import Database
from callwright.kit.errors import ValidationFailed
from callwright.kit.time import utcnow
from callwright.models import Campaign, CampaignContact, User

log = logging.getLogger(__name__)

TICK_JOB = "campaigns.tick"
#: How many due contacts one tick reads per free slot (most are skipped only when their zone's
#: window is closed).
LOOKAHEAD = 20


@dataclass
class Dialled:
    """What one tick did, for tests and logs."""

    placed: int = 0
    waiting: int = 0


class Dialler:
    def __init__(
        self,
        settings: Settings,
        db: Database,
        service: CallService,
        events: CampaignEvents,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.settings = settings
        self.db = db
        self.service = service
        self.events = events
        self.clock = clock
        self._lock = asyncio.Lock()

    async def tick(self, *_: Any) -> Dialled:
        """One pass over the campaigns that may dial now."""
        done = Dialled()
        async with self._lock:
            for campaign_id in await self._active():
                async for session in self.db.session():
                    await self._campaign(session, campaign_id, done)
        return done

    async def _active(self) -> list[str]:
        async with self.db.sessionmaker() as session:
            return await repository.active_ids(session)

    async def _campaign(self, session: AsyncSession, campaign_id: str, done: Dialled) -> None:
        campaign = await repository.locked(session, campaign_id)
        if campaign is None or campaign.state not in ("scheduled", "running"):
            return
        now = self.clock()
        # SQLite has no row locks: writing the row takes the database's write lock now, so the
        # counts below are read inside this transaction and a savepoint never opens it.
        campaign.updated_at = utcnow()
        await session.flush()
        schedule = rules.Schedule.of(
            campaign.calling_window, campaign.days, campaign.start_at, campaign.end_at
        )
        if not schedule.begun(now):
            return
        if campaign.state == "scheduled":
            campaign.state, campaign.started_at = "running", campaign.started_at or now
            await self.events.started(session, campaign)
        if await finish_if_done(session, campaign, self.events, now, schedule):
            return
        slots = await self._free_slots(session, campaign, now)
        if slots > 0:
            await self._dial_due(session, campaign, schedule, slots, now, done)
            # One message to the owner's screens per tick, not one per call placed.
            self.events.changed(session, campaign)

    async def _free_slots(self, session: AsyncSession, campaign: Campaign, now: datetime) -> int:
        """How many more calls may start now: the concurrency cap less the calls in progress,
        and the pace less the calls started in the last minute."""
        live = await repository.count(session, campaign.id, "calling")
        recent = await repository.queued_since(session, campaign.id, now - timedelta(minutes=1))
        return min(campaign.concurrency - live, campaign.pace_per_minute - recent)

    async def _dial_due(
        self,
        session: AsyncSession,
        campaign: Campaign,
        schedule: rules.Schedule,
        slots: int,
        now: datetime,
        done: Dialled,
    ) -> None:
        due = await repository.due_contacts(session, campaign.id, now, slots * LOOKAHEAD)
        # Per zone, once a tick: whether the window is open there, and when it opens next.
        windows: dict[str | None, tuple[bool, datetime | None]] = {}
        owner = await session.get(User, campaign.user_id)
        reader_zone = owner.timezone if owner is not None else None
        for contact in due:
            if slots == 0:
                return
            if contact.timezone not in windows:
                zones = rules.stored_zones(contact.timezone, self.settings.default_timezone)
                is_open = schedule.open_in(zones, now)
                windows[contact.timezone] = (
                    is_open,
                    None if is_open else schedule.next_open(zones, now),
                )
            is_open, opens = windows[contact.timezone]
            if not is_open:
                contact.next_attempt_at = opens
                contact.note = rules.waiting_note(
                    schedule.window,
                    rules.stored_zones(contact.timezone, self.settings.default_timezone),
                    opens,
                    reader_zone,
                    now,
                )
                done.waiting += 1
                continue
            if not await self._place(session, campaign, contact, now):
                return
            slots -= 1
            done.placed += 1

    async def _place(
        self, session: AsyncSession, campaign: Campaign, contact: CampaignContact, now: datetime
    ) -> bool:
        """Place one attempt; False when the campaign must stop dialling (it paused)."""
        try:
            order = await self._order(session, campaign, contact)
            if not await self._within_cap(session, campaign, order.max_duration):
                return False
            async with session.begin_nested():
                call = await self.service.place(session, order)
        except InsufficientBalance:
            await self._pause(session, campaign, rules.OUT_OF_BALANCE)
            return False
        except OnDoNotCallList as refused:
            contact.status, contact.outcome, contact.note = (
                "skipped",
                "do-not-call",
                refused.message,
            )
            return True
        except OutsideCallingHours as refused:
            # The legal window, in the number's own zone (a file's `timezone` may differ).
            contact.next_attempt_at = refused.opens or now + timedelta(hours=1)
            contact.note = refused.message
            return True
        except TooManyCallsToNumber as refused:
            contact.next_attempt_at, contact.note = now + timedelta(hours=1), refused.message
            return True
        except ValidationFailed as refused:
            contact.status, contact.outcome = "skipped", "invalid"
            contact.note = "; ".join(m for ms in (refused.errors or {}).values() for m in ms)
            return True
        contact.status, contact.attempts, contact.last_call_id = (
            "calling",
            contact.attempts + 1,
            call.id,
        )
        contact.next_attempt_at, contact.note = None, None
        return True

    async def _order(
        self, session: AsyncSession, campaign: Campaign, contact: CampaignContact
    ) -> CallOrder:
        """The attempt's call. It is "scheduled" for now: dialled at once by the dial job sent
        after the commit, and, should that job be lost with a worker that crashed, by the
        due-call sweep of the next receiving role (the dial's claim makes a repeat harmless)."""
        if campaign.agent_id is None and not campaign.call_settings:
            raise ValidationFailed({"agent": [campaigns.NO_AGENT]})
        settings = {**(campaign.call_settings or {}), **(contact.call_settings or {})}
        flow = settings.pop("flow", None)  # a batch's pinned flow (public_api.batches)
        return await build_order(
            session,
            CallRequest(
                kind="batch" if campaign.batch else "campaign",
                to_number=contact.phone,
                user_id=campaign.user_id,
                agent_id=campaign.agent_id,
                settings=settings,
                tools=tools_over(
                    (campaign.call_settings or {}).get("tools") or (),
                    (contact.call_settings or {}).get("tools") or (),
                )
                or None,
                dynamic_data=settings.get("dynamic_data"),
                variables=contact.variables,
                flow=FlowChoice(**flow) if flow else None,
                campaign_id=campaign.id,
                campaign_contact_id=contact.id,
                start_at=utcnow(),
            ),
        )

    async def _within_cap(self, session: AsyncSession, campaign: Campaign, minutes: int) -> bool:
        """Whether one more call's hold fits under the spending cap (charged and held so far)."""
        if campaign.spend_cap_cents is None:
            return True
        spent = await repository.spent_cents(session, campaign.id)
        if spent + hold_for(minutes) <= campaign.spend_cap_cents:
            return True
        await self._pause(
            session, campaign, rules.SPEND_CAP_REACHED.format(campaign.spend_cap_cents / 100)
        )
        return False

    async def _pause(self, session: AsyncSession, campaign: Campaign, reason: str) -> None:
        campaign.state, campaign.state_reason = "paused", reason
        await self.events.paused(session, campaign)


async def finish_if_done(
    session: AsyncSession,
    campaign: Campaign,
    events: CampaignEvents,
    now: datetime,
    schedule: rules.Schedule | None = None,
) -> bool:
    """Complete the campaign when no contact is left to call or in a call (or when its end
    time passed: its pending contacts are skipped). True when it completed."""
    left = await repository.count(session, campaign.id, "pending", "calling")
    over = schedule is not None and schedule.over(now)
    if left and not over:
        return False
    if over and left:
        calling = await repository.count(session, campaign.id, "calling")
        await campaigns.skip_pending(session, campaign.id, "end-passed")
        if calling:
            return True  # its calls in progress finish first
        campaign.state_reason = rules.END_PASSED
    campaign.state, campaign.finished_at = "completed", now
    campaign.state_reason = campaign.state_reason or rules.ALL_DONE
    await events.completed(session, campaign)
    return True
