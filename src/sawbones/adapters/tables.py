"""The tables of the current schema (Alembic head), as SQLAlchemy Core objects.

Migrations in migrations/versions/ create and change them; this module only describes the result
for the queries of store.py. Timestamps are seconds since the epoch (float); event data and
snapshot states are JSON text, kept byte for byte as written.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, MetaData, PrimaryKeyConstraint, Table, Text

metadata = MetaData()

campaigns = Table(
    "campaigns", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

events = Table(
    "events", metadata,
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("type", Text, nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("content_version", Text, nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("checksum", Text),  # records.checksum of the other columns (revision 0003); NULL only if damaged
    PrimaryKeyConstraint("campaign_id", "version"),
    Index("ix_events_campaign_type", "campaign_id", "type", "version"),
    sqlite_with_rowid=False,
)

meta = Table(
    "meta", metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

snapshots = Table(
    "snapshots", metadata,
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("code_version", Text, nullable=False),
    Column("content_version", Text, nullable=False),
    Column("action", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("campaign_id", "version", "code_version"),
)
