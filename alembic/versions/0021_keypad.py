"""The keypad: keys an agent's calls press when answered (`agents.precall_dtmf_sequence`), and
the same on each call (`calls.precall_dtmf_sequence`; Bland's name). Null: none.

Revision ID: 0021_keypad
Revises: 0020_batch_analyses
Create Date: 2026-11-27 17:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_keypad"
down_revision: str | None = "0020_batch_analyses"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("agents", "calls"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("precall_dtmf_sequence", sa.String(64), nullable=True))


def downgrade() -> None:
    for table in ("calls", "agents"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("precall_dtmf_sequence")
