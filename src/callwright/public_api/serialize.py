"""A call as Bland shows it: one serializer for `GET /v1/calls/{id}`, the call list and the
`call.*` webhooks, so a read and an event never disagree. Our statuses and outcomes
(telephony.state) map onto Bland's `status`, `queue_status`, `answered_by` and
`call_ended_by` here and nowhere else."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from callwright.kit.money import dollars
from callwright.models import Call, TranscriptEntry
from callwright.telephony.state import TERMINAL, AnsweredBy, CallOutcome, CallStatus

#: Who ended the call, by our outcome (Bland: ASSISTANT or USER); the rest never connected.
_ENDED_BY = {
    CallOutcome.COMPLETED.value: "ASSISTANT",
    CallOutcome.VOICEMAIL.value: "ASSISTANT",
    CallOutcome.STOPPED.value: "ASSISTANT",
    CallOutcome.TIME_LIMIT.value: "ASSISTANT",
    CallOutcome.CALLEE_HUNG_UP.value: "USER",
}
#: Who ended a transferred call (calls.transfers), in Bland's words.
_TRANSFER_ENDED_BY = {"callee": "USER", "person": "PERSON"}
_LIVE_QUEUE = {
    CallStatus.QUEUED.value: "queued",
    CallStatus.RINGING.value: "allocated",
    CallStatus.IN_PROGRESS.value: "started",
}


def is_ended(call: Call) -> bool:
    return call.status in TERMINAL


def status(call: Call) -> str:
    """Bland's `status` (completed, failed, busy, no-answer, canceled; a live call's as it is).
    A call the user stopped is canceled, never completed: a carrier reports a stopped call it
    had connected as completed. Whether a completed call reached a person is `answered_by`."""
    if is_ended(call) and call.end_reason == CallOutcome.STOPPED.value:
        return CallStatus.CANCELED.value
    return call.status


def queue_status(call: Call) -> str:
    """Bland's queue status: queued, allocated (ringing), started, complete; a failure before
    the carrier took the call is a queue_error, one after it a call_error."""
    if call.status in _LIVE_QUEUE:
        return _LIVE_QUEUE[call.status]
    if call.status == CallStatus.FAILED.value:
        return "call_error" if call.carrier_call_id else "queue_error"
    return "complete"


def answered_by(call: Call) -> str:
    """human, voicemail, unknown (not told yet, or not answered yet), no-answer (ended
    unanswered). Always a string: the SDK's models require one. A call that ended on voicemail
    says voicemail, whatever was heard first."""
    if is_ended(call) and call.end_reason == CallOutcome.VOICEMAIL.value:
        return AnsweredBy.VOICEMAIL.value
    if call.answered_by:
        return call.answered_by
    return "no-answer" if is_ended(call) and call.answered_at is None else "unknown"


def shown_answered_by(call: Call) -> str | None:
    """`answered_by` as `/v1` shows it: only for a call placed with `answered_by_enabled`,
    as Bland (null otherwise; the dashboard always shows who answered)."""
    return answered_by(call) if call.answered_by_enabled else None


def call_ended_by(call: Call) -> str | None:
    """ASSISTANT or USER, as at Bland; a transferred call's is who ended it after the transfer:
    USER (the callee hung up) or PERSON (Callwright's: the person left the callee)."""
    if not is_ended(call) or call.answered_at is None:
        return None
    if call.end_reason == CallOutcome.TRANSFERRED.value:
        return _TRANSFER_ENDED_BY.get(call.transfer_ended_by or "")
    return _ENDED_BY.get(call.end_reason or "")


def minutes(call: Call) -> float:
    return round((call.duration_seconds or 0) / 60, 4)


def price(call: Call) -> float | None:
    return dollars(call.cost_cents) if call.cost_cents is not None else None


def recording_url(call: Call, app_url: str) -> str | None:
    return f"{app_url}/v1/recordings/{call.id}" if call.recording_path else None


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), default=str)


def as_strings(values: Mapping[str, Any] | None) -> dict[str, str]:
    """`request_data` as the SDK reads it (string values; objects as JSON)."""
    return {str(k): _text(v) for k, v in (values or {}).items()}


def schema_object(fields: Sequence[Mapping[str, Any]] | None) -> dict[str, str] | None:
    """Our `[{name, type, description}]` as Bland's `{field: description or type}`."""
    if not fields:
        return None
    return {
        str(f.get("name")): str(f.get("description") or f.get("type") or "string") for f in fields
    }


def _analysis(call: Call) -> dict[str, Any]:
    if not call.analysis:
        return {}
    try:
        data = json.loads(call.analysis)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def listed(call: Call) -> dict[str, Any]:
    """A row of `GET /v1/calls`."""
    return {
        "call_id": call.id,
        "createdAt": call.created_at,
        "created_at": call.created_at,
        "call_length": minutes(call),
        "to": call.to_number,
        "from": call.from_number,
        "completed": is_ended(call),
        "status": status(call),
        "queue_status": queue_status(call),
        "error_message": call.error,
        # The SDK's ListedCallData requires a string: "" when not asked for.
        "answered_by": shown_answered_by(call) or "",
        "batch_id": None,
        "price": price(call),
        "max_duration": call.max_duration,
        "metadata": call.call_metadata or {},
        "inbound": False,
        "start_at": call.start_at,
    }


def detail(call: Call, lines: Sequence[TranscriptEntry], app_url: str) -> dict[str, Any]:
    """`GET /v1/calls/{id}`, and the data of `call.ended`."""
    analysis = _analysis(call)
    request_data = as_strings(call.variables)
    extracted = analysis.get("fields", analysis.get("extracted"))
    return {
        "call_id": call.id,
        "c_id": call.id,
        "to": call.to_number,
        "from": call.from_number,
        "status": status(call),
        "queue_status": queue_status(call),
        "completed": is_ended(call),
        "answered_by": shown_answered_by(call),
        "call_ended_by": call_ended_by(call),
        "outcome": call.end_reason if is_ended(call) else None,
        "call_length": minutes(call),
        "corrected_duration": call.duration_seconds or 0,
        "created_at": call.created_at,
        "start_at": call.start_at,
        "started_at": call.answered_at,
        "end_at": call.ended_at,
        "max_duration": call.max_duration,
        "price": price(call),
        "voice": call.voice,
        "agent_id": call.agent_id,
        "summary": analysis.get("summary"),
        "disposition_tag": analysis.get("disposition_tag", analysis.get("disposition")),
        "analysis": extracted if isinstance(extracted, dict) else None,
        "analysis_schema": schema_object(call.analysis_schema),
        "summary_prompt": call.summary_prompt,
        "dispositions": call.dispositions,
        "variables": request_data
        | {"call_id": call.id, "to": call.to_number, "from": call.from_number},
        "request_data": request_data,
        "metadata": call.call_metadata or {},
        "transcripts": [
            {
                "id": str(line.id),
                "created_at": line.created_at,
                "text": line.text,
                "user": line.speaker,
                "c_id": call.id,
            }
            for line in lines
        ],
        "concatenated_transcript": "\n".join(f"{line.speaker}: {line.text}" for line in lines),
        "record": call.record,
        "recording_url": recording_url(call, app_url),
        "error_message": call.error or "",
        **_transfer_and_flow(call),
        "batch_id": "",
        "endpoint_url": app_url,
        "inbound": False,
    }


def _transfer_and_flow(call: Call) -> dict[str, Any]:
    """The call's transfer, and the conversation flow it followed (Bland's `pathway_*`)."""
    return {
        "transferred_to": call.transferred_to,
        "transferred_at": call.transferred_at,
        "pre_transfer_duration": call.pre_transfer_duration,
        "post_transfer_duration": call.post_transfer_duration,
        "transfer_status": call.transfer_status,
        "pathway_id": call.flow_id,
        "pathway_version": call.flow_version,
        "start_node_id": call.start_node_id,
        "pathway_logs": call.pathway_logs,
    }


def started(call: Call) -> dict[str, Any]:
    """The data of `call.started`."""
    return {
        "call_id": call.id,
        "to": call.to_number,
        "from": call.from_number,
        "status": status(call),
        "queue_status": queue_status(call),
        "answered_by": shown_answered_by(call),
        "started_at": call.answered_at,
        "metadata": call.call_metadata or {},
        "request_data": as_strings(call.variables),
    }
