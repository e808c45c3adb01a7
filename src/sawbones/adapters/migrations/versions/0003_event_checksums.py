"""A checksum per event (records.checksum): damage is found where it is read, before the next append.

Existing events get theirs from their columns as stored. An older sawbones refuses this revision
("newer than this sawbones") instead of writing events without a checksum.

Revision ID: 0003_event_checksums
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

from sawbones.adapters.records import checksum

revision = "0003_event_checksums"
down_revision = "0002"
branch_labels = None
depends_on = None

_COLUMNS = ("version", "action", "type", "data", "schema_version", "content_version", "created_at")


def upgrade() -> None:
    op.add_column("events", sa.Column("checksum", sa.Text, nullable=True))
    events = sa.table("events", sa.column("campaign_id", sa.Integer), sa.column("checksum", sa.Text),
                      *(sa.column(c) for c in _COLUMNS))
    conn = op.get_bind()
    rows = conn.execute(sa.select(events.c.campaign_id, *(events.c[c] for c in _COLUMNS))).all()
    update = (sa.update(events).where(events.c.campaign_id == sa.bindparam("cid"),
                                      events.c.version == sa.bindparam("v"))
              .values(checksum=sa.bindparam("sum")))
    batch = [{"cid": r[0], "v": r[1], "sum": checksum(*r[1:])} for r in rows]
    for start in range(0, len(batch), 5000):
        conn.execute(update, batch[start:start + 5000])


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("checksum")
