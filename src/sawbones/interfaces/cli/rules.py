"""CLI: browse the rule tables and roll on them."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ...content.rules import Rules
    from .env import Env

from ...message import N_
from ...presentation.tables import index_doc, render_index, render_table, table_doc


def _rules_and_options(env: Env) -> tuple[Rules, dict[str, Any]]:
    """The current campaign's rules and options, or the defaults when there is no campaign yet."""
    from ...domain.engine.options import effective_options
    from ...errors import NoDatabase, NotFound

    try:
        name = env.campaign or env.service.store.get_meta("current_campaign")
    except NoDatabase:  # no database yet: the defaults, and no empty database file made for a read
        from ...content.loader import load_rules

        rules = load_rules(env.content)
        return rules, effective_options(rules, {})
    state = None
    if name:
        try:
            state = env.service.load(name).state
        except NotFound:
            if env.campaign:  # a campaign named on purpose must exist; a stale current one falls back
                raise
    rules = env.service.rules_for(state)
    return rules, effective_options(rules, state.option_overrides() if state else {})


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command(help=N_("Browse the rule tables: injuries by damage type, severity, body parts, tracks, diseases, "
                         "poisons.\n"
                         "\n"
                         "ID is one the index lists; KIND:ID picks one kind where an id has two (track:leprosy is the\n"
                         "track, leprosy the disease with its track)."))
    @click.argument("table_id", required=False, metavar="[ID]")
    @pass_env
    def tables(env, table_id) -> None:
        from ...content.loader import load_rules

        rules = load_rules(env.content)
        if table_id is None:
            doc = index_doc(rules)
            env.emit(doc, partial(render_index, doc))
        else:
            doc = table_doc(rules, table_id)
            env.emit(doc, partial(render_table, doc))

    @cli.command(help=N_("Roll one injury on a damage type's table (e.g. `roll fire --d20 12`)."))
    @click.argument("table_id", metavar="TABLE")
    @click.option("--d20", type=int, help=N_("The d20 the player rolled (default: rolled for you)."))
    @click.option("--bands", type=click.Choice(["standard", "lenient"]), help=N_("Severity bands (default: the "
                                                                                 "campaign's)."))
    @pass_env
    def roll(env, table_id, d20, bands) -> None:
        from ...presentation.views import roll_doc

        rules, options = _rules_and_options(env)
        doc = roll_doc(rules, options, table_id, d20, bands)
        face = doc["d20"]

        def render(con):
            from rich.markup import escape

            con.print(f"d20 = {face} → [bold]{escape(doc['name'])}[/] ({doc['severity_name']})")
            con.print(escape(doc["text"]))

        env.emit(doc, render)
