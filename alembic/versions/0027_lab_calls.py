"""The agent lab's calls (issue 32, docs/lab.md): a lab call's simulated callee, the lab's
`Callee` as JSON (`calls.lab_callee`), which the sandbox network plays instead of the persona
its number picks. Null for every other call.

Revision ID: 0027_lab_calls
Revises: 0026_action_leftovers
Create Date: 2026-11-28 00:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027_lab_calls"
down_revision: str | None = "0026_action_leftovers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.add_column(sa.Column("lab_callee", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("lab_callee")
