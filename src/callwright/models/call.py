from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime
from callwright.kit.time import utcnow


def new_call_id() -> str:
    return str(uuid.uuid4())


class Call(Base):
    """One outbound call, from the send to the settled end. Status follows
    telephony.state (queued, ringing, in-progress, then one terminal status)."""

    __tablename__ = "calls"
    __table_args__ = (
        UniqueConstraint("carrier", "carrier_call_id", name="uq_calls_carrier_call"),
        # A user's call log: the page's ids in order come from the index alone (see
        # calls.repository.page_for_user).
        Index("ix_calls_user_created", "user_id", "created_at", "id"),
        # Covers a user's count and total seconds (the dashboard stats) without table reads.
        Index("ix_calls_user_duration", "user_id", "duration_seconds"),
        # The public test calls counted today and this week.
        Index("ix_calls_kind_created", "kind", "created_at"),
        # Newest-first paging, and the distinct callers of the last 30 days without table reads.
        Index("ix_calls_created_user", "created_at", "user_id"),
        # The admin call-log search by number prefix.
        Index("ix_calls_to_number", "to_number"),
        Index("ix_calls_from_number", "from_number"),
        # Scheduled calls not dialled yet (the due-call sweep).
        Index(
            "ix_calls_scheduled",
            "start_at",
            sqlite_where=text("start_at IS NOT NULL AND status = 'queued'"),
            postgresql_where=text("start_at IS NOT NULL AND status = 'queued'"),
        ),
        # The calls not yet finalised (the overdue sweep, the analytics rollup's high-water mark).
        Index(
            "ix_calls_unfinalized",
            "created_at",
            sqlite_where=text("finalized_at IS NULL"),
            postgresql_where=text("finalized_at IS NULL"),
        ),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_call_id)
    #: Owner; null for the public test call. Kept (set null) if the user is deleted.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    #: Where it came from (calls.service.CallKind): dashboard, api, batch, campaign, test, cli,
    #: lab.
    kind: Mapped[str] = mapped_column(String(16), default="dashboard")
    carrier: Mapped[str] = mapped_column(String(32))
    carrier_call_id: Mapped[str | None] = mapped_column(String(64), default=None)
    #: SHA-256 of the single-use secret the carrier's media stream must present; cleared when
    #: the stream connects (a second connection for the call is refused).
    media_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    #: SHA-256 of the public test call's visitor secret (the landing page's browser that placed
    #: it watches the call's progress with it); cleared when the call is finalised.
    viewer_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    from_number: Mapped[str] = mapped_column(String(20))
    to_number: Mapped[str] = mapped_column(String(20))
    prompt: Mapped[str] = mapped_column(Text)
    voice: Mapped[str] = mapped_column(String(64))
    #: The language the call is held in (BCP-47, `speech.languages`): its STT and TTS voice.
    language: Mapped[str] = mapped_column(String(16), default="en-US", server_default="en-US")
    temperature: Mapped[float] = mapped_column(Float, default=0.7)
    interruption_threshold: Mapped[int] = mapped_column(Integer, default=100)
    background_audio: Mapped[str] = mapped_column(String(16), default="null")
    max_duration: Mapped[int] = mapped_column(Integer, default=30)  # minutes
    wait_for_greeting: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    queued_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ringing_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: When the media stream (and so the recording) ended.
    media_ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: Set once, when the end of the call has been processed (events, billing).
    finalized_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    duration_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    #: How the call ended (telephony.state.CallOutcome); null while it is live.
    end_reason: Mapped[str | None] = mapped_column(String(32), default=None)
    #: Who picked up (telephony.state.AnsweredBy): null before the answer, unknown until heard.
    answered_by: Mapped[str | None] = mapped_column(String(16), default=None)
    recording_path: Mapped[str | None] = mapped_column(String(255), default=None)
    #: Whether the call is recorded (Bland's `record`; false: no recording is kept at all).
    record: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: Whether `/v1` and the webhooks show `answered_by`: false only for a `/v1/calls` call
    #: placed without Bland's `answered_by_enabled` (the dashboard always shows who answered).
    answered_by_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    error: Mapped[str | None] = mapped_column(Text, default=None)
    #: Billing: the hold placed at send (max_duration x 49 cents) and the settled charge.
    hold_cents: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    cost_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The post-call analysis (JSON: summary, outcome, sentiment, key facts, method).
    analysis: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # --- the developer platform ----------------------------------------------------------
    #: The saved agent the call started from (kept when the agent is deleted: set null).
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="SET NULL"), default=None
    )
    #: The campaign and contact this call is an attempt for (campaigns/dialler.py).
    campaign_id: Mapped[str | None] = mapped_column(
        ForeignKey("campaigns.id", ondelete="SET NULL"), default=None, index=True
    )
    campaign_contact_id: Mapped[int | None] = mapped_column(
        ForeignKey("campaign_contacts.id", ondelete="SET NULL"), default=None
    )
    #: The `{{variables}}` the prompt was filled with (Bland's `request_data`).
    variables: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: The caller's own data, returned on every read and webhook (Bland's `metadata`).
    call_metadata: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSON, default=None)
    #: Where this call's `call.*` events go, besides the user's endpoints.
    webhook_url: Mapped[str | None] = mapped_column(String(2048), default=None)
    first_sentence: Mapped[str | None] = mapped_column(Text, default=None)
    #: On voicemail: "leave_message" (with `voicemail_message`, or a short default) or "hangup".
    voicemail_action: Mapped[str] = mapped_column(
        String(16), default="leave_message", server_default="leave_message"
    )
    voicemail_message: Mapped[str | None] = mapped_column(Text, default=None)
    #: The AI disclosure in the caller's own words (None: the default).
    disclosure: Mapped[str | None] = mapped_column(Text, default=None)
    summary_prompt: Mapped[str | None] = mapped_column(Text, default=None)
    dispositions: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    #: Named fields to extract after the call: [{name, type, description}].
    analysis_schema: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    #: The custom tools the agent may call ([{name, description, parameters, method, url,
    #: headers (values sealed), body, timeout_seconds, waiting_line}]; docs/actions.md).
    tools: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    #: Requests made when the call is dialled whose answers fill `{{variables}}` (Bland's
    #: `dynamic_data`: [{url, method, headers (values sealed), body, cache, response_data}]).
    dynamic_data: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    #: A scheduled call is dialled at this time (null: at once).
    start_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: The API key that placed it (null: the dashboard, the test call, the CLI).
    api_key_id: Mapped[int | None] = mapped_column(
        ForeignKey("api_keys.id", ondelete="SET NULL"), default=None
    )
    # --- transfers to a person (docs/actions.md, "Transfer") ------------------------------
    #: Where the agent may hand the callee: one number, or departments -> numbers (Bland's
    #: `transfer_phone_number`, `transfer_list`; "default" is the department asked for none).
    transfer_number: Mapped[str | None] = mapped_column(String(20), default=None)
    transfer_list: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    #: "cold" (the person is joined at once) or "warm" (the person first hears a summary).
    transfer_mode: Mapped[str] = mapped_column(String(8), default="cold", server_default="cold")
    #: The number the call was handed to, and when the agent handed it (Bland's names).
    transferred_to: Mapped[str | None] = mapped_column(String(20), default=None)
    transferred_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    #: The transfer's state: "dialing", then the carrier's DialCallStatus (completed, busy,
    #: no-answer, failed, canceled).
    transfer_status: Mapped[str | None] = mapped_column(String(16), default=None)
    #: The one line a warm transfer's person hears before the callee is joined.
    transfer_summary: Mapped[str | None] = mapped_column(Text, default=None)
    #: Seconds from the answer to the transfer, and seconds the person was connected.
    pre_transfer_duration: Mapped[int | None] = mapped_column(Integer, default=None)
    post_transfer_duration: Mapped[int | None] = mapped_column(Integer, default=None)
    #: Who ended a call whose transfer reached the person: "callee" (hung up first) or
    #: "person" (left the callee; the call then hangs up). Null for any other call.
    transfer_ended_by: Mapped[str | None] = mapped_column(String(8), default=None)
    #: SHA-256 of the single-use secret of the transfer's listening stream (`leg=listen`).
    listen_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    #: Keys pressed when the call is answered, before the agent speaks (Bland's name;
    #: docs/actions.md, Keypad).
    precall_dtmf_sequence: Mapped[str | None] = mapped_column(String(64), default=None)
    # --- conversation flows (docs/flows.md) -------------------------------------------------
    #: The flow the call follows (Bland's `pathway_id`), the published version it pinned, the
    #: node it started at (null: the graph's start), and that version's graph as the call ran
    #: it (kept with the call, so its path can be read after the flow changes or goes).
    flow_id: Mapped[str | None] = mapped_column(String(36), default=None)
    flow_version: Mapped[int | None] = mapped_column(Integer, default=None)
    start_node_id: Mapped[str | None] = mapped_column(String(64), default=None)
    flow_graph: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: Each move through the flow (voice_agent.flow_graph.Step as JSON), in order.
    pathway_logs: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    # --- the agent lab (docs/lab.md) --------------------------------------------------------
    #: A lab call's simulated callee (lab.contract.Callee as JSON), which the sandbox network
    #: plays instead of the persona its number picks; null for every other call.
    lab_callee: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class TranscriptEntry(Base):
    __tablename__ = "transcript_entries"
    __table_args__ = (UniqueConstraint("call_id", "seq", name="uq_transcript_entries_call_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    call_id: Mapped[str] = mapped_column(ForeignKey("calls.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    speaker: Mapped[str] = mapped_column(String(16))  # assistant | user
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class CallEvent(Base):
    __tablename__ = "call_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    call_id: Mapped[str] = mapped_column(ForeignKey("calls.id", ondelete="CASCADE"), index=True)
    category: Mapped[str] = mapped_column(String(32))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: An action line's action (realtime.events.CallAction: kind, name, status, arguments,
    #: result, latency), shown on the call's page; null for any other event.
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class TurnLatency(Base):
    """One agent reply: how long each stage took, in milliseconds."""

    __tablename__ = "turn_latencies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    call_id: Mapped[str] = mapped_column(ForeignKey("calls.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    end_of_speech_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    stt_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    llm_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    tts_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    total_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
