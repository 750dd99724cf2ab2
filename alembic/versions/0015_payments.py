"""Card top-ups through Stripe: the PaymentIntents created, the PaymentIntent a ledger entry
moved (credited once, refunded once), and a user's saved card and auto-recharge.

Revision ID: 0015_payments
Revises: 0014_campaigns
Create Date: 2026-11-25 16:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

UTCDateTime = callwright.kit.db.UTCDateTime

revision: str = "0015_payments"
down_revision: str | None = "0014_campaigns"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "top_ups",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("payment_intent_id", sa.String(255), nullable=False, unique=True),
        sa.Column("amount_cents", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("source", sa.String(8), nullable=False, server_default="card"),
        sa.Column("card", sa.String(64), nullable=True),
        sa.Column("failure", sa.String(255), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("credited_at", UTCDateTime(), nullable=True),
        sa.Column("refunded_at", UTCDateTime(), nullable=True),
        sa.Column(
            "refunded_by",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="SET NULL"),
            nullable=True,
        ),
    )
    op.create_index("ix_top_ups_user_created", "top_ups", ["user_id", "created_at"])
    op.create_table(
        "billing_profiles",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("stripe_customer_id", sa.String(255), nullable=True),
        sa.Column("payment_method_id", sa.String(255), nullable=True),
        sa.Column("card", sa.String(64), nullable=True),
        sa.Column("auto_recharge", sa.Boolean, nullable=False),
        sa.Column("threshold_cents", sa.Integer, nullable=False),
        sa.Column("amount_cents", sa.Integer, nullable=False),
        sa.Column("last_recharge_at", UTCDateTime(), nullable=True),
        sa.Column("failure", sa.String(255), nullable=True),
    )
    with op.batch_alter_table("ledger_entries") as batch:
        batch.add_column(sa.Column("payment_intent_id", sa.String(255), nullable=True))
        batch.create_unique_constraint(
            "uq_ledger_entries_payment_kind", ["payment_intent_id", "kind"]
        )


def downgrade() -> None:
    with op.batch_alter_table("ledger_entries") as batch:
        batch.drop_constraint("uq_ledger_entries_payment_kind", type_="unique")
        batch.drop_column("payment_intent_id")
    op.drop_table("billing_profiles")
    op.drop_index("ix_top_ups_user_created", table_name="top_ups")
    op.drop_table("top_ups")
