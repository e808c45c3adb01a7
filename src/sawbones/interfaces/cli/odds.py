"""CLI: exact odds of a disease or poison (issue 6), computed from the engine's own rules.

    sawbones odds AFFLICTION --bonus N [--from-stage S] [--doses K] [--curve] [--days D] [--system dnd5e|pf1e]
    sawbones odds AFFLICTION --bonus A..B      # one line per bonus
    sawbones odds --all [--bonus -5..25]       # death chance, every affliction x every bonus

The current campaign's options and system are used when there is a campaign; otherwise the defaults.
"""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ...presentation.typeset import amount, counted, decimal, general, labelled, percent, unit_plural
from ...message import N_
from ...presentation.locale import _, pgettext
from ...presentation.locale import name as named
from ...presentation.odds_stages import stage_label, stage_names
from ...presentation.save_words import system_name
from .odds_format import BAR

if TYPE_CHECKING:
    from ...content.rules import Rules
    from .env import Env


BONUS_RANGE = (-30, 60)  # a save bonus the odds accept (as the API): beyond, every save is sure either way
MAX_DOSES = 5  # extra doses at once (as the API)
MAX_DAYS = 3650  # a curve's horizon in game days (as the API)


def parse_bonuses(text: str, low_high: tuple[int, int] = BONUS_RANGE) -> list[int]:
    """N, or A..B (both included), within `low_high`."""
    m = re.fullmatch(r"\s*([+-]?\d+)\s*(?:\.\.\s*([+-]?\d+)\s*)?", text)
    if not m:
        raise click.BadParameter(_("{given}: give a whole number (5, -2) or a range A..B (-5..25)", given=repr(text)),
                                 param_hint="--bonus")
    if max(len(g or "") for g in m.groups()) > 6:
        raise click.BadParameter(_("{given}: from {low} to {high}", given=repr(text), low=low_high[0], high=low_high[1]),
                                 param_hint="--bonus")
    low = int(m.group(1))
    high = int(m.group(2)) if m.group(2) is not None else low
    if high < low:
        raise click.BadParameter(_("{given}: a range goes up", given=repr(text)), param_hint="--bonus")
    if low < low_high[0] or high > low_high[1]:
        raise click.BadParameter(_("{given}: from {low} to {high}", given=repr(text), low=low_high[0], high=low_high[1]),
                                 param_hint="--bonus")
    return list(range(low, high + 1))


class Finite(click.FloatRange):
    """A float within bounds, and finite: nan and inf are refused with the bounds."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import math

        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            low, high = format(self.min, "g"), format(self.max, "g")
            self.fail(_("{value} is not a finite number (from {min} to {max})", value=repr(value), min=low, max=high),
                      param, ctx)
        return super().convert(number, param, ctx)


def _context(env: Env) -> tuple[Rules, dict[str, Any], str | None, str | None]:
    """(rules, options, system, campaign name): the current campaign's, or the defaults without one.

    Without --db, $SAWBONES_DATABASE_URL or ./sawbones.db, no database is opened (none is created)."""
    from ...content.loader import load_rules
    from ...domain.engine.options import effective_options

    from ...errors import NoDatabase

    if env.db is None and not os.environ.get("SAWBONES_DATABASE_URL") and not Path("sawbones.db").exists():
        rules = load_rules(env.content)
        return rules, effective_options(rules, {}), None, None
    try:
        name = env.campaign or env.service.store.get_meta("current_campaign")
    except NoDatabase:  # --db names a file not made yet: the defaults
        rules = load_rules(env.content)
        return rules, effective_options(rules, {}), None, None
    state = env.service.load(name).state if name else None
    rules = env.service.rules_for(state)
    options = effective_options(rules, state.option_overrides() if state else {})
    return rules, options, state.system if state else None, name


def _duration(doc: dict[str, Any]) -> str:
    d = doc["expected_duration"]
    label = _("expected duration")
    if d["value"] is None:
        return labelled(label, _("infinite (may never end)"))
    saves = decimal(d["saves"], 2)
    return labelled(label, amount(d["value"], 2, d["unit"]) + " " + _("({saves} periodic saves)", saves=saves))


def render_odds(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    from ...presentation.save_words import save_name

    defn = rules.afflictions[doc["affliction"]]
    names = stage_names(rules, doc["affliction"])
    start = doc["start"]
    head = (f"[bold]{escape(named(defn.name))}[/] · {save_name(rules, doc['save'], doc['system'])} "
            + _("DC") + f" {doc['dc']} · " + _("bonus") + f" {doc['bonus']:+d} · " + system_name(doc["system"]))
    if start["from"] == "stage":
        head += " · " + pgettext("odds", "from") + f" {escape(stage_label(names, start['stage']))}"
    if start["doses"]:
        head += " · " + counted(start["doses"], "dose")
    con.print(head)
    grid = Table.grid(padding=(0, 1))
    for _row in range(3):
        grid.add_column()
    dead = {label for label in doc["final"] if label.split("+")[-1] == "dead"}
    for label, p in doc["final"].items():
        filled = round(p * BAR)
        style = "red" if label in dead else "green" if label == "healthy" else "yellow"
        bar = f"[{style}]{'█' * filled}[/][dim]{'·' * (BAR - filled)}[/]"
        grid.add_row(escape(stage_label(names, label)), bar, percent(p))
    con.print(grid)
    out = doc["outcome"]
    con.print(labelled(_("death"), f"[bold]{percent(doc['death'])}[/]") + " · "
              + labelled(_("never afflicted"), percent(out["never_afflicted"]))
              + " · " + _duration(doc))
    for condition, p in doc["permanent"].items():
        known = rules.conditions.get(condition)
        name = named(known.name) if known else condition
        con.print(pgettext("odds", "permanent") + " · " + labelled(escape(name), percent(p)))
    if out["never_ends"]:
        con.print(labelled(_("never ends"), percent(out["never_ends"])))


def render_curve(doc: dict[str, Any], rules: Rules, con: Any, rows: int = 40) -> None:
    from rich.table import Table
    names = stage_names(rules, doc["affliction"])
    unit = unit_plural(doc["unit"])
    shown = [label for label in doc["stages"] if any(r["stages"].get(label) for r in doc["rows"])]
    table = Table(title=_("Stage after each save ({unit})", unit=unit))
    table.add_column("t", justify="right")
    table.add_column(unit, justify="right")
    for label in shown:
        table.add_column(stage_label(names, label), justify="right")
    every = max(1, -(-len(doc["rows"]) // rows))
    picked = doc["rows"][::every]
    if picked[-1] is not doc["rows"][-1]:
        picked.append(doc["rows"][-1])
    for row in picked:
        table.add_row(str(row["t"]), general(row["time"]),
                      *(percent(row["stages"].get(label, 0)) for label in shown))
    con.print(table)
    if every > 1:
        con.print(_("(every {every}th save shown; --json has all)", every=every))


def render_range(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    from rich.markup import escape
    from rich.table import Table
    defn = rules.afflictions[doc["affliction"]]
    table = Table(title=f"{escape(named(defn.name))} · " + _("DC") + f" {doc['dc']} · {system_name(doc['system'])}")
    for title in ("bonus", _("death"), "", _("healthy"), _("expected duration")):
        table.add_column(title, justify="right")
    for d in doc["odds"]:
        filled = round(d["death"] * BAR)
        value = d["expected_duration"]["value"]
        bar = f"[red]{'█' * filled}[/][dim]{'·' * (BAR - filled)}[/]"
        table.add_row(f"{d['bonus']:+d}", percent(d["death"]), bar, percent(d["final"].get("healthy", 0)),
                      "∞" if value is None else amount(value, 2, defn.frequency.unit))
    con.print(table)


def render_table(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    """Death chance, every affliction by save bonus, at the console's width (80 columns when piped): every
    bonus when they fit, else every 2nd, 3rd ... bonus (said under the title; --json has all)."""
    import io

    from rich import box
    from rich.console import Console

    bonuses = doc["bonuses"]
    for step in range(1, len(bonuses) + 1):
        shown = [i for i, b in enumerate(bonuses) if b % step == 0] or [0]
        table = _death_table(doc, rules, shown, step, box.SIMPLE_HEAD)
        probe = Console(file=io.StringIO(), width=1000, color_system=None, highlight=False)
        probe.print(table)
        if max(len(line) for line in probe.file.getvalue().splitlines()) <= con.width:
            break
    con.print(table)


def _death_table(doc: dict[str, Any], rules: Rules, shown: list[int], step: int, frame: Any) -> Any:
    from rich.markup import escape
    from rich.table import Table

    title = _("Death chance by save bonus ({system}, %)", system=system_name(doc["system"]))
    if step > 1:
        title += "\n" + _("of every {step} bonuses, one bonus shown (--json has all)", step=step)
    table = Table(title=title, box=frame, padding=(0, 0, 0, 1), pad_edge=False)
    table.add_column(_("affliction"), max_width=24, overflow="fold")
    table.add_column(_("DC"), justify="right")
    for i in shown:
        table.add_column(f"{doc['bonuses'][i]:+d}", justify="right", no_wrap=True)
    for row in doc["afflictions"]:
        cells = []
        for i in shown:
            p = row["death"][i]
            pct = 100 * p
            text = "0" if p == 0 else "<1" if pct < 1 else ">99" if 99 < pct < 100 else f"{pct:.0f}"
            style = "red" if pct >= 50 else "yellow" if pct >= 10 else "dim" if p == 0 else ""
            cells.append(f"[{style}]{text}[/]" if style else text)
        table.add_row(escape(named(rules.afflictions[row["affliction"]].name)), str(row["dc"]), *cells)
    return table


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command(help=N_("Exact chances and timelines of a disease or poison, or of lingering injuries, computed "
                         "from the rules\n"
                         "(not simulated).\n"
                         "\n"
                         "The final stage is where the victim ends: poisons when eliminated or run out, diseases cured or at\n"
                         "their end state; healthy includes the victim who made the initial save. Expected duration: from\n"
                         "exposure to the last save, in the affliction's frequency unit, onset included.\n"
                         "\n"
                         "Injuries (--injury, --party): see docs/odds.md."))
    @click.argument("affliction", required=False)
    @click.option("--bonus", "bonus_text", metavar="N|A..B",
                  help=N_("The victim's save bonus (without the affliction's own stage penalties), or a range "
                          "A..B (default 0; with --all, -5..25)."))
    @click.option("--all", "everything", is_flag=True, help=N_("Every affliction: death chance per bonus."))
    @click.option("--from-stage", metavar="STAGE",
                  help=N_("Start on this stage, as if the initial save failed and put the victim there "
                          "(a deadly start), instead of from exposure."))
    @click.option("--doses", type=click.IntRange(0, MAX_DOSES), default=0, show_default=True, metavar="K",
                  help=N_("Extra doses taken at the same moment (poisons: +50% duration and a stage on each failed "
                          "save; diseases: another chance to catch it)."))
    @click.option("--curve", is_flag=True, help=N_("Also the stage distribution after each periodic save."))
    @click.option("--days", type=Finite(0, MAX_DAYS), metavar="D",
                  help=N_("Horizon of the curve in game days (implies --curve; default: until it is all over)."))
    @click.option("--system", type=click.Choice(["dnd5e", "pf1e"]),
                  help=N_("pf1e: a natural 1 fails and a natural 20 succeeds (default: the campaign's system, "
                          "else dnd5e)."))
    @click.option("--injury", metavar="TYPE",
                  help=N_("Lingering injuries: one drop to 0 with this damage type (both severity bands); with --d20, "
                          "that injury's treatment (--bonus: the healer's check bonus)."))
    @click.option("--d20", type=click.IntRange(1, 20), metavar="N", help=N_("With --injury: the injury d20's face."))
    @click.option("--party", is_flag=True,
                  help=N_("Lingering injuries per session for a party profile, and under each option that changes "
                          "them."))
    @click.option("--wait", type=Finite(0, 30), default=0, metavar="DAYS",
                  help=N_("Injuries: game days before treatment starts (a 1d4-day deadline may pass)."))
    @click.option("--self", "self_treatment", is_flag=True, help=N_("Injuries: the injured treats themself."))
    @click.option("--drops", type=Finite(0, 20), default=1, show_default=True, metavar="X",
                  help=N_("--party: player characters dropping to 0 per session."))
    @click.option("--types", metavar="T[=W],...", help=N_("--party: damage types met, with weights (default: all "
                                                          "alike)."))
    @click.option("--npc-drops", type=Finite(0, 20), default=0, metavar="X",
                  help=N_("--party: NPCs dropping to 0 per session (counted with apply_to_npcs)."))
    @click.option("--critical-failures", type=Finite(0, 20), default=0, metavar="X",
                  help=N_("--party: critical failures per session (counted with trigger_on_critical_failure)."))
    @click.option("--compare", metavar="OPT,...", help=N_("--party: the options to compare (default: every injury "
                                                          "option that is a choice or a switch)."))
    @pass_env
    def odds(env, affliction, bonus_text, everything, from_stage, doses, curve, days, system, injury, d20, party,
             wait, self_treatment, drops, types, npc_drops, critical_failures, compare) -> None:
        from ...domain.afflictions import odds as model

        if sum(map(bool, (affliction, everything, injury, party))) != 1:
            raise click.UsageError(_("give an AFFLICTION, --all, --injury TYPE or --party"))
        injury_only = {"--d20": d20 is not None, "--wait": bool(wait), "--self": self_treatment, "--types": bool(types),
                       "--npc-drops": bool(npc_drops), "--critical-failures": bool(critical_failures),
                       "--compare": bool(compare)}
        if not (injury or party) and any(injury_only.values()):
            given = next(k for k, v in injury_only.items() if v)
            raise click.UsageError(_("{given} goes with --injury TYPE or --party", given=given))
        if injury or party:
            from ...domain.injuries.odds import MAX_BONUS, MIN_BONUS
            from . import odds_injury as cli_odds_injury

            if d20 is not None and not injury:
                raise click.UsageError(_("--d20 goes with --injury TYPE"))
            bonuses = parse_bonuses(bonus_text if bonus_text is not None else "5", (MIN_BONUS, MAX_BONUS))
            if party and len(bonuses) > 1:
                raise click.BadParameter(_("--party takes one bonus"), param_hint="--bonus")
            rules, options, _system, campaign = _context(env)
            cli_odds_injury.run(env, rules, options, campaign, injury=injury, d20=d20, bonuses=bonuses, party=party,
                                wait=wait, self_treatment=self_treatment, drops=drops, types=types,
                                npc_drops=npc_drops, critical_failures=critical_failures, compare=compare)
            return
        bonuses = parse_bonuses(bonus_text if bonus_text is not None else ("-5..25" if everything else "0"))
        rules, options, campaign_system, campaign = _context(env)
        system = system or campaign_system or model.DEFAULT_SYSTEM
        if everything:
            doc = model.table_doc(rules, options, bonuses, system, campaign)
            env.emit(doc, partial(render_table, doc, rules))
            return
        rules.get("afflictions", affliction)
        start = {"from_stage": from_stage, "doses": doses}
        if len(bonuses) > 1:
            docs = [model.odds(rules, options, affliction, b, system=system, **start) for b in bonuses]
            doc = {"affliction": affliction, "dc": docs[0]["dc"], "system": system, "campaign": campaign,
                   "odds": docs}
            env.emit(doc, partial(render_range, doc, rules))
            return
        doc = model.odds(rules, options, affliction, bonuses[0], system=system, **start)
        doc["campaign"] = campaign
        if curve or days is not None:
            doc["curve"] = model.curve(rules, options, affliction, bonuses[0], system=system, days=days, **start)

        def render(con):
            render_odds(doc, rules, con)
            if "curve" in doc:
                render_curve(doc["curve"], rules, con)

        env.emit(doc, render)
