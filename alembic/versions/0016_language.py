"""The language a call is held in, on agents and calls (BCP-47; English for what exists).

Revision ID: 0016_language
Revises: 0014_campaigns
Create Date: 2026-11-25 16:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_language"
down_revision: str | None = "0015_payments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("agents", "calls"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("language", sa.String(16), nullable=False, server_default="en-US")
            )


def downgrade() -> None:
    for table in ("calls", "agents"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("language")
