"""A batch's analysis (`POST /v1/batches/{id}/analyze`): each ended call's answers to the
batch's questions, with the transcript line (or fact) each comes from.

Revision ID: 0020_batch_analyses
Revises: 0019_transfers
Create Date: 2026-11-27 17:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

UTCDateTime = callwright.kit.db.UTCDateTime

revision: str = "0020_batch_analyses"
down_revision: str | None = "0019_transfers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "batch_analyses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "campaign_id",
            sa.String(36),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "call_id", sa.String(36), sa.ForeignKey("calls.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("goal", sa.Text, nullable=False),
        sa.Column("questions", sa.JSON, nullable=False),
        sa.Column("answers", sa.JSON, nullable=False),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_batch_analyses_campaign", "batch_analyses", ["campaign_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_batch_analyses_campaign", table_name="batch_analyses")
    op.drop_table("batch_analyses")
