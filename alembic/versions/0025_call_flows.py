"""Calls on conversation flows (issue 30): a call's flow, its pinned version and graph, its
start node and `pathway_logs`; an agent's flow.

Revision ID: 0025_call_flows
Revises: 0024_flows
Create Date: 2026-12-04 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025_call_flows"
down_revision: str | None = "0024_flows"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.add_column(sa.Column("flow_id", sa.String(36), nullable=True))
        batch.add_column(sa.Column("flow_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("start_node_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("flow_graph", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("pathway_logs", sa.JSON(), nullable=True))
    with op.batch_alter_table("agents") as batch:
        batch.add_column(sa.Column("flow_id", sa.String(36), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("flow_id")
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("pathway_logs")
        batch.drop_column("flow_graph")
        batch.drop_column("start_node_id")
        batch.drop_column("flow_version")
        batch.drop_column("flow_id")
