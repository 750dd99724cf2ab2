"""Campaigns as a user keeps them: create a draft from an agent, load its contacts from a CSV
file (with the report of every refused row), start, pause, resume, cancel; the counters the
screens show. The dialler (campaigns/dialler.py) does the calling."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import service as agents
from callwright.agents.settings import TEMPLATED, merged
from callwright.agents.variables import placeholders
from callwright.calls.builder import dynamic_names
from callwright.campaigns import contacts as reading
from callwright.campaigns import repository, rules
from callwright.campaigns.events import CampaignEvents
from callwright.compliance import repository as do_not_call
from callwright.compliance.calling_hours import Window
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.kit.time import utcnow
from callwright.models import Agent, Campaign

#: Contacts a campaign may hold.
CONTACTS_MAX = 100_000
NOT_FOUND = "Campaign not found."
NOT_EDITABLE = "Only a draft campaign can be changed."
NOT_A_DRAFT = "Contacts can be loaded only while the campaign is a draft."
NO_CONTACTS = "Load the contacts first: the campaign has none to call."
NO_AGENT = "The campaign's agent was deleted: create a new campaign."
TOO_MANY = f"A campaign holds at most {CONTACTS_MAX:,} contacts."


class CampaignStateError(AppError):
    status_code = 409


async def owned(session: AsyncSession, user_id: int, campaign_id: str) -> Campaign:
    campaign = await repository.campaign_of(session, user_id, campaign_id)
    if campaign is None:
        raise NotFound(NOT_FOUND)
    return campaign


async def create(session: AsyncSession, user_id: int, fields: Mapping[str, Any]) -> Campaign:
    """A draft campaign; its agent, if it names one, must be the user's own."""
    if fields.get("agent_id"):
        await agents.owned(session, user_id, str(fields["agent_id"]))
    campaign = Campaign(user_id=user_id, state="draft", **fields)
    session.add(campaign)
    await session.flush()
    return campaign


async def update(session: AsyncSession, campaign: Campaign, fields: Mapping[str, Any]) -> None:
    """A draft's settings replaced (its agent must be the user's own)."""
    if campaign.state != "draft":
        raise CampaignStateError(NOT_EDITABLE)
    await agents.owned(session, campaign.user_id, str(fields["agent_id"]))
    for name, value in fields.items():
        setattr(campaign, name, value)
    await session.flush()


async def call_settings(session: AsyncSession, campaign: Campaign) -> dict[str, Any]:
    """What every call of the campaign starts from: its agent's settings with the campaign's
    own on top (a `/v1/batches` task ...); CampaignStateError when it has neither."""
    agent = await session.get(Agent, campaign.agent_id) if campaign.agent_id else None
    if agent is None and not campaign.call_settings:
        raise CampaignStateError(NO_AGENT)
    return merged(agent, campaign.call_settings or {})


def needed_variables(settings: Mapping[str, Any]) -> list[str]:
    """The `{{variables}}` the call's texts use: every contact must give each one (but those
    the calls' dynamic data fills, a `/v1` batch's)."""
    later = dynamic_names(settings.get("dynamic_data"))
    return [n for n in placeholders(*(settings.get(name) for name in TEMPLATED)) if n not in later]


@dataclass
class Loaded:
    report: reading.ImportReport = field(default_factory=reading.ImportReport)
    variables: list[str] = field(default_factory=list)


async def load_contacts(
    session: AsyncSession,
    campaign: Campaign,
    raw: BinaryIO,
    *,
    default_region: str,
    default_zone: str,
) -> Loaded:
    """Replace the draft's contacts with the file's, a batch at a time (the file is streamed;
    numbers listed on the user's or the global do-not-call list are refused)."""
    if campaign.state != "draft":
        raise CampaignStateError(NOT_A_DRAFT)
    needed = needed_variables(await call_settings(session, campaign))
    await repository.delete_contacts(session, campaign.id)

    async def listed(phones: list[str]) -> set[str]:
        mine = await do_not_call.listed_among(session, campaign.user_id, phones)
        return mine | await do_not_call.listed_among(session, None, phones)

    loaded = Loaded(variables=needed)
    window = Window.parse(campaign.calling_window)
    try:
        async for batch in reading.read_contacts(
            raw, default_region=default_region, listed=listed, required=needed
        ):
            loaded.report.add(batch)
            if loaded.report.accepted > CONTACTS_MAX:
                raise ValidationFailed({"file": [TOO_MANY]})
            rows = [
                _contact(campaign.id, c, needed, _zones(c, window, default_zone))
                for c in batch
                if isinstance(c, reading.Contact)
            ]
            if rows:
                await repository.add_contacts(session, rows)
    except reading.ContactsFileError as exc:
        raise ValidationFailed({"file": [str(exc)]}) from None
    return loaded


def _zones(contact: reading.Contact, window: Window, default_zone: str) -> str:
    zones = rules.zones_of(contact.phone_e164, contact.timezone, window, default_zone)
    return ",".join(z.key for z in zones)


def _contact(
    campaign_id: str, contact: reading.Contact, needed: Sequence[str], zones: str
) -> dict[str, Any]:
    """The row to store (a `campaign_contacts` insert's values). A variable is kept under the
    agent's own spelling too ("FirstName" for a "First Name" column), so the agent's
    placeholders fill."""
    variables = dict(contact.variables)
    for name in needed:
        key = reading.variable_name(name)
        if key in variables:
            variables[name] = variables[key]
    return {
        "campaign_id": campaign_id,
        "file_row": contact.row,
        "phone": contact.phone_e164,
        "variables": variables,
        "timezone": zones,
        "status": "pending",
        "attempts": 0,
    }


async def act(
    session: AsyncSession, campaign: Campaign, action: str, events: CampaignEvents
) -> Campaign:
    """Start, pause, resume or cancel (409 with the reason when the state does not allow it).
    Pausing stops new dials; calls in progress finish."""
    target = rules.move(action, campaign.state)
    if target is None:
        raise CampaignStateError(rules.CANNOT[action])
    if action == "start":
        if not await repository.has_contacts(session, campaign.id):
            raise CampaignStateError(NO_CONTACTS)
        await call_settings(session, campaign)
    campaign.state = target
    campaign.state_reason = None
    if target == "cancelled":
        campaign.finished_at = utcnow()
        await skip_pending(session, campaign.id, "cancelled")
    if target == "paused":
        await events.paused(session, campaign)
    await session.flush()
    return campaign


async def skip_pending(session: AsyncSession, campaign_id: str, why: str) -> None:
    """Contacts still to call will not be: marked skipped with the reason."""
    for contact in await repository.contacts_in(session, campaign_id, "pending"):
        contact.status, contact.outcome = "skipped", why


async def counters(session: AsyncSession, campaign_id: str) -> dict[str, int]:
    """Contacts by status, and the done ones by their last outcome ("done:busy")."""
    counts: dict[str, int] = {"total": 0}
    for status, outcome, count in await repository.status_counts(session, campaign_id):
        counts["total"] += count
        counts[status] = counts.get(status, 0) + count
        if status == "done" and outcome:
            counts[f"done:{outcome}"] = counts.get(f"done:{outcome}", 0) + count
    return counts
