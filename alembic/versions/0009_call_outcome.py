"""One vocabulary for how a call ended (`calls.end_reason`, see telephony.state.CallOutcome),
who answered (`calls.answered_by`), and the analytics rollup counted per outcome too.

Earlier end reasons map onto the outcomes; answered calls get answered_by "unknown" (or
"voicemail" where the stored analysis found one). The rollup is a cache of finalised hours: it is
emptied and its mark cleared, so the next refresh rolls every hour up again with the outcome.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTERS = ("calls", "recorded", "connected", "duration_seconds", "cost_cents", "d0", "d1", "d2")
COUNTERS += ("d3", "d4", "d5", "d6")
ROLLED_UNTIL = "stats_rolled_until"


def _rollup(*key: str) -> None:
    op.create_table(
        "call_stats_hourly",
        sa.Column("hour", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        *([sa.Column("outcome", sa.String(length=32), nullable=False)] if "outcome" in key else []),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in COUNTERS),
        sa.PrimaryKeyConstraint(*key, name=op.f("pk_call_stats_hourly")),
    )


def _forget_rollup() -> None:
    op.drop_table("call_stats_hourly")
    op.execute(sa.text("DELETE FROM site_settings WHERE key = :key").bindparams(key=ROLLED_UNTIL))


def upgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answered_by", sa.String(length=16), nullable=True))
    op.execute(
        """
        UPDATE calls SET end_reason = CASE
            WHEN end_reason IN ('stopped', 'cut-by-fault') THEN end_reason
            WHEN end_reason = 'carrier-error' THEN 'failed'
            WHEN end_reason = 'hangup-by-callee' THEN 'callee-hung-up'
            WHEN status = 'canceled' THEN 'stopped'
            WHEN status IN ('busy', 'no-answer', 'failed') THEN status
            WHEN status = 'completed' THEN 'completed'
            ELSE end_reason
        END
        WHERE end_reason IS NOT NULL
           OR status IN ('completed', 'busy', 'no-answer', 'failed', 'canceled')
        """
    )
    op.execute(
        """
        UPDATE calls SET answered_by = CASE
            WHEN analysis LIKE '%"outcome": "voicemail"%' THEN 'voicemail'
            ELSE 'unknown'
        END
        WHERE answered_at IS NOT NULL
        """
    )
    op.execute(
        "UPDATE calls SET end_reason = 'voicemail' "
        "WHERE answered_by = 'voicemail' AND end_reason IN ('completed', 'callee-hung-up')"
    )
    _forget_rollup()
    _rollup("hour", "status", "outcome")


def downgrade() -> None:
    _forget_rollup()
    _rollup("hour", "status")
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_column("answered_by")
