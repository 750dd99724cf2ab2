"""Campaigns and their contacts; a call's campaign and contact.

Revision ID: 0014_campaigns
Revises: 0013_ai_disclosure
Create Date: 2026-11-25 13:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

UTCDateTime = callwright.kit.db.UTCDateTime

revision: str = "0014_campaigns"
down_revision: str | None = "0013_ai_disclosure"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "agent_id",
            sa.String(36),
            sa.ForeignKey("agents.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("call_settings", sa.JSON, nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("state_reason", sa.Text, nullable=True),
        sa.Column("start_at", UTCDateTime(), nullable=True),
        sa.Column("end_at", UTCDateTime(), nullable=True),
        sa.Column("days", sa.JSON, nullable=False),
        sa.Column("calling_window", sa.String(11), nullable=False),
        sa.Column("concurrency", sa.Integer, nullable=False),
        sa.Column("pace_per_minute", sa.Integer, nullable=False),
        sa.Column("retries", sa.JSON, nullable=False),
        sa.Column("spend_cap_cents", sa.Integer, nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=True),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_campaigns_user_created", "campaigns", ["user_id", "created_at"])
    op.create_index("ix_campaigns_state", "campaigns", ["state"])
    op.create_table(
        "campaign_contacts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "campaign_id",
            sa.String(36),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("file_row", sa.Integer, nullable=False),
        sa.Column("phone", sa.String(20), nullable=False),
        sa.Column("variables", sa.JSON, nullable=False),
        sa.Column("timezone", sa.String(200), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.String(32), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=True),
        sa.Column("last_call_id", sa.String(36), nullable=True),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index(
        "ix_campaign_contacts_due",
        "campaign_contacts",
        ["campaign_id", "status", "next_attempt_at"],
    )
    op.create_index("ix_campaign_contacts_row", "campaign_contacts", ["campaign_id", "file_row"])
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.add_column(sa.Column("campaign_id", sa.String(36), nullable=True))
        batch_op.add_column(sa.Column("campaign_contact_id", sa.Integer, nullable=True))
        batch_op.create_foreign_key(
            "fk_calls_campaign_id_campaigns",
            "campaigns",
            ["campaign_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            "fk_calls_campaign_contact_id_campaign_contacts",
            "campaign_contacts",
            ["campaign_contact_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index("ix_calls_campaign_id", ["campaign_id"])


def downgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_campaign_id")
        batch_op.drop_constraint(
            "fk_calls_campaign_contact_id_campaign_contacts", type_="foreignkey"
        )
        batch_op.drop_constraint("fk_calls_campaign_id_campaigns", type_="foreignkey")
        batch_op.drop_column("campaign_contact_id")
        batch_op.drop_column("campaign_id")
    op.drop_table("campaign_contacts")
    op.drop_table("campaigns")
