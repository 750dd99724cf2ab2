"""The agent lab, second part (docs/lab.md): `agent_versions` (every saved change to an agent
is a version; a run is pinned to one), suites of a flow on its own (`lab_scenarios.flow_id`,
`agent_id` optional on scenarios and runs), named suites (`lab_scenarios.suite`) and
`lab_runs.agent_version`.

Revision ID: 0029_lab_versions
Revises: 0028_lab
Create Date: 2026-11-28 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from callwright.kit.db import UTCDateTime

revision: str = "0029_lab_versions"
down_revision: str | None = "0028_lab"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_versions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "agent_id",
            sa.String(36),
            sa.ForeignKey("agents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("agent_id", "version", name="uq_agent_versions"),
    )
    with op.batch_alter_table("lab_scenarios") as batch:
        batch.alter_column("agent_id", existing_type=sa.String(36), nullable=True)
        batch.add_column(
            sa.Column(
                "flow_id",
                sa.String(36),
                sa.ForeignKey("flows.id", name="fk_lab_scenarios_flow", ondelete="CASCADE"),
                nullable=True,
            )
        )
        batch.add_column(sa.Column("suite", sa.String(60), nullable=False, server_default="main"))
        batch.create_index("ix_lab_scenarios_flow", ["flow_id", "created_at"])
    with op.batch_alter_table("lab_runs") as batch:
        batch.alter_column("agent_id", existing_type=sa.String(36), nullable=True)
        batch.add_column(sa.Column("agent_version", sa.Integer(), nullable=True))
        batch.create_index("ix_lab_runs_flow", ["flow_id", "created_at"])


def downgrade() -> None:
    # A flow's own suite and runs have no agent: they go (the tables before kept none).
    op.execute("DELETE FROM lab_runs WHERE agent_id IS NULL")
    op.execute("DELETE FROM lab_scenarios WHERE agent_id IS NULL")
    with op.batch_alter_table("lab_runs") as batch:
        batch.drop_index("ix_lab_runs_flow")
        batch.drop_column("agent_version")
        batch.alter_column("agent_id", existing_type=sa.String(36), nullable=False)
    with op.batch_alter_table("lab_scenarios") as batch:
        batch.drop_index("ix_lab_scenarios_flow")
        batch.drop_constraint("fk_lab_scenarios_flow", type_="foreignkey")
        batch.drop_column("flow_id")
        batch.drop_column("suite")
        batch.alter_column("agent_id", existing_type=sa.String(36), nullable=False)
    op.drop_table("agent_versions")
