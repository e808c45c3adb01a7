"""What the bot shows, in sawbones' own words and in the reader's language (presentation.locale): the CLI's
status and tables (rendered from the API's JSON documents by the presentation layer's own renderers), the player
page's card and prompt (the page's words, from the catalog), the API's `lines`. Discord takes 2,000 characters a
message: `chunks` cuts longer text at line ends."""

from __future__ import annotations

import io
from typing import Any, Callable

from ..presentation.typeset import listed, percent
from ..message import N_
from ..presentation.locale import _, pgettext

LIMIT = 1900  # characters of one message (Discord: 2,000), room left for a code fence


def rich_text(render: Callable[[Any], None], width: int = 150) -> str:
    """What a CLI renderer prints, as plain text (no colour)."""
    from rich.console import Console

    con = Console(file=io.StringIO(), record=True, width=width, color_system=None, emoji=False, highlight=False)
    render(con)
    return con.export_text().rstrip()


def gm_status(doc: dict[str, Any]) -> str:
    from ..presentation.views import render_status

    return rich_text(lambda con: render_status(doc, con))


def tables_text(doc: dict[str, Any], index: bool) -> str:
    from ..presentation.tables import render_index, render_table

    if index:
        return rich_text(lambda con: render_index(doc, con), width=100)
    return rich_text(lambda con: render_table(doc, con), width=100)


def chance(p: float) -> str:
    """A chance as sawbones writes it ("18.9%" / "18,9 %")."""
    return str(percent(p))


def chunks(text: str, fence: bool = False) -> list[str]:
    """`text` as messages of at most LIMIT characters, cut at line ends (inside ``` fences when asked)."""
    out: list[str] = []
    current = ""
    for line in text.splitlines() or [""]:
        while len(line) > LIMIT:
            out.append(current) if current else None
            current = ""
            out.append(line[:LIMIT])
            line = line[LIMIT:]
        if len(current) + len(line) + 1 > LIMIT:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return [f"```\n{part}\n```" if fence else part for part in out]


SITES = {"hand": N_("hand"), "foot": N_("foot")}  # the site an injury strikes (the player page's words)
KINDS = {"disease": N_("disease"), "poison": N_("poison")}
STATUSES = {"active": N_("active"), "eliminated": N_("eliminated, recovering"), "end_state": N_("end state"),
            "cured": N_("cured (after-effects)")}


def player_card(doc: dict[str, Any]) -> str:
    """The player's page (player view document) as a message: the card, what is asked of them, the clock."""
    c, colon = doc["character"], _(": ")
    life = _("dead") if c.get("dead") else (_("stable") if c.get("stable") else pgettext("web.dying", "dying")) \
        if c["hp"] <= 0 else ""
    lines = [f"**{c['name']}** {c['hp']}/{c['max_hp']} {_('HP')}{' · ' + life if life else ''}"]
    if c.get("conditions"):
        lines.append(_("Conditions") + colon + ", ".join(
            f"{x['name']} ({_('from')} {x['source']['name']})" for x in c["conditions"]))
    if c.get("injuries"):
        lines.append(f"__{_('Injuries')}__")
        for i in c["injuries"]:
            site = f" ({_(SITES.get(i['site'], i['site']))})" if i.get("site") else ""
            lines.append(f"• **{i['name']}**{site} · {i.get('severity_name', '')}")
            lines.append(f"  {_('in play')}{colon}{i.get('effect') or i.get('text', '')}")
            if i.get("heals_by"):
                lines.append(f"  {_('heals by')}{colon}{listed(i['heals_by'])}")
            if i.get("deadline_in_text"):
                lines.append(f"  {_('the limb is lost unless treated within')} {i['deadline_in_text']}")
    if c.get("wounds"):
        lines.append(f"__{_('Wounds')}__")
        for w in c["wounds"]:
            penalty = f" {w['penalty']}" if w.get("penalty") is not None else ""
            lines.append(f"• **{w['name']}**{penalty}" + (f" — {w['affects']}" if w.get("affects") else ""))
    if c.get("afflictions"):
        lines.append(f"__{_('Diseases and poisons')}__")
        for a in c["afflictions"]:
            lines += _affliction(a)
    for p in doc.get("prompts") or ():
        lines.append(prompt_text(p))
    lines.append(f"{_('Clock')}{colon}{doc['clock']['text']}")
    return "\n".join(lines)


def _affliction(a: dict[str, Any]) -> list[str]:
    colon = _(": ")
    if not a.get("known", True):
        symptoms = listed(a.get("symptoms") or ())
        return [f"• **{a['name']}**" + (f" — {_('symptoms')}{colon}{symptoms}" if symptoms else "")]
    said = a.get("status")
    status = _("halted") if said == "eliminated" and a.get("kind") == "disease" \
        else _(STATUSES.get(said, f"status_{said}")) if said else ""
    kind = str(a.get("kind"))
    out = [f"• **{a['name']}** · {_(KINDS.get(kind, 'kind_' + kind))}{' · ' + status if status else ''}"]
    for track in a.get("tracks") or ():
        out.append("  " + " → ".join(f"**{s['name']}**" if s.get("current") else s["name"]
                                     for s in track.get("ladder", ())))
    more = []
    if a.get("next_save"):
        more.append(f"{_('next save')} {a['next_save'].get('in_text', '')}")
    if a.get("cure"):
        more.append(f"{_('cure')}{colon}{a['cure']}")
    return out + (["  " + " · ".join(more)] if more else [])


def prompt_text(p: dict[str, Any], mention: str = "") -> str:
    """A prompt as the player's page shows it: the save, against what (a secret affliction is not named, and
    its DC not given), the player's bonus and its modifiers."""
    save = p.get("save_name") or p.get("save") or ""
    dc = f" · {_('DC')} {p['dc']}" if p.get("dc") is not None else ""
    head = f"{mention} " if mention else ""
    lines = [f"{head}**{_('Your GM asks for a roll')}** ({p['name']})",
             f"{save[:1].upper()}{save[1:]} {_('against')} **{p['against']}**{dc}",
             f"{_('your bonus')} **{p['bonus']:+d}**"]
    if p.get("modifiers_text"):
        lines.append(p["modifiers_text"])
    if p.get("proposed"):
        lines.append(_("Sent: waiting for the GM to confirm."))
    return "\n".join(lines)


def pending_text(pending: list[dict[str, Any]]) -> str:
    """The GM's list of saves waiting for a die (GET …/pending): the dashboard's words."""
    colon = _(": ")
    return "\n".join(f"{p['id']} · **{p['name']}** · {p['save']} {_('against')} {p['affliction']} · "
                     f"{_('DC')} {p['dc']}{colon}{p['at_text']}" for p in pending)
