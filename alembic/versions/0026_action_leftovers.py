"""In-call actions' leftovers: an action line's action on its event (`call_events.action`:
kind, name, status, arguments, result, latency, for the call's page), who ended a transferred
call (`calls.transfer_ended_by`: callee or person), and a `/v1` batch row's own action settings
(`campaign_contacts.call_settings`: transfer, keypad, tools, dynamic data over the batch's).

Revision ID: 0026_action_leftovers
Revises: 0025_call_flows
Create Date: 2026-11-27 20:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026_action_leftovers"
down_revision: str | None = "0025_call_flows"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("call_events") as batch:
        batch.add_column(sa.Column("action", sa.JSON(), nullable=True))
    with op.batch_alter_table("calls") as batch:
        batch.add_column(sa.Column("transfer_ended_by", sa.String(8), nullable=True))
    with op.batch_alter_table("campaign_contacts") as batch:
        batch.add_column(sa.Column("call_settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaign_contacts") as batch:
        batch.drop_column("call_settings")
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("transfer_ended_by")
    with op.batch_alter_table("call_events") as batch:
        batch.drop_column("action")
