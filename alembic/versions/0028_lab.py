"""The agent lab: `lab_scenarios` (an agent's suite: a callee as data and its expectations),
`lab_runs` (a suite's run, pinned to the agent's settings and flow version) and `lab_results`
(each scenario's call and checks) (docs/lab.md).

Revision ID: 0028_lab
Revises: 0027_lab_calls
Create Date: 2026-11-28 01:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from callwright.kit.db import UTCDateTime

revision: str = "0028_lab"
down_revision: str | None = "0027_lab_calls"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _owner() -> sa.Column[int]:
    return sa.Column(
        "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )


def _agent() -> sa.Column[str]:
    return sa.Column(
        "agent_id", sa.String(36), sa.ForeignKey("agents.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "lab_scenarios",
        sa.Column("id", sa.String(36), primary_key=True),
        _owner(),
        _agent(),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("callee", sa.JSON(), nullable=False),
        sa.Column("expect", sa.JSON(), nullable=False),
        sa.Column("variables", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lab_scenarios_agent", "lab_scenarios", ["agent_id", "created_at"])
    op.create_table(
        "lab_runs",
        sa.Column("id", sa.String(36), primary_key=True),
        _owner(),
        _agent(),
        sa.Column("agent_settings", sa.JSON(), nullable=False),
        sa.Column("flow_id", sa.String(36), nullable=True),
        sa.Column("flow_version", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("finished_at", UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_lab_runs_agent", "lab_runs", ["agent_id", "created_at"])
    op.create_index("ix_lab_runs_user", "lab_runs", ["user_id", "created_at"])
    op.create_table(
        "lab_results",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "run_id",
            sa.String(36),
            sa.ForeignKey("lab_runs.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("scenario", sa.JSON(), nullable=False),
        sa.Column("scenario_id", sa.String(36), nullable=True),
        sa.Column("call_id", sa.String(36), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("checks", sa.JSON(), nullable=False),
        sa.Column("error", sa.String(500), nullable=True),
        sa.Column("started_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_lab_results_run", "lab_results", ["run_id", "position"])


def downgrade() -> None:
    op.drop_index("ix_lab_results_run", table_name="lab_results")
    op.drop_table("lab_results")
    op.drop_index("ix_lab_runs_user", table_name="lab_runs")
    op.drop_index("ix_lab_runs_agent", table_name="lab_runs")
    op.drop_table("lab_runs")
    op.drop_index("ix_lab_scenarios_agent", table_name="lab_scenarios")
    op.drop_table("lab_scenarios")
