"""What the bot shows, in sawbones' own words: the CLI's status and tables (rendered from the API's JSON
documents by the CLI's own renderers), the player page's card and prompt (the page's words, web/words_table.py),
the API's `lines`. Discord takes 2,000 characters a message: `chunks` cuts longer text at line ends."""

from __future__ import annotations

import io
from typing import Any, Callable

from ..presentation.typeset import listed
from ..interfaces.web.i18n import text as page_word

LIMIT = 1900  # characters of one message (Discord: 2,000), room left for a code fence


def rich_text(render: Callable[[Any], None], width: int = 150) -> str:
    """What a CLI renderer prints, as plain text (no colour)."""
    from rich.console import Console

    con = Console(file=io.StringIO(), record=True, width=width, color_system=None, emoji=False, highlight=False)
    render(con)
    return con.export_text().rstrip()


def gm_status(doc: dict[str, Any], lang: str) -> str:
    from ..presentation.views import render_status

    return rich_text(lambda con: render_status(doc, con))


def tables_text(doc: dict[str, Any], lang: str, index: bool) -> str:
    from ..presentation.locale import speaking
    from ..presentation.tables import render_index, render_table

    with speaking(lang):
        if index:
            return rich_text(lambda con: render_index(doc, con), width=100)
        return rich_text(lambda con: render_table(doc, con), width=100)


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


def _t(key: str, lang: str) -> str:
    return page_word(key, lang)


def player_card(doc: dict[str, Any], lang: str) -> str:
    """The player's page (player view document) as a message: the card, what is asked of them, the clock."""
    c, colon = doc["character"], _t("colon", lang)
    life = _t("dead", lang) if c.get("dead") else (_t("stable", lang) if c.get("stable") else _t("dying", lang)) \
        if c["hp"] <= 0 else ""
    lines = [f"**{c['name']}** {c['hp']}/{c['max_hp']} {_t('hp', lang)}{' · ' + life if life else ''}"]
    if c.get("conditions"):
        lines.append(_t("conditions", lang) + colon + ", ".join(
            f"{x['name']} ({_t('sources', lang)} {x['source']['name']})" for x in c["conditions"]))
    if c.get("injuries"):
        lines.append(f"__{_t('injuries', lang)}__")
        for i in c["injuries"]:
            site = f" ({_t(i['site'], lang)})" if i.get("site") else ""
            lines.append(f"• **{i['name']}**{site} · {i.get('severity_name', '')}")
            lines.append(f"  {_t('effect_in_play', lang)}{colon}{i.get('effect') or i.get('text', '')}")
            if i.get("heals_by"):
                lines.append(f"  {_t('heals_by', lang)}{colon}{listed(i['heals_by'])}")
            if i.get("deadline_in_text"):
                lines.append(f"  {_t('deadline_in', lang)} {i['deadline_in_text']}")
    if c.get("wounds"):
        lines.append(f"__{_t('wounds', lang)}__")
        for w in c["wounds"]:
            penalty = f" {w['penalty']}" if w.get("penalty") is not None else ""
            lines.append(f"• **{w['name']}**{penalty}" + (f" — {w['affects']}" if w.get("affects") else ""))
    if c.get("afflictions"):
        lines.append(f"__{_t('afflictions', lang)}__")
        for a in c["afflictions"]:
            lines += _affliction(a, lang)
    for p in doc.get("prompts") or ():
        lines.append(prompt_text(p, lang))
    lines.append(f"{_t('clock', lang)}{colon}{doc['clock']['text']}")
    return "\n".join(lines)


def _affliction(a: dict[str, Any], lang: str) -> list[str]:
    colon = _t("colon", lang)
    if not a.get("known", True):
        symptoms = listed(a.get("symptoms") or ())
        return [f"• **{a['name']}**" + (f" — {_t('symptoms', lang)}{colon}{symptoms}" if symptoms else "")]
    status = _t("halted", lang) if a.get("status") == "eliminated" and a.get("kind") == "disease" \
        else _t(f"status_{a.get('status')}", lang) if a.get("status") else ""
    out = [f"• **{a['name']}** · {_t('kind_' + str(a.get('kind')), lang)}{' · ' + status if status else ''}"]
    for track in a.get("tracks") or ():
        out.append("  " + " → ".join(f"**{s['name']}**" if s.get("current") else s["name"]
                                     for s in track.get("ladder", ())))
    more = []
    if a.get("next_save"):
        more.append(f"{_t('next_save_in', lang)} {a['next_save'].get('in_text', '')}")
    if a.get("cure"):
        more.append(f"{_t('cure_text', lang)}{colon}{a['cure']}")
    return out + (["  " + " · ".join(more)] if more else [])


def prompt_text(p: dict[str, Any], lang: str, mention: str = "") -> str:
    """A prompt as the player's page shows it: the save, against what (a secret affliction is not named, and
    its DC not given), the player's bonus and its modifiers."""
    save = p.get("save_name") or p.get("save") or ""
    dc = f" · {_t('dc', lang)} {p['dc']}" if p.get("dc") is not None else ""
    head = f"{mention} " if mention else ""
    lines = [f"{head}**{_t('prompt_title', lang)}** ({p['name']})",
             f"{save[:1].upper()}{save[1:]} {_t('prompt_against', lang)} **{p['against']}**{dc}",
             f"{_t('your_bonus', lang)} **{p['bonus']:+d}**"]
    if p.get("modifiers_text"):
        lines.append(p["modifiers_text"])
    if p.get("proposed"):
        lines.append(_t("waiting_for_gm", lang))
    return "\n".join(lines)


def pending_text(pending: list[dict[str, Any]], lang: str) -> str:
    """The GM's list of saves waiting for a die (GET …/pending): the dashboard's words."""
    colon = _t("colon", lang)
    return "\n".join(f"{p['id']} · **{p['name']}** · {p['save']} {_t('prompt_against', lang)} {p['affliction']} · "
                     f"{_t('dc', lang)} {p['dc']}{colon}{p['at_text']}" for p in pending)
