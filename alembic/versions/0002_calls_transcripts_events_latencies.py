"""Calls, transcript entries, call events and per-turn latencies.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 05:48:07.202646
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "calls",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("carrier", sa.String(length=32), nullable=False),
        sa.Column("carrier_call_id", sa.String(length=64), nullable=True),
        sa.Column("from_number", sa.String(length=20), nullable=False),
        sa.Column("to_number", sa.String(length=20), nullable=False),
        sa.Column("prompt", sa.Text(), nullable=False),
        sa.Column("voice", sa.String(length=64), nullable=False),
        sa.Column("temperature", sa.Float(), nullable=False),
        sa.Column("interruption_threshold", sa.Integer(), nullable=False),
        sa.Column("background_audio", sa.String(length=16), nullable=False),
        sa.Column("max_duration", sa.Integer(), nullable=False),
        sa.Column("wait_for_greeting", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("queued_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("ringing_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("answered_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("ended_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("media_ended_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("finalized_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("duration_seconds", sa.Integer(), nullable=True),
        sa.Column("end_reason", sa.String(length=32), nullable=True),
        sa.Column("recording_path", sa.String(length=255), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_calls_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calls")),
        sa.UniqueConstraint("carrier", "carrier_call_id", name="uq_calls_carrier_call"),
    )
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_calls_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_calls_status"), ["status"], unique=False)
        batch_op.create_index("ix_calls_user_created", ["user_id", "created_at"], unique=False)

    op.create_table(
        "call_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.String(length=36), nullable=False),
        sa.Column("category", sa.String(length=32), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["call_id"], ["calls.id"], name=op.f("fk_call_events_call_id_calls"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_events")),
    )
    with op.batch_alter_table("call_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_call_events_call_id"), ["call_id"], unique=False)

    op.create_table(
        "transcript_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("speaker", sa.String(length=16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["call_id"],
            ["calls.id"],
            name=op.f("fk_transcript_entries_call_id_calls"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transcript_entries")),
        sa.UniqueConstraint("call_id", "seq", name="uq_transcript_entries_call_seq"),
    )
    with op.batch_alter_table("transcript_entries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_transcript_entries_call_id"), ["call_id"], unique=False
        )

    op.create_table(
        "turn_latencies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.String(length=36), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("end_of_speech_ms", sa.Integer(), nullable=True),
        sa.Column("stt_ms", sa.Integer(), nullable=True),
        sa.Column("llm_ms", sa.Integer(), nullable=True),
        sa.Column("tts_ms", sa.Integer(), nullable=True),
        sa.Column("total_ms", sa.Integer(), nullable=True),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["call_id"],
            ["calls.id"],
            name=op.f("fk_turn_latencies_call_id_calls"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_latencies")),
    )
    with op.batch_alter_table("turn_latencies", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_turn_latencies_call_id"), ["call_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("turn_latencies", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_turn_latencies_call_id"))

    op.drop_table("turn_latencies")
    with op.batch_alter_table("transcript_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transcript_entries_call_id"))

    op.drop_table("transcript_entries")
    with op.batch_alter_table("call_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_call_events_call_id"))

    op.drop_table("call_events")
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_user_created")
        batch_op.drop_index(batch_op.f("ix_calls_status"))
        batch_op.drop_index(batch_op.f("ix_calls_created_at"))

    op.drop_table("calls")
