"""What a call's page shows besides its details (`call/{id}/page`, `admin/calls/{id}`): the
settings it was placed with, its events, the times that place its transcript on the recording,
and its cost worked through the billing rule (billing.service.cost_for)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from callwright.billing.service import COST_PER_MINUTE_CENTS, cost_for
from callwright.calls.events import CONNECTED
from callwright.calls.schemas import (
    CallActionOut,
    CallBillingOut,
    CallEventOut,
    CallSettingsOut,
    CallTimes,
    LedgerLineOut,
)
from callwright.kit.money import dollars, money
from callwright.models import Call, CallEvent, LedgerEntry

RULE = (
    f"Each started minute connected costs ${money(COST_PER_MINUTE_CENTS)}: "
    f"ceil((seconds connected - 1) / 60) x ${money(COST_PER_MINUTE_CENTS)}, never more than "
    "the hold placed at send (max duration x the rate). A call never answered costs nothing."
)


def source_of(call: Call) -> Literal["dashboard", "api", "campaign", "test", "lab"]:
    if call.kind == "test":
        return "test"
    if call.kind == "lab":
        return "lab"
    if call.campaign_id is not None:
        return "campaign"
    if call.api_key_id is not None:
        return "api"
    return "dashboard"


def settings_of(call: Call, agent_name: str | None, campaign_name: str | None) -> CallSettingsOut:
    return CallSettingsOut(
        source=source_of(call),
        prompt=call.prompt,
        voice=call.voice,
        temperature=call.temperature,
        interruption_threshold=call.interruption_threshold,
        background_audio=call.background_audio,
        max_duration=call.max_duration,
        wait_for_greeting=call.wait_for_greeting,
        first_sentence=call.first_sentence,
        voicemail_action=call.voicemail_action,
        voicemail_message=call.voicemail_message,
        disclosure=call.disclosure,
        variables=call.variables,
        summary_prompt=call.summary_prompt,
        dispositions=call.dispositions,
        analysis_schema=call.analysis_schema,
        agent_id=call.agent_id,
        agent_name=agent_name,
        campaign_id=call.campaign_id,
        campaign_name=campaign_name,
        start_at=call.start_at,
    )


def events_of(events: Sequence[CallEvent]) -> list[CallEventOut]:
    return [
        CallEventOut(
            category=e.category,
            message=e.message,
            created_at=e.created_at,
            action=CallActionOut.model_validate(e.action) if e.action else None,
        )
        for e in events
    ]


def times_of(call: Call, events: Sequence[CallEvent]) -> CallTimes:
    """The recording starts when the media stream connects: its "Call connected" event is
    written right after the recorder starts (the carrier's answer can come a little earlier)."""
    connected = next((e.created_at for e in events if e.message == CONNECTED), None)
    return CallTimes(
        queued_at=call.queued_at,
        ringing_at=call.ringing_at,
        answered_at=call.answered_at,
        ended_at=call.ended_at,
        recording_started_at=connected or call.answered_at,
        recording_ended_at=call.media_ended_at,
    )


def billing_of(call: Call, ledger: Sequence[LedgerEntry]) -> CallBillingOut:
    seconds = call.duration_seconds or 0
    minutes = math.ceil(max(0, seconds - 1) / 60)
    by_rule = cost_for(seconds)
    capped = call.hold_cents > 0 and by_rule > call.hold_cents
    return CallBillingOut(
        rate_per_minute=dollars(COST_PER_MINUTE_CENTS),
        hold=dollars(call.hold_cents),
        billed_seconds=seconds,
        billed_minutes=minutes,
        cost=dollars(call.cost_cents) if call.cost_cents is not None else None,
        capped=capped,
        rule=RULE,
        explanation=explain(call, seconds, minutes, by_rule, capped),
        ledger=[
            LedgerLineOut(
                kind=e.kind,
                amount=dollars(e.amount_cents),
                balance_after=dollars(e.balance_after_cents),
                created_at=e.created_at,
            )
            for e in ledger
        ],
    )


def transfer_parts(call: Call) -> str:
    """The two parts of a transferred call's billed seconds, in words ("" for other calls):
    the whole call is billed at the one rate (docs/calls-and-billing.md, "Transfers")."""
    if call.post_transfer_duration is None or call.pre_transfer_duration is None:
        return ""
    return (
        f" ({call.pre_transfer_duration} s with the agent, "
        f"{call.post_transfer_duration} s transferred to a person)"
    )


def explain(call: Call, seconds: int, minutes: int, by_rule: int, capped: bool) -> str:
    """This call's figures through the rule, in words."""
    rate = f"${money(COST_PER_MINUTE_CENTS)}"
    hold = f"${money(call.hold_cents)}"
    if call.kind == "lab":
        return "A lab call rings a simulated callee and is free: nothing was held or charged."
    if call.user_id is None or call.kind == "test":
        return "The public test call is free: nothing was held or charged."
    if call.finalized_at is None:
        return (
            f"{hold} is held while the call is live ({call.max_duration} min x {rate}); "
            "the call is settled when it ends."
        )
    if call.answered_at is None or seconds == 0:
        return f"Never connected: nothing is charged and the {hold} hold was released."
    words = (
        f"Connected {seconds} s{transfer_parts(call)}: ceil(({seconds} s - 1 s) / 60) = {minutes} "
        f"min x {rate} = ${money(by_rule)}"
    )
    if call.hold_cents <= 0:
        return f"{words}. Nothing was held for this call, so nothing was charged."
    if capped:
        words += f", capped at the {hold} held"
    charged = call.cost_cents if call.cost_cents is not None else min(by_rule, call.hold_cents)
    return f"{words}. Charged ${money(charged)}; the rest of the {hold} hold was released."
