"""The AI disclosure in a user's own words, on agents and calls (null: the default wording).

Revision ID: 0013_ai_disclosure
Revises: 0012_do_not_call
Create Date: 2026-11-25 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_ai_disclosure"
down_revision: str | None = "0012_do_not_call"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.add_column(sa.Column("disclosure", sa.Text, nullable=True))
    with op.batch_alter_table("calls") as batch:
        batch.add_column(sa.Column("disclosure", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        batch.drop_column("disclosure")
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("disclosure")
