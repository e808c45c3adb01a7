"""State snapshots (a cache the log can always rebuild) and an index for undo markers.

meta.schema_version becomes 2, so that a sawbones from before Alembic refuses this database
("newer than this sawbones") instead of writing to it.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("code_version", sa.Text, nullable=False),
        sa.Column("content_version", sa.Text, nullable=False),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "version", "code_version"),
    )
    op.create_index("ix_events_campaign_type", "events", ["campaign_id", "type", "version"])
    meta = sa.table("meta", sa.column("key", sa.Text), sa.column("value", sa.Text))
    op.execute(meta.delete().where(meta.c.key == "schema_version"))
    op.bulk_insert(meta, [{"key": "schema_version", "value": "2"}])


def downgrade() -> None:
    op.drop_index("ix_events_campaign_type", "events")
    op.drop_table("snapshots")
    meta = sa.table("meta", sa.column("key", sa.Text), sa.column("value", sa.Text))
    op.execute(meta.update().where(meta.c.key == "schema_version").values(value="1"))
