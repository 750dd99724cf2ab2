"""The public test call's visitor secret: its hash is kept on the call until the call is
finalised, so the browser that placed the call can watch its progress without an account.

Revision ID: 0010_test_call_viewer
Revises: 0009
Create Date: 2026-11-23 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_test_call_viewer"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.add_column(sa.Column("viewer_token_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_column("viewer_token_hash")
