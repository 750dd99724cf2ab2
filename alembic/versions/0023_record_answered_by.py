"""Bland's `record` and `answered_by_enabled` on each call (docs/api.md): `record` false keeps
no recording (true for every call before); `answered_by_enabled` false (a `/v1/calls` call
that did not ask for it, as Bland) shows `answered_by` as null on `/v1` and in the webhooks
(true for every call before; the dashboard always shows who answered).

Revision ID: 0023_record_answered_by
Revises: 0022_agent_tools
Create Date: 2026-12-04 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023_record_answered_by"
down_revision: str | None = "0022_agent_tools"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.add_column(
            sa.Column("record", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch.add_column(
            sa.Column("answered_by_enabled", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("answered_by_enabled")
        batch.drop_column("record")
