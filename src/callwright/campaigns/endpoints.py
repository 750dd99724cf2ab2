"""The signed-in user's campaigns: create a draft, load its contacts from a CSV file (the
report of every refused row), start, pause, resume, cancel; the list and one campaign with its
live counters; its contacts (search, filter) and their results as CSV. docs/campaigns.md."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Path, Query, UploadFile
from fastapi.responses import StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.analysis import Analysis
from callwright.auth.deps import CurrentUser
from callwright.billing.service import hold_for
from callwright.campaigns import repository, rules
from callwright.campaigns import service as campaigns
from callwright.campaigns.deps import CampaignEventsDep
from callwright.campaigns.rules import ContactStatus
from callwright.campaigns.schemas import (
    Acted,
    CampaignIn,
    CampaignOut,
    CampaignResponse,
    CampaignsPage,
    ContactOut,
    ContactsPage,
    Counters,
    LoadOut,
    LoadReport,
    RefusedRowOut,
    ZoneMismatchOut,
    ZoneOut,
    ZonesOut,
)
from callwright.kit.bounds import PageRequest, page_params
from callwright.kit.csv_export import CsvExport
from callwright.kit.db import Database, SessionDep
from callwright.kit.deps import DatabaseDep, SettingsDep
from callwright.kit.time import utcnow
from callwright.models import Agent, Campaign, CampaignContact

router = APIRouter(tags=["campaigns"])

CampaignId = Annotated[str, Path(max_length=36)]
Action = Literal["start", "pause", "resume", "cancel"]
DONE_MESSAGES = {
    "start": "Campaign started.",
    "pause": "Campaign paused: calls in progress will finish.",
    "resume": "Campaign resumed.",
    "cancel": "Campaign cancelled.",
}
EXPORT_BATCH = 500
#: Time-zone groups the preview lists, at most (the biggest first).
ZONE_GROUPS_SHOWN = 50
EXPORT_FIXED = (
    "row",
    "phone_number",
    "status",
    "outcome",
    "attempts",
    "last_call_id",
    "next_attempt_at",
    "note",
)


async def campaign_out(session: AsyncSession, campaign: Campaign) -> CampaignOut:
    counts = await campaigns.counters(session, campaign.id)
    agent = await session.get(Agent, campaign.agent_id) if campaign.agent_id else None
    given = campaign.call_settings or {}
    minutes = int(given.get("max_duration") or (agent.max_duration if agent else 0))
    spent = await repository.spent_cents(session, campaign.id)
    to_call = counts.get("pending", 0)
    per_call = hold_for(minutes) if minutes else 0
    return CampaignOut(
        id=campaign.id,
        name=campaign.name,
        agent_id=campaign.agent_id,
        agent_name=agent.name if agent else None,
        state=campaign.state,
        state_reason=campaign.state_reason,
        start_at=campaign.start_at,
        end_at=campaign.end_at,
        days=campaign.days,
        calling_window=campaign.calling_window,
        concurrency=campaign.concurrency,
        pace_per_minute=campaign.pace_per_minute,
        retries=campaign.retries or {},
        spend_cap=campaign.spend_cap_cents / 100 if campaign.spend_cap_cents else None,
        spent=spent / 100,
        max_remaining_cost=to_call * per_call / 100,
        counters=_counters(counts),
        created_at=campaign.created_at,
        started_at=campaign.started_at,
        finished_at=campaign.finished_at,
    )


def _counters(counts: dict[str, int]) -> Counters:
    return Counters(
        total=counts.get("total", 0),
        pending=counts.get("pending", 0),
        calling=counts.get("calling", 0),
        done=counts.get("done", 0),
        opted_out=counts.get("opted-out", 0),
        skipped=counts.get("skipped", 0),
        outcomes={k.split(":", 1)[1]: v for k, v in counts.items() if k.startswith("done:")},
    )


def _fields(body: CampaignIn) -> dict[str, Any]:
    fields: dict[str, Any] = body.model_dump(exclude={"spend_cap", "retries"})
    fields["retries"] = {k: v.model_dump() for k, v in body.retries.items()}
    fields["spend_cap_cents"] = round(body.spend_cap * 100) if body.spend_cap else None
    return fields


@router.get("/campaigns")
async def list_campaigns(
    user: CurrentUser, session: SessionDep, paging: Annotated[PageRequest, page_params(20)]
) -> CampaignsPage:
    """The user's campaigns, newest first, each with its counters."""
    rows, total = await repository.campaigns_page(
        session, user.id, page=paging.page, per_page=paging.per_page
    )
    return CampaignsPage(
        data=[await campaign_out(session, c) for c in rows],
        pagination=paging.pagination(total),
    )


@router.post("/campaigns", status_code=201)
async def create_campaign(
    body: CampaignIn, user: CurrentUser, session: SessionDep
) -> CampaignResponse:
    """A draft campaign calling with one of the user's agents."""
    campaign = await campaigns.create(session, user.id, _fields(body))
    return CampaignResponse(data=await campaign_out(session, campaign))


@router.get("/campaigns/{campaign_id}")
async def get_campaign(
    campaign_id: CampaignId, user: CurrentUser, session: SessionDep
) -> CampaignResponse:
    campaign = await campaigns.owned(session, user.id, campaign_id)
    return CampaignResponse(data=await campaign_out(session, campaign))


@router.put("/campaigns/{campaign_id}")
async def update_campaign(
    campaign_id: CampaignId, body: CampaignIn, user: CurrentUser, session: SessionDep
) -> CampaignResponse:
    """Change a draft's name, agent, schedule and limits (409 once it is started)."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    await campaigns.update(session, campaign, _fields(body))
    return CampaignResponse(data=await campaign_out(session, campaign))


@router.get("/campaigns/{campaign_id}/zones")
async def campaign_zones(
    campaign_id: CampaignId, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> ZonesOut:
    """The contacts by the time zone they are called in, with when the campaign's window opens
    there next (the schedule step's preview)."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    groups = await repository.zone_groups(session, campaign.id, ZONE_GROUPS_SHOWN)
    schedule = rules.Schedule.of(
        campaign.calling_window, campaign.days, campaign.start_at, campaign.end_at
    )
    now = max(utcnow(), campaign.start_at or utcnow())
    default_zone = settings.default_timezone
    out = []
    for names, count in groups:
        zones = rules.stored_zones(names, default_zone)
        open_now = schedule.open_in(zones, now)
        opens = now if open_now else schedule.next_open(zones, now)
        out.append(
            ZoneOut(zones=names or default_zone, contacts=count, open_now=open_now, opens_at=opens)
        )
    return ZonesOut(data=out)


@router.post("/campaigns/{campaign_id}/contacts")
async def load_contacts(
    campaign_id: CampaignId,
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    file: Annotated[UploadFile, File()],
) -> LoadOut:
    """Replace a draft's contacts with a CSV file's: a phone column, any others become the
    agent's `{{variables}}`, an optional `timezone` column. Answers the validation report."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    loaded = await campaigns.load_contacts(
        session,
        campaign,
        file.file,
        default_region=settings.default_region,
        default_zone=settings.default_timezone,
    )
    report = loaded.report
    return LoadOut(
        data=LoadReport(
            accepted=report.accepted,
            refused_count=report.refused_count,
            refused=[
                RefusedRowOut(row=r.row, value=r.value, reason=r.reason) for r in report.refused
            ],
            reasons=dict(report.reasons),
            zone_mismatch_count=report.mismatch_count,
            zone_mismatches=[
                ZoneMismatchOut(
                    row=m.row,
                    phone_number=m.phone_e164,
                    file_zone=m.file_zone,
                    number_zones=list(m.number_zones),
                )
                for m in report.mismatches
            ],
            calling_hours=settings.calling_hours,
            variables=loaded.variables,
        )
    )


@router.post("/campaigns/{campaign_id}/{action}")
async def act_on_campaign(
    campaign_id: CampaignId,
    action: Action,
    user: CurrentUser,
    session: SessionDep,
    events: CampaignEventsDep,
) -> Acted:
    """Start a draft, pause (new dials stop, calls in progress finish), resume, or cancel."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    await campaigns.act(session, campaign, action, events)
    return Acted(message=DONE_MESSAGES[action], data=await campaign_out(session, campaign))


@router.get("/campaigns/{campaign_id}/contacts")
async def list_contacts(
    campaign_id: CampaignId,
    user: CurrentUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(25)],
    status: ContactStatus | None = None,
    outcome: Annotated[str | None, Query(max_length=32)] = None,
    search: Annotated[str, Query(max_length=40)] = "",
) -> ContactsPage:
    """The campaign's contacts in file order; filter by status or last outcome, search the
    number's digits or a variable's text."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    rows, total = await repository.contacts_page(
        session,
        campaign.id,
        status=status,
        outcome=outcome,
        search=search,
        page=paging.page,
        per_page=paging.per_page,
    )
    analyses = await _analyses(session, [c.last_call_id for c in rows if c.last_call_id])
    return ContactsPage(
        data=[contact_out(c, analyses.get(c.last_call_id or "")) for c in rows],
        pagination=paging.pagination(total),
    )


async def _analyses(session: AsyncSession, call_ids: Sequence[str]) -> dict[str, Analysis]:
    rows = await repository.analyses(session, call_ids)
    return {call_id: Analysis.from_json(text) for call_id, text in rows}


def contact_out(contact: CampaignContact, analysis: Analysis | None) -> ContactOut:
    return ContactOut(
        id=contact.id,
        row=contact.file_row,
        phone_number=contact.phone,
        variables=contact.variables or {},
        timezone=contact.timezone,
        status=contact.status,
        outcome=contact.outcome,
        note=contact.note,
        attempts=contact.attempts,
        next_attempt_at=contact.next_attempt_at,
        last_call_id=contact.last_call_id,
        disposition=analysis.disposition_tag if analysis else None,
        fields=dict(analysis.values()) if analysis else None,
    )


@router.get("/campaigns/{campaign_id}/export")
async def export_results(
    campaign_id: CampaignId, user: CurrentUser, session: SessionDep, db: DatabaseDep
) -> StreamingResponse:
    """Every contact with its variables, outcome, disposition and extracted fields, as CSV."""
    campaign = await campaigns.owned(session, user.id, campaign_id)
    agent = await session.get(Agent, campaign.agent_id) if campaign.agent_id else None
    fields = [str(f["name"]) for f in (agent.analysis_schema or [])] if agent else []
    return StreamingResponse(
        _results_csv(db, campaign.id, fields),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="campaign-{campaign.id[:8]}.csv"'},
    )


async def _results_csv(db: Database, campaign_id: str, fields: list[str]) -> AsyncIterator[str]:
    """A batch of 500 contacts at a time, on a session of its own (the body is sent after the
    request's session closed)."""
    async with db.sessionmaker() as session:
        export = CsvExport()
        variables: list[str] | None = None
        after = 0
        while True:
            batch = await repository.contacts_after(session, campaign_id, after, EXPORT_BATCH)
            if variables is None:
                variables = list(batch[0].variables or {}) if batch else []
                export.row([*EXPORT_FIXED, *variables, "disposition", *fields])
            if not batch:
                break
            after = batch[-1].id
            analyses = await _analyses(session, [c.last_call_id for c in batch if c.last_call_id])
            for contact in batch:
                export.row(_result_row(contact, analyses, variables, fields))
            yield export.take()
        yield export.take()


def _result_row(
    c: CampaignContact, analyses: dict[str, Analysis], variables: list[str], fields: list[str]
) -> list[object]:
    analysis = analyses.get(c.last_call_id or "")
    values = analysis.values() if analysis else {}
    return (
        [c.file_row, c.phone, c.status, c.outcome or "", c.attempts, c.last_call_id or ""]
        + [c.next_attempt_at.isoformat() if c.next_attempt_at else "", c.note or ""]
        + [(c.variables or {}).get(v, "") for v in variables]
        + [(analysis.disposition_tag or "") if analysis else ""]
        + ["" if values.get(f) is None else values[f] for f in fields]
    )
