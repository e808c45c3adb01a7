"""CLI: campaigns, characters, clock, status, log, undo."""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from ...presentation import log_view, save_words, views
from ...message import N_
from ...presentation.locale import _, pgettext
from ...presentation.sheet_names import named_sheet


def escape(text: str) -> str:
    """Rich markup escaping, imported only when something is printed."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def _pairs(text: str | None, what: str) -> dict[str, int]:
    if text is None:
        return {}
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        try:
            out[key.strip().lower()] = int(value)
        except ValueError:
            sep = ""
        if not sep:
            raise click.BadParameter(_("expected NAME=NUMBER pairs like str=14,dex=12, got {part}", part=repr(part)),
                                     param_hint=what)
    return out


def _sheet(hp, max_hp, npc, abilities, saves, skills, prof, hit_die, hit_dice, body, notes, name=None,
           external=(), speed=None) -> dict[str, Any]:
    sheet: dict[str, Any] = {"external": list(external)} if external else {}
    if speed is not None:
        sheet["speed"] = speed
    if max_hp is not None:
        sheet["max_hp"] = max_hp
    if hp is not None:
        sheet["hp"] = hp
    if npc is not None:
        sheet["npc"] = npc
    for key, value, what in (("abilities", abilities, "--abilities"), ("saves", saves, "--saves"),
                             ("skills", skills, "--skills"), ("body", body, "--body")):
        if value is not None:
            sheet[key] = _pairs(value, what)
    if prof is not None:
        sheet["proficiencies"] = [p.strip() for p in prof.split(",") if p.strip()]
    if hit_die is not None:
        try:
            sheet["hit_die"] = int(hit_die.lower().lstrip("d"))
        except ValueError:
            raise click.BadParameter(_("expected a die like d8, got {hit_die}", hit_die=repr(hit_die)),
                                     param_hint="--hit-die") from None
    if hit_dice is not None:
        sheet["hit_dice"] = hit_dice
    if notes is not None:
        sheet["notes"] = notes
    if name is not None:
        sheet["name"] = name
    return sheet


def _sheet_options(fn):
    for decorator in reversed([
        click.option("--max-hp", type=click.IntRange(1, 10000), help=N_("Hit point maximum (a new character: --hp, "
                                                                        "else 10).")),
        click.option("--hp", type=click.IntRange(-10000, 10000), help=N_("Current hit points (default: the maximum).")),
        click.option("--npc/--pc", default=None, help=N_("A non-player character (injuries only with apply_to_npcs).")),
        click.option("--abilities", metavar="A=N,…", help=N_("Ability scores, e.g. str=14,dex=12,con=13 (or their names in either language: force=16).")),
        click.option("--saves", metavar="S=N,…", help=N_("Save bonuses, e.g. con=5,dex=2 or fortitude=6,reflex=3.")),
        click.option("--skills", metavar="S=N,…", help=N_("Skill bonuses, e.g. medicine=5,perception=3 (ids or names in either language: médecine=5).")),
        click.option("--prof", metavar="LIST", help=N_("Proficiencies and tools, e.g. medicine,herbalism_kit.")),
        click.option("--hit-die", metavar="dN", help=N_("Hit die size, e.g. d8.")),
        click.option("--hit-dice", type=click.IntRange(0, 40), help=N_("Hit Dice left.")),
        click.option("--speed", type=click.IntRange(0, 1000), help=N_("Base walking speed in feet, e.g. 30.")),
        click.option("--body", metavar="P=N,…", help=N_("Body counts, e.g. eyes=2,hands=2,feet=2,ears=2.")),
        click.option("--notes", help=N_("Free notes about the character.")),
        click.option("--external", multiple=True, metavar="SYSTEM:ID",
                     help=N_("A reference elsewhere, e.g. foundry:Actor.abc or discord:1234 (repeatable).")),
    ]):
        fn = decorator(fn)
    return fn


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.group(help=N_("Create, choose and configure campaigns."))
    def campaign() -> None:
        pass

    @campaign.command("create", help=N_("Create a campaign and make it the current one."))
    @click.argument("name")
    @click.option("--system", type=click.Choice(["dnd5e", "pf1e"]), default="dnd5e", show_default=True,
                  help=N_("Game system: vocabulary of abilities, saves, skills, conditions."))
    @click.option("--seed", type=int, help=N_("Seed of the campaign's dice (default: random)."))
    @click.option("--pack", "packs", multiple=True, metavar="DIR", help=N_("Content pack this campaign always loads."))
    @pass_env
    def campaign_create(env, name, system, seed, packs) -> None:
        state = env.service.create_campaign(name, system, seed, tuple(packs))
        env.emit(views.campaign_doc(state, env.service.rules_for(state)),
                 lambda con: con.print(_("Campaign [bold]{name}[/] ({system}) created and chosen.", name=escape(state.name),
                                         system=save_words.system_name(state.system))))

    @campaign.command("list", help=N_("List campaigns; the current one is marked."))
    @pass_env
    def campaign_list(env) -> None:
        from ...errors import NoDatabase

        try:
            names = env.service.store.campaign_names()
            current = env.service.store.get_meta("current_campaign")
        except NoDatabase:  # no database yet: no campaigns (and no empty file made)
            names, current = [], None
        env.emit({"campaigns": names, "current": current},
                 lambda con: [con.print(("* " if n == current else "  ") + escape(n)) for n in names] or con.print(_("no campaigns yet")))

    @campaign.command("use", help=N_("Make NAME the current campaign."))
    @click.argument("name")
    @pass_env
    def campaign_use(env, name) -> None:
        name = env.service.use(name)
        env.emit({"current": name}, lambda con: con.print(_("Now on campaign [bold]{name}[/].", name=escape(name))))

    @campaign.command("rename", help=N_("Give campaign NAME the name NEW_NAME (a name that links and the dashboard "
                                        "can carry)."))
    @click.argument("name")
    @click.argument("new_name")
    @pass_env
    def campaign_rename(env, name, new_name) -> None:
        old = env.service.resolve(name)
        new = env.service.rename_campaign(old, new_name)
        env.emit({"campaign": new, "was": old},
                 lambda con: con.print(_("Campaign [bold]{old}[/] is now [bold]{new}[/].", old=escape(old), new=escape(new))))

    @campaign.command("show", help=N_("Show a campaign: system, clock, options that differ from the defaults, "
                                      "characters."))
    @click.argument("name", required=False)
    @pass_env
    def campaign_show(env, name) -> None:
        state = env.service.load(name or env.campaign_name()).state
        rules = env.service.rules_for(state)
        doc = views.campaign_doc(state, rules)
        env.emit(doc, partial(views.render_campaign, doc))

    @campaign.command("set", help=N_("Set a ruleset option for the current campaign (see `sawbones campaign "
                                     "options`), or its content packs."))
    @click.argument("option", required=False)
    @click.argument("value", required=False)
    @click.option("--reset", is_flag=True, help=N_("Go back to the default value."))
    @click.option("--pack", "packs", multiple=True, metavar="DIR",
                  help=N_("The content packs this campaign loads from now on (repeatable; replaces the list)."))
    @click.option("--no-packs", is_flag=True, help=N_("The campaign loads no content pack any more."))
    @pass_env
    def campaign_set(env, option, value, reset, packs, no_packs) -> None:
        from ...domain.engine.campaign import set_option

        if packs or no_packs:
            if option is not None or packs and no_packs:
                raise click.UsageError(_("give OPTION VALUE, or --pack DIR, or --no-packs"))
            state = env.service.set_packs(env.campaign_name(), tuple(packs))
            doc = {"content_packs": list(state.content_packs)}
            env.emit(doc, lambda con: con.print(_("Content packs: {packs}", packs=escape(
                ", ".join(state.content_packs) or views.V["none"]()))))
            return
        if option is None or value is None and not reset:
            raise click.UsageError(_("give a VALUE or --reset"))
        state, _events = env.act(lambda ctx: set_option(ctx, option, None if reset else value))
        doc = {"option": option, "value": dict(state.options).get(option), "reset": reset}
        env.emit(doc, lambda con: con.print(_("{option} = {value}", option=option,
                                                       value=views.shown(doc["value"]) if not reset
                                                       else _("(default)"))))

    @campaign.command("options", help=N_("Every ruleset option with its value in this campaign and its help."))
    @pass_env
    def campaign_options(env) -> None:
        from .rules import _rules_and_options

        rules, values = _rules_and_options(env)
        doc = views.options_doc(rules, values)
        env.emit(doc, partial(views.render_options, doc))

    @cli.group(help=N_("Add, edit, list and remove characters."))
    def character() -> None:
        pass

    @character.command("add", help=N_("Add a character to the current campaign."))
    @click.argument("name")
    @_sheet_options
    @pass_env
    def character_add(env, name, **sheet) -> None:
        from ...domain.engine.campaign import add_character

        state, events = env.act(lambda ctx: add_character(ctx, name, named_sheet(ctx.rules, _sheet(**sheet))))
        character = state.character(events[0]["data"]["id"])
        doc = views.character_doc(character, state, env.service.rules_for(state))
        env.emit(doc, lambda con: con.print(_("[bold]{name}[/] joins {campaign} ({hp}/{max_hp} HP{default}).", name=escape(character.name), campaign=escape(state.name), hp=character.hp,
            max_hp=character.max_hp,
            default=_("; --max-hp not given: {max_hp} by default", max_hp=character.max_hp) if sheet["max_hp"] is None else "")))

    @character.command("edit", help=N_("Change a character's sheet."))
    @click.argument("name")
    @click.option("--name", "new_name", help=N_("Rename the character."))
    @_sheet_options
    @pass_env
    def character_edit(env, name, new_name, **sheet) -> None:
        from ...domain.engine.campaign import edit_character

        state, events = env.act(lambda ctx: edit_character(ctx, name, named_sheet(ctx.rules, _sheet(**sheet,
                                                                                                   name=new_name))))
        character = state.character(events[0]["data"]["id"])
        doc = views.character_doc(character, state, env.service.rules_for(state))
        env.emit(doc, lambda con: con.print(_("[bold]{name}[/] updated.", name=escape(character.name))))

    @character.command("import", help=N_("Add or update characters from Foundry VTT actor exports (dnd5e, pf1) or "
                                         "party files (YAML, CSV)."))
    @click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
    @pass_env
    def character_import(env, files) -> None:
        from ...adapters.sheets import read_files
        from ...domain.engine.campaign import import_characters

        entries = read_files(list(files))  # every file is read and checked before anything is written
        state, events = env.act(lambda ctx: import_characters(ctx, entries))
        doc = views.import_report(state, events, env.service.rules_for(state))
        env.emit(doc, lambda con: [con.print(line) for line in doc["lines"]])

    @character.command("list", help=N_("List the characters of the current campaign."))
    @pass_env
    def character_list(env) -> None:
        state = env.service.load(env.campaign_name()).state
        doc = {"characters": [{"id": c.id, "name": c.name, "hp": c.hp, "max_hp": c.max_hp, "npc": c.npc,
                               "external": list(c.external)}
                              for c in state.characters]}
        env.emit(doc, partial(views.render_character_list, doc))

    @character.command("remove", help=N_("Remove a character (undo brings it back)."))
    @click.argument("name")
    @pass_env
    def character_remove(env, name) -> None:
        from ...domain.engine.campaign import remove_character

        env.act(lambda ctx: remove_character(ctx, name))
        env.emit({"removed": name}, lambda con: con.print(_("{name} removed (undo brings them back).", name=escape(name))))

    @cli.command(help=N_("The party (or one character): HP, dying/stable/dead, conditions, injuries, wounds, each\n"
                         "disease's current stage, timers; in words, so it reads the same through a pipe."))
    @click.argument("name", required=False)
    @pass_env
    def status(env, name) -> None:
        doc = views.status_doc(env.service, env.campaign_name(), name)
        env.emit(doc, partial(views.render_status, doc))

    @cli.command(help=N_("The campaign's event log (undone actions are marked)."))
    @click.option("--limit", type=click.IntRange(1, 100000), default=50, show_default=True, help=N_("Last N events."))
    @pass_env
    def log(env, limit) -> None:
        doc = log_view.log_doc(env.service, env.campaign_name(), limit)
        env.emit(doc, partial(log_view.render_log, doc))

    @cli.command(help=N_("Revert the last action exactly. ACTION (a14, as `log` shows it): only that one; refused, "
                         "nothing\n"
                         "undone, when another action came after it (a bot's, a player's)."))
    @click.argument("action", required=False)
    @pass_env
    def undo(env, action) -> None:
        from ...errors import UsageError
        from ...message import msg
        from ...presentation.sentences import say

        meant = log_view.action_id(action) if action is not None else None
        if action is not None and meant is None:
            raise UsageError(msg("{action} is not an action of the log (like a14)", action=repr(action)), "action")
        doc = log_view.undo_doc(env.service, env.campaign_name(), meant)

        def render(con) -> None:
            con.print(say("action_undone", action=doc["undone_action"]).capitalize()
                      + pgettext("punctuation", ":"))
            for line in doc["reverted"]:
                con.print("  " + escape(line))
        env.emit(doc, render)

    @cli.command(help=N_("The campaign's game clock."))
    @pass_env
    def clock(env) -> None:
        from ...presentation.time_words import describe

        state = env.service.load(env.campaign_name()).state
        doc = {"campaign": state.name, "seconds": state.clock, "text": describe(state.clock)}
        env.emit(doc, lambda con: con.print(doc["text"]))

    @cli.command(help=N_("Move the game clock forward (3r, 10min, 8h, 2d, 1w; \"2 days\", \"1d 12h\" too) and run "
                         "what falls due."))
    @click.argument("duration", nargs=-1, required=True)
    @click.option("--auto", is_flag=True, help=N_("Roll every save that falls due with the character's bonus "
                     "(otherwise the advance stops at the first save that needs a player's die)."))
    @click.option("--rolls", type=click.Choice(["gm", "players"]), help=N_("Who rolls the saves that fall due: the GM, "
                     "or each character's player (default: the option who_rolls; gm with --auto)."))
    @pass_env
    def advance(env, duration, auto, rolls) -> None:
        from ...domain.engine.clock import parse_duration
        from ...domain.engine.timeline import advance as advance_decision
        from .afflictions import advance_doc, render_advance

        seconds = parse_duration(" ".join(duration))
        state, events = env.act(lambda ctx: advance_decision(ctx, seconds, auto, rolls))
        doc = advance_doc(events, state, env.service.rules_for(state))
        env.emit(doc, partial(render_advance, doc))
