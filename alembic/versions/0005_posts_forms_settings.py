"""Blog posts, form submissions, site settings; an index for counting test calls.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import callwright.kit.db

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("admin_name", sa.String(length=255), nullable=True),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("post_date", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("fk_posts_author_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_posts")),
    )
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.create_index("ix_posts_post_date", ["post_date", "id"], unique=False)

    op.create_table(
        "form_submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("form_type", sa.String(length=16), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=True),
        sa.Column("website", sa.String(length=2048), nullable=True),
        sa.Column("use_case", sa.Text(), nullable=True),
        sa.Column("phone_calls_per_month", sa.Integer(), nullable=True),
        sa.Column("entity_type", sa.String(length=16), nullable=True),
        sa.Column("is_read", sa.Boolean(), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.Column("created_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_form_submissions")),
    )
    with op.batch_alter_table("form_submissions", schema=None) as batch_op:
        batch_op.create_index("ix_form_submissions_created", ["created_at", "id"], unique=False)

    op.create_table(
        "site_settings",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_by", sa.Integer(), nullable=True),
        sa.Column("updated_at", callwright.kit.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["updated_by"],
            ["users.id"],
            name=op.f("fk_site_settings_updated_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_site_settings")),
    )
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.create_index("ix_calls_kind_created", ["kind", "created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.drop_index("ix_calls_kind_created")
    op.drop_table("site_settings")
    with op.batch_alter_table("form_submissions", schema=None) as batch_op:
        batch_op.drop_index("ix_form_submissions_created")
    op.drop_table("form_submissions")
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_index("ix_posts_post_date")
    op.drop_table("posts")
