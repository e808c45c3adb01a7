"""CLI: what the players know of their afflictions (reveal, diagnose); players' own dice go through `answer`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from .env import Env

from ...message import N_


def _emit_events(env: Env, state: Any, events: list[dict[str, Any]]) -> None:
    from ...presentation.sentences import sentence

    rules = env.service.rules_for(state)
    lines = [sentence(e, state, rules) for e in events]
    doc = {"events": events, "lines": lines}
    env.emit(doc, lambda con: [con.print(line, markup=False) for line in lines])


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command(help=N_("Show NAME's player the affliction (its name, DC, track and cure), or hide it (--hide)."))
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--hide", is_flag=True, help=N_("Hide it from the player instead (only its symptoms show)."))
    @pass_env
    def reveal(env, name, affliction, hide) -> None:
        from ...domain.afflictions.secrets import reveal as decide

        state, events = env.act(lambda ctx: decide(ctx, name, affliction, not hide))
        _emit_events(env, state, events)

    @cli.command(help=N_("A Heal (5e: Medicine) check against the affliction's DC; with the option "
                         "check_reveals_affliction a\n"
                         "success shows it to NAME's player."))
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--healer", help=N_("Who makes the Heal (5e: Medicine) check (default: NAME)."))
    @click.option("--check", "total", type=int, help=N_("The check's total, as rolled at the table."))
    @click.option("--d20", type=click.IntRange(1, 20), help=N_("The natural d20 (the healer's bonus is added)."))
    @pass_env
    def diagnose(env, name, affliction, healer, total, d20) -> None:
        from ...domain.afflictions.secrets import diagnose as decide

        state, events = env.act(lambda ctx: decide(ctx, name, affliction, healer, total, d20))
        _emit_events(env, state, events)
