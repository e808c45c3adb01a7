"""CLI: damage and lingering injuries (5e) — damage, injure, treat, rest, heal, stabilize, turn, dash, action, prone,
stand."""

from __future__ import annotations

from functools import partial

import click

from ...message import N_, msg
from ...presentation.locale import _
from .parsing import said_metavar


def _damage_parts(args: tuple[str, ...]) -> list[tuple[int, str]]:
    if len(args) % 2:
        raise click.BadParameter(_("give AMOUNT TYPE pairs, e.g. `7 fire` or `5 slashing 3 fire`"), param_hint=said_metavar("DAMAGE"))
    parts = []
    for amount, kind in zip(args[::2], args[1::2]):
        try:
            parts.append((int(amount), kind.lower()))
        except ValueError:
            raise click.BadParameter(_("{amount} is not a whole number of hit points", amount=repr(amount)),
                                     param_hint=said_metavar("AMOUNT")) from None
    return parts


def _act(env, decide):
    """`env.act`, and the injuries of the state it decided on: the sentences name those it takes away."""
    from ...presentation.sentence_parts import injury_names

    known: dict = {}

    def decision(ctx):
        known.update(injury_names((), ctx.state))
        return decide(ctx)

    state, events = env.act(decision)
    return state, (events, known)


def _report(env, state, told) -> None:
    from ...presentation import log_view, views

    events, known = told
    rules = env.service.rules_for(state)
    doc = {"events": events, "characters": [views.character_doc(c, state, rules) for c in state.characters
                                            if any(e["data"].get("character") == c.id for e in events)]}
    if not any(e["type"] == "save_pending" for e in events):
        env.emit(doc, partial(log_view.render_events, events, state, rules, known=known))
        return
    from .afflictions import pending_doc, render_pending  # the action waits for a player's die: say which, and how

    doc["pending"] = pending_doc(state, rules)

    def render(con) -> None:
        log_view.render_events(events, state, rules, con, known)
        render_pending(doc["pending"], con)

    env.emit(doc, render)


def register(cli: click.Group) -> None:
    from .env import pass_env

    d20_option = click.option("--d20", type=click.IntRange(1, 20), help=N_("The injury d20 the player rolled."))
    site_option = click.option("--site", type=click.Choice(["hand", "foot"]), help=N_("Hand or foot, for injuries "
                                                                                      "that strike one."))

    @cli.command(context_settings={"ignore_unknown_options": True}, help=N_("Apply damage: `damage NAME AMOUNT TYPE "
                                                                            "[AMOUNT TYPE...]`; at 0 HP a lingering "
                                                                            "injury follows."))
    @click.argument("name")
    @click.argument("damage", nargs=-1, required=True)
    @click.option("--d20", type=click.IntRange(1, 20),
                  help=N_("The injury d20 the player rolled, if the hit drops them to 0 HP."))
    @site_option
    @click.option("--type", "injury_type", help=N_("Injury table when the hit's damage types tie."))
    @pass_env
    def damage(env, name, damage, d20, site, injury_type) -> None:
        from ...domain.engine.damage import damage as decide

        parts = _damage_parts(damage)
        state, told = _act(env, lambda ctx: decide(ctx, name, parts, d20, site, injury_type))
        _report(env, state, told)

    @cli.command(help=N_("Give a lingering injury directly (GM's call, or a critical failure)."))
    @click.argument("name")
    @click.option("--type", "table", required=True, help=N_("Damage type whose table to roll on."))
    @d20_option
    @site_option
    @click.option("--critical-failure", is_flag=True, help=N_("The injury is the consequence of a critical failure."))
    @pass_env
    def injure(env, name, table, d20, site, critical_failure) -> None:
        from ...domain.injuries.rules import injure as decide
        from ...errors import RuleViolation

        def decision(ctx):
            if critical_failure and not ctx.options.get("trigger_on_critical_failure"):
                raise RuleViolation(msg("injuries on critical failures are off (campaign set trigger_on_critical_failure true)"))
            return decide(ctx, name, table.lower(), d20, site, "critical failure" if critical_failure else "GM's call")

        state, told = _act(env, decision)
        _report(env, state, told)

    @cli.command(help=N_("Treat an injury: spends its time on the clock, then the check against its DC (+2 DC on "
                         "failure)."))
    @click.argument("name")
    @click.argument("injury")
    @click.option("--check", type=click.IntRange(-20, 60), help=N_("The treatment check total (default: rolled for "
                                                                   "the healer)."))
    @click.option("--healer", help=N_("Who treats (needs Medicine and an herbalism kit on their sheet)."))
    @click.option("--rolls", type=click.Choice(["gm", "players"]), help=N_("Who rolls the healer's check when no "
                                                                           "--check "
                     "is given: the server (gm) or the healer's player (the treatment waits for their die)."))
    @pass_env
    def treat(env, name, injury, check, healer, rolls) -> None:
        from ...domain.injuries.care import treat as decide

        state, told = _act(env, lambda ctx: decide(ctx, name, injury, check, healer, rolls))
        _report(env, state, told)

    @cli.command(help=N_("Rest: --long heals minor and moderate injuries; --short spends Hit Dice, one minor injury "
                         "each."))
    @click.argument("names", nargs=-1)
    @click.option("--long", "long_", is_flag=True, help=N_("A long rest (8 hours) for these characters (default: "
                                                           "all)."))
    @click.option("--short", "short_", is_flag=True, help=N_("A short rest (1 hour) for one character."))
    @click.option("--hit-dice", type=click.IntRange(0, 40), default=0, help=N_("Hit Dice to spend on a short rest."))
    @click.option("--injury", "injuries", multiple=True, help=N_("Minor injury to heal with a Hit Die (repeatable)."))
    @click.option("--roll", "rolls", multiple=True, type=int, help=N_("A Hit Die the player rolled (repeatable)."))
    @pass_env
    def rest(env, names, long_, short_, hit_dice, injuries, rolls) -> None:
        from ...domain.injuries.care import long_rest, short_rest

        if long_ and short_:
            raise click.UsageError(_("a rest is long or short, not both: give --long or --short"))
        if not long_ and not short_:
            raise click.UsageError(_("say --long or --short"))
        if short_:
            if len(names) != 1:
                raise click.UsageError(_("a short rest spends one character's Hit Dice: give one {name}",
                                         name=said_metavar("NAME")))
            decision = lambda ctx: short_rest(ctx, names[0], hit_dice, list(injuries), list(rolls))  # noqa: E731
        else:
            decision = lambda ctx: long_rest(ctx, list(names))  # noqa: E731
        state, told = _act(env, decision)
        _report(env, state, told)

    @cli.command(help=N_("Magical healing: one injury per casting, if the spell's tier reaches its severity."))
    @click.argument("name")
    @click.option("--spell", required=True, help=N_("The spell or effect (cure_wounds, lesser_restoration, heal, "
                                                    "regenerate...)."))
    @click.option("--injury", help=N_("Which injury (default: the most severe it can heal)."))
    @click.option("--hp", type=click.IntRange(0, 10000), help=N_("Hit points it also restores."))
    @pass_env
    def heal(env, name, spell, injury, hp) -> None:
        from ...domain.injuries.care import heal as decide

        state, told = _act(env, lambda ctx: decide(ctx, name, spell, injury, hp))
        _report(env, state, told)

    @cli.command(help=N_("A dying character at 0 HP becomes stable."))
    @click.argument("name")
    @pass_env
    def stabilize(env, name) -> None:
        from ...domain.injuries.care import stabilize as decide

        state, told = _act(env, lambda ctx: decide(ctx, name))
        _report(env, state, told)

    @cli.command("combat-end", help=N_("The combat is over: conditions lasting until its end stop (option "
                                       "temporary_condition_duration)."))
    @pass_env
    def combat_end(env) -> None:
        from ...domain.engine.conditions import end_combat

        state, told = _act(env, end_combat)
        _report(env, state, told)

    for verb, prone, help_text in (("prone", True, N_("A character falls prone (à terre): it is no longer standing.")),
                                   ("stand", False, N_("A prone character stands up (refused when its state forbids "
                                                       "it: Bedridden, unconscious...)."))):
        def make_posture(prone=prone):
            @click.argument("name")
            @pass_env
            def command(env, name) -> None:
                from ...domain.engine.posture import set_prone

                state, told = _act(env, lambda ctx: set_prone(ctx, name, prone))
                _report(env, state, told)

            return command

        cli.command(name=verb, help=help_text)(make_posture())

    for moment, help_text in (("turn", N_("A character's turn: per-turn saves and losses (Nausea, Puncture Wound...); "
                                          "a dying pf1e character's turn is its check to stabilize "
                                          "(its total: the first --save).")),
                              ("dash", N_("A character takes the Dash action (Leg Injury save, lost foot...).")),
                              ("action", N_("A character attempts an action in combat (Broken Ribs save...)."))):
        def make(moment=moment):
            @click.argument("name")
            @click.option("--save", "saves", multiple=True, type=int,
                          help=N_("A save total rolled at the table (in order)."))
            @click.option("--rolls", type=click.Choice(["gm", "players"]), help=N_("Who rolls the saves with no --save "
                             "total: the server (gm) or the character's player (the moment waits for each of their dice "
                             "in turn). Default: the option who_rolls."))
            @pass_env
            def command(env, name, saves, rolls, prone=None) -> None:
                from ...domain.engine.turns import run_moment

                state, told = _act(env, lambda ctx: run_moment(ctx, name, moment, list(saves), rolls, prone or None))
                _report(env, state, told)

            if moment == "turn":
                command = click.option("--prone", is_flag=True, default=False,
                                       help=N_("The character is prone as its turn begins."))(command)
            return command

        cli.command(name=moment, help=help_text)(make())
