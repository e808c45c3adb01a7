"""Alembic environment: the store passes its open connection (config.attributes["connection"]).

Stand-alone use: ``alembic -c /dev/null -x url=sqlite:///sawbones.db upgrade head`` with
``script_location`` pointing here (see migrate.py for the programmatic configuration).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite",
                      transaction_per_migration=False)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:  # pragma: no cover - developer command line
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(url)
    with engine.begin() as conn:
        _run(conn)
