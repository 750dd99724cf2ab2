"""A user's calls index carries the id, so a page of their call log is read from the index.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-21 09:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_user_created")
        batch_op.create_index(
            "ix_calls_user_created", ["user_id", "created_at", "id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_user_created")
        batch_op.create_index("ix_calls_user_created", ["user_id", "created_at"], unique=False)
