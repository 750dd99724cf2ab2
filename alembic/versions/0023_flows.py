"""Conversation flows: `flows` (a user's flow and its draft graph) and `flow_versions` (each
published version's graph, numbered per flow) (docs/flows.md).

Revision ID: 0023_flows
Revises: 0022_agent_tools
Create Date: 2026-12-04 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from callwright.kit.db import UTCDateTime

revision: str = "0023_flows"
down_revision: str | None = "0022_agent_tools"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "flows",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("draft", sa.JSON(), nullable=False),
        sa.Column("published_version", sa.Integer(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_flows_user_updated", "flows", ["user_id", "updated_at"])
    op.create_table(
        "flow_versions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "flow_id", sa.String(36), sa.ForeignKey("flows.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("graph", sa.JSON(), nullable=False),
        sa.Column("published_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("flow_id", "version", name="uq_flow_versions_flow_version"),
    )


def downgrade() -> None:
    op.drop_table("flow_versions")
    op.drop_index("ix_flows_user_updated", table_name="flows")
    op.drop_table("flows")
