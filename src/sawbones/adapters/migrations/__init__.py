"""Alembic migrations of the sawbones database, run programmatically when a store opens (migrate.py).

Developers can also use the alembic command with this directory as script_location and
`-x url=sqlite:///path/to.db` (see env.py). Revision ids are sequence numbers: 0001, 0002, ...
"""
