"""Do-not-call lists: a user's own and the global one (user_id null), one entry per number on
each, with an opt-out's call and transcript line as evidence.

Revision ID: 0012_do_not_call
Revises: 0011_developer_platform
Create Date: 2026-11-24 20:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

UTCDateTime = callwright.kit.db.UTCDateTime

revision: str = "0012_do_not_call"
down_revision: str | None = "0011_developer_platform"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "do_not_call",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("phone", sa.String(20), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column(
            "call_id", sa.String(36), sa.ForeignKey("calls.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("evidence", sa.Text, nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_index(
        "uq_do_not_call_user_phone",
        "do_not_call",
        ["user_id", "phone"],
        unique=True,
        postgresql_where=sa.text("user_id IS NOT NULL"),
        sqlite_where=sa.text("user_id IS NOT NULL"),
    )
    op.create_index(
        "uq_do_not_call_global_phone",
        "do_not_call",
        ["phone"],
        unique=True,
        postgresql_where=sa.text("user_id IS NULL"),
        sqlite_where=sa.text("user_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_do_not_call_global_phone", table_name="do_not_call")
    op.drop_index("uq_do_not_call_user_phone", table_name="do_not_call")
    op.drop_table("do_not_call")
