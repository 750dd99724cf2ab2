"""The analytics rollup table; call indexes for the admin call log and the active-user count.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21 14:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTERS = ("calls", "recorded", "connected", "duration_seconds", "cost_cents", "d0", "d1", "d2")
COUNTERS += ("d3", "d4", "d5", "d6")


def upgrade() -> None:
    op.create_table(
        "call_stats_hourly",
        sa.Column("hour", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in COUNTERS),
        sa.PrimaryKeyConstraint("hour", "status", name=op.f("pk_call_stats_hourly")),
    )
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_created_at")
        batch_op.create_index("ix_calls_created_user", ["created_at", "user_id"], unique=False)
        batch_op.create_index("ix_calls_to_number", ["to_number"], unique=False)
        batch_op.create_index("ix_calls_from_number", ["from_number"], unique=False)
        batch_op.create_index(
            "ix_calls_unfinalized",
            ["created_at"],
            unique=False,
            sqlite_where=sa.text("finalized_at IS NULL"),
            postgresql_where=sa.text("finalized_at IS NULL"),
        )


def downgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_unfinalized")
        batch_op.drop_index("ix_calls_from_number")
        batch_op.drop_index("ix_calls_to_number")
        batch_op.drop_index("ix_calls_created_user")
        batch_op.create_index("ix_calls_created_at", ["created_at"], unique=False)
    op.drop_table("call_stats_hourly")
