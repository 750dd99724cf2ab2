"""Custom tools: `agent_tools` (an agent's HTTP tools, header values sealed), and a call's own
`tools` and `dynamic_data` (docs/actions.md, Tools).

Revision ID: 0022_agent_tools
Revises: 0021_keypad
Create Date: 2026-12-03 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from callwright.kit.db import UTCDateTime

revision: str = "0022_agent_tools"
down_revision: str | None = "0021_keypad"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_tools",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "agent_id",
            sa.String(36),
            sa.ForeignKey("agents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("parameters", sa.JSON(), nullable=False),
        sa.Column("method", sa.String(8), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column("timeout_seconds", sa.Float(), nullable=False),
        sa.Column("waiting_line", sa.Text(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("agent_id", "name", name="uq_agent_tools_agent_name"),
    )
    op.create_index("ix_agent_tools_agent_id", "agent_tools", ["agent_id"])
    with op.batch_alter_table("calls") as batch:
        batch.add_column(sa.Column("tools", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("dynamic_data", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("dynamic_data")
        batch.drop_column("tools")
    op.drop_index("ix_agent_tools_agent_id", table_name="agent_tools")
    op.drop_table("agent_tools")
