"""Transfers to a person: an agent's and a call's transfer number or departments and mode, and
what a call's transfer did (Bland's `transferred_to`, `transferred_at`, `pre_transfer_duration`,
`post_transfer_duration`), with the listening stream's single-use secret.

Revision ID: 0019_transfers
Revises: 0018_call_kinds
Create Date: 2026-12-03 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from callwright.kit.db import UTCDateTime

revision: str = "0019_transfers"
down_revision: str | None = "0018_call_kinds"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _settings() -> list[sa.Column]:
    return [
        sa.Column("transfer_number", sa.String(20), nullable=True),
        sa.Column("transfer_list", sa.JSON(), nullable=True),
        sa.Column("transfer_mode", sa.String(8), nullable=False, server_default="cold"),
    ]


_CALL_ONLY = [
    ("transferred_to", sa.String(20)),
    ("transferred_at", UTCDateTime(timezone=True)),
    ("transfer_status", sa.String(16)),
    ("transfer_summary", sa.Text()),
    ("pre_transfer_duration", sa.Integer()),
    ("post_transfer_duration", sa.Integer()),
    ("listen_token_hash", sa.String(64)),
]


def upgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        for column in _settings():
            batch.add_column(column)
    with op.batch_alter_table("calls") as batch:
        for column in _settings():
            batch.add_column(column)
        for name, type_ in _CALL_ONLY:
            batch.add_column(sa.Column(name, type_, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("calls") as batch:
        for name, _ in reversed(_CALL_ONLY):
            batch.drop_column(name)
        for column in reversed(_settings()):
            batch.drop_column(column.name)
    with op.batch_alter_table("agents") as batch:
        for column in reversed(_settings()):
            batch.drop_column(column.name)
