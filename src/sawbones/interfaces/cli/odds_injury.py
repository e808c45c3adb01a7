"""CLI: exact odds of lingering injuries (issue 17), through `sawbones odds`:

    sawbones odds --injury TYPE                                  # one drop to 0: standard and lenient bands
    sawbones odds --injury TYPE --d20 N --bonus B|A..B [--wait D] [--self]   # treatment and deadline
    sawbones odds --party [--drops X] [--types T[=W],...] [--bonus B] [--wait D] [--self]
                  [--npc-drops X] [--critical-failures X] [--compare OPT,...]   # per session, what-ifs

`--bonus` is the healer's check bonus (Wisdom (Medicine), as the campaign's `treatment_check` reads it).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from ...message import N_
from ...presentation.damage_types import parse_types
from ...presentation.locale import _, pgettext
from ...presentation.odds_words import (CHANGED, PER_SESSION, rest_words, signed, tone, treatment_rows,
                                         treatment_words)
from ...presentation.typeset import amount, colon, counted, decimal, general, labelled, ordinal, percent, span
from ...presentation.locale import name as named
from .odds_format import BAR

if TYPE_CHECKING:
    from ...content.rules import Rules
    from .env import Env


def _bar(p: float, style: str = "yellow", width: int = BAR) -> str:
    """A chance as a bar on an absolute scale (a full bar is 100%), to an eighth of a character; a chance above
    none always shows."""
    eighths = max(round(p * width * 8), 1 if p > 0 else 0)
    full, part = divmod(eighths, 8)
    drawn = "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")
    return f"[{style}]{drawn}[/][dim]{'·' * (width - len(drawn))}[/]"


def render_drop(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    from rich.markup import escape
    from rich.table import Table
    bands = list(doc["odds"])
    table = rules.damage_tables[doc["table"]]
    out = Table(title=_("One drop to 0 · {table}", table=table.name))
    out.add_column("d20")
    out.add_column(_("injury"))
    out.add_column(pgettext("odds", "severity"))
    for band in bands:
        out.add_column(named(rules.band_sets[band].name), justify="right")
    rows: dict[tuple[str, str], dict[str, float]] = {}
    for band in bands:
        for row in doc["odds"][band]["rows"]:
            rows.setdefault((row["d20"], row["severity"]), {"injury": row["injury"]})[band] = row["p"]
    for (d20, severity), cells in rows.items():
        out.add_row(d20, escape(named(rules.injuries[cells["injury"]].name)), named(rules.severities[severity].name),
                    *(percent(cells.get(b, 0.0)) for b in bands))
    con.print(out)
    sev = Table.grid(padding=(0, 1))
    for _column in range(2 + len(bands)):
        sev.add_column()
    for sid, s in rules.severities.items():
        sev.add_row(named(s.name), *(f"{percent(doc['odds'][b]['severity'][sid]):>6}" for b in bands),
                    _bar(doc["odds"][bands[0]]["severity"][sid], width=20))
    con.print(sev)
    for key, words in (("magic_only", N_("only magic heals it")),
                       ("permanent_loss", N_("permanent loss (eye, hand, foot) before any treatment"))):
        con.print(labelled(_(words), " · ".join(
            f"{named(rules.band_sets[b].name)} {percent(doc['odds'][b][key])}" for b in bands)))


def render_treatment(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    from rich.markup import escape
    injury = rules.injuries[doc["injury"]]
    severity = rules.severities[doc["severity"]]
    who = _("self-treatment") if doc["self_treatment"] else _("healer")
    con.print(f"[bold]{escape(named(injury.name))}[/] ({named(severity.name)}) · "
              f"{named(rules.damage_tables[doc['table']].name)} d20 {doc['d20']} · "
              + _("DC") + f" {doc['dc']} · {who} {doc['bonus']:+d} · {doc['check']}"
              + (" · " + _("treatment after ") + counted(doc["wait_days"], "day") if doc["wait_days"] else ""))
    rows = treatment_rows(doc)
    for key, words, p in rows:
        style = {"healed": "green", "lost": "red"}.get(key, "yellow")
        con.print(f"{treatment_words(words):<34} {_bar(p, style, 20)} {percent(p):>7}")
    con.print(f"[dim]{treatment_words('never_means')}[/]")
    if doc["attempts"]:
        con.print(labelled(_("attempts"), " · ".join(
            _("{p} on the {ordinal}", p=percent(a["p"]), ordinal=ordinal(a["n"])) for a in doc["attempts"])))
        con.print(labelled(treatment_words("on_average"),
                           f"{amount(doc['expected_attempts'], 2, 'attempt')}, {span(doc['expected_days'])}"))
    per = " · ".join(f"{span(a['days'])} {percent(a['p'])}" for a in doc["per_attempt"])
    if per:
        con.print(labelled(treatment_words("attempt_takes"), per))
    days = [d for d in doc["days"] if d["p"] > 0]
    if days:  # every row, each bar on the same absolute scale (a full bar is 100%)
        con.print(treatment_words("until_healed") + colon().rstrip())
        width = max(len(span(d["days"])) for d in days)
        for d in days:
            con.print(f"  {span(d['days']):>{width}} {_bar(d['p'], 'green', 20)} {percent(d['p']):>7}")
    con.print(labelled(treatment_words("for_free"), rest_words(doc["rest"])))


def render_treatment_range(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    from rich.markup import escape
    from rich.table import Table
    first = doc["odds"][0]
    out = Table(title=f"{escape(named(rules.injuries[first['injury']].name))} · "
                      + _("DC") + f" {first['dc']} · {first['check']}")
    for title in (_("bonus"), _("heals"), "", _("lost"), _("out of reach"), _("attempts"), _("time")):
        out.add_column(title, justify="right")
    for d in doc["odds"]:
        out.add_row(f"{d['bonus']:+d}", percent(d["healed"]), _bar(d["healed"], "green", 20),
                    percent(d["lost"]), percent(treatment_rows(d)[2][2]),
                    "—" if d["expected_attempts"] is None else decimal(d["expected_attempts"], 2),
                    span(d["expected_days"]))
    con.print(out)


def render_party(doc: dict[str, Any], rules: Rules, con: Any) -> None:
    """One block per option set: the campaign's, then each option that changes a number (with the change)."""
    from ...presentation.locale import say
    p = doc["profile"]
    con.print(labelled(_("Per session"), counted(p["drops"], "drop")
                       + " · " + _("healer")
                       + f" {p['bonus']:+d}" + (" · " + _("treatment after")
                                                + f" {general(p['wait_days'])} " + pgettext("days", "d")
                                                if p["wait_days"] else "")))
    base = doc["base"]

    def value(d: dict[str, Any], key: str, sub: str | None = None, better: int = 0) -> str:
        x = d[key][sub] if sub else d[key]
        delta = x - (base[key][sub] if sub else base[key])
        if d is base or abs(delta) <= CHANGED:
            return decimal(x, 2)
        style = {"better": "green", "worse": "red"}.get(tone(better, delta), "yellow")
        return f"{decimal(x, 2)} [{style}]({signed(delta)})[/]"

    def block(title: str, d: dict[str, Any]) -> None:
        con.print(f"[bold]{title}[/]")
        con.print("  " + labelled(_("injuries"), " · ".join(
            f"{named(s.name)} {value(d, 'injuries', sid)}" for sid, s in rules.severities.items())
            + " · " + _("NPC") + f" {value(d, 'npc_injuries')}"))
        *rest, losses = PER_SESSION  # (id, English, ..., better)
        con.print("  " + " · ".join(_(item[1]) + f" {value(d, item[0], better=item[-1])}" for item in rest))
        con.print("  " + labelled(_(losses[1]), value(d, losses[0], better=losses[-1])))

    block(pgettext("odds", "The campaign's options"), base)
    for v in doc["variants"]:
        block(f"{v['option']} = {str(v['value']).lower()}", v["profile"])
    # (an option none of whose other values moves a number)
    names = sorted({u["option"] for u in doc["unchanged"]} - {v["option"] for v in doc["variants"]})
    if names:
        con.print(labelled(_("no effect on these numbers"), ", ".join(names)))
    for n in doc["not_compared"]:
        con.print(labelled(_("not compared"), f"{n['option']}={n['value']} ({say(n['why'])})"))


def _types(text: str | None) -> tuple[tuple[str, float], ...]:
    """`parse_types`, its refusal said as click says a bad option (--types)."""
    import click

    from ...errors import UsageError
    from ...presentation.locale import say

    try:
        return parse_types(text)
    except UsageError as exc:
        raise click.BadParameter(say(exc.text), param_hint="--types") from None


def run(env: Env, rules: Rules, options: dict[str, Any], campaign: str | None, *, injury: str | None, d20: int | None,
        bonuses: list[int], party: bool, wait: float, self_treatment: bool, drops: float, types: str | None,
        npc_drops: float, critical_failures: float, compare: str | None) -> None:
    """The injury side of `sawbones odds` (one drop, treatment, party): the treatment chains an earlier command
    computed under these options are read from the cache, and what this one adds is written back
    (adapters/odds_cache.py)."""
    from ...adapters import odds_cache

    from contextlib import nullcontext

    # (a what-if reads and keeps each option set it compares in a cache of its own: `odds_party.what_if`)
    with nullcontext() if party else odds_cache.kept(rules, options):
        _answer(env, rules, options, campaign, injury=injury, d20=d20, bonuses=bonuses, party=party, wait=wait,
                self_treatment=self_treatment, drops=drops, types=types, npc_drops=npc_drops,
                critical_failures=critical_failures, compare=compare)


def _answer(env: Env, rules: Rules, options: dict[str, Any], campaign: str | None, *, injury: str | None,
            d20: int | None, bonuses: list[int], party: bool, wait: float, self_treatment: bool, drops: float,
            types: str | None, npc_drops: float, critical_failures: float, compare: str | None) -> None:
    from ...adapters import odds_cache
    from ...domain.injuries import odds_drop, odds_party, odds_treatment

    if party:
        prof = odds_party.Profile(drops=drops, types=_types(types), bonus=bonuses[0], wait_days=wait,
                                  self_treatment=self_treatment, npc_drops=npc_drops,
                                  critical_failures=critical_failures)
        wanted = [c.strip() for c in compare.split(",") if c.strip()] if compare else None
        doc = odds_party.what_if(rules, options, prof, wanted, keep=partial(odds_cache.kept, rules))
        doc["campaign"] = campaign
        env.emit(doc, partial(render_party, doc, rules))
        return
    table = (injury or "").lower()
    if d20 is None:
        doc = odds_drop.drop_doc(rules, options, table)
        doc["campaign"] = campaign
        env.emit(doc, partial(render_drop, doc, rules))
        return
    docs = [odds_treatment.treatment_doc(rules, options, table, d20, b, wait_days=wait, self_treatment=self_treatment)
            for b in bonuses]
    if len(docs) > 1:
        for d in docs:
            d.pop("days")
        doc = {"table": table, "d20": d20, "campaign": campaign, "odds": docs}
        env.emit(doc, partial(render_treatment_range, doc, rules))
        return
    doc = docs[0]
    doc["campaign"] = campaign
    env.emit(doc, partial(render_treatment, doc, rules))
