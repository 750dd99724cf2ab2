"""The developer platform: saved agents, API keys, webhook endpoints and deliveries (an outbox
with every attempt logged), the user's webhook signing secret, and what a call records of it
(agent, variables, metadata, webhook, first sentence, voicemail, analysis settings, schedule,
the key that placed it).

Revision ID: 0011_developer_platform
Revises: 0010_test_call_viewer
Create Date: 2026-11-24 15:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

UTCDateTime = callwright.kit.db.UTCDateTime

revision: str = "0011_developer_platform"
down_revision: str | None = "0010_test_call_viewer"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agents",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("prompt", sa.Text, nullable=False),
        sa.Column("first_sentence", sa.Text, nullable=True),
        sa.Column("voice", sa.String(64), nullable=False),
        sa.Column("temperature", sa.Float, nullable=False),
        sa.Column("interruption_threshold", sa.Integer, nullable=False),
        sa.Column("background_audio", sa.String(16), nullable=False),
        sa.Column("max_duration", sa.Integer, nullable=False),
        sa.Column("wait_for_greeting", sa.Boolean, nullable=False),
        sa.Column("voicemail_action", sa.String(16), nullable=False),
        sa.Column("voicemail_message", sa.Text, nullable=True),
        sa.Column("summary_prompt", sa.Text, nullable=True),
        sa.Column("dispositions", sa.JSON, nullable=True),
        sa.Column("analysis_schema", sa.JSON, nullable=True),
        sa.Column("webhook_url", sa.String(2048), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_agents_user_created", "agents", ["user_id", "created_at"])

    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_keys_user_id", "api_keys", ["user_id"])

    op.create_table(
        "webhook_endpoints",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("enabled", sa.Boolean, nullable=False),
        sa.Column("disabled_reason", sa.String(200), nullable=True),
        sa.Column("failing_since", UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_webhook_endpoints_user_id", "webhook_endpoints", ["user_id"])

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("webhook_secret", sa.String(100), nullable=True))

    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.add_column(sa.Column("agent_id", sa.String(36), nullable=True))
        batch_op.add_column(sa.Column("variables", sa.JSON, nullable=True))
        batch_op.add_column(sa.Column("metadata", sa.JSON, nullable=True))
        batch_op.add_column(sa.Column("webhook_url", sa.String(2048), nullable=True))
        batch_op.add_column(sa.Column("first_sentence", sa.Text, nullable=True))
        batch_op.add_column(
            sa.Column(
                "voicemail_action",
                sa.String(16),
                nullable=False,
                server_default="leave_message",
            )
        )
        batch_op.add_column(sa.Column("voicemail_message", sa.Text, nullable=True))
        batch_op.add_column(sa.Column("summary_prompt", sa.Text, nullable=True))
        batch_op.add_column(sa.Column("dispositions", sa.JSON, nullable=True))
        batch_op.add_column(sa.Column("analysis_schema", sa.JSON, nullable=True))
        batch_op.add_column(sa.Column("start_at", UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("api_key_id", sa.Integer, nullable=True))
        batch_op.create_foreign_key(
            "fk_calls_agent_id_agents", "agents", ["agent_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_foreign_key(
            "fk_calls_api_key_id_api_keys", "api_keys", ["api_key_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index(
        "ix_calls_scheduled",
        "calls",
        ["start_at"],
        sqlite_where=sa.text("start_at IS NOT NULL AND status = 'queued'"),
        postgresql_where=sa.text("start_at IS NOT NULL AND status = 'queued'"),
    )

    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "endpoint_id",
            sa.Integer,
            sa.ForeignKey("webhook_endpoints.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column(
            "call_id", sa.String(36), sa.ForeignKey("calls.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("event", sa.String(40), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("lease_until", UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_status_code", sa.Integer, nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("finished_at", UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index(
        "ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"]
    )
    op.create_index(
        "ix_webhook_deliveries_user_created", "webhook_deliveries", ["user_id", "created_at"]
    )
    op.create_index("ix_webhook_deliveries_endpoint_id", "webhook_deliveries", ["endpoint_id"])
    op.create_index("ix_webhook_deliveries_call_id", "webhook_deliveries", ["call_id"])

    op.create_table(
        "webhook_attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "delivery_id",
            sa.String(40),
            sa.ForeignKey("webhook_deliveries.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("attempted_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("response_ms", sa.Integer, nullable=False),
        sa.Column("response_excerpt", sa.Text, nullable=False),
        sa.Column("error", sa.Text, nullable=True),
    )
    op.create_index("ix_webhook_attempts_delivery_id", "webhook_attempts", ["delivery_id"])


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_table("webhook_deliveries")
    op.drop_index("ix_calls_scheduled", table_name="calls")
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_constraint("fk_calls_api_key_id_api_keys", type_="foreignkey")
        batch_op.drop_constraint("fk_calls_agent_id_agents", type_="foreignkey")
        for column in (
            "api_key_id",
            "start_at",
            "analysis_schema",
            "dispositions",
            "summary_prompt",
            "voicemail_message",
            "voicemail_action",
            "first_sentence",
            "webhook_url",
            "metadata",
            "variables",
            "agent_id",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("webhook_secret")
    op.drop_table("webhook_endpoints")
    op.drop_table("api_keys")
    op.drop_table("agents")
