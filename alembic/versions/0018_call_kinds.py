"""Where a call came from: `calls.kind` says dashboard, api, batch, campaign, test or cli (it
said user, test or cli), and `campaigns.batch` marks the campaigns `/v1/batches` created.

The old rows are mapped: a user's call with a campaign is a campaign's (a batch's when its
campaign had settings of its own, which only `/v1/batches` gave), one placed with an API key
the API's, any other the dashboard's. A batch is recognised the same way.

Revision ID: 0018_call_kinds
Revises: 0017_user_timezone
Create Date: 2026-12-02 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_call_kinds"
down_revision: str | None = "0017_user_timezone"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_calls = sa.table(
    "calls",
    sa.column("kind", sa.String),
    sa.column("campaign_id", sa.String),
    sa.column("api_key_id", sa.Integer),
)
_campaigns = sa.table(
    "campaigns",
    sa.column("id", sa.String),
    sa.column("batch", sa.Boolean),
    sa.column("call_settings", sa.JSON),
)


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(
            sa.Column("batch", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    settings = _campaigns.c.call_settings
    # Settings of its own: neither SQL NULL nor JSON null (None, as the ORM may write it).
    own = sa.and_(settings.is_not(None), sa.cast(settings, sa.Text) != "null")
    op.execute(_campaigns.update().where(own).values(batch=True))
    batches = sa.select(_campaigns.c.id).where(_campaigns.c.batch == sa.true())
    for kind, where in (
        ("batch", _calls.c.campaign_id.in_(batches)),
        ("campaign", _calls.c.campaign_id.is_not(None)),
        ("api", _calls.c.api_key_id.is_not(None)),
        ("dashboard", sa.true()),
    ):
        op.execute(_calls.update().where(_calls.c.kind == "user", where).values(kind=kind))


def downgrade() -> None:
    op.execute(_calls.update().where(_calls.c.kind.not_in(("test", "cli"))).values(kind="user"))
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("batch")
