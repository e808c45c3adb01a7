"""A disease's or a poison's lines in the status view (`sawbones status`, `affliction show`): its track(s) as a
ladder, the current stage in words, what is due, the cure streak."""

from __future__ import annotations

from typing import Any, Callable

from .locale import _

A: dict[str, Callable[..., str]] = {
    "active": lambda **f: _("active", **f),
    "eliminated": lambda **f: _("out of the system, recovering", **f),
    "end_state": lambda **f: _("end state", **f),
    "cured": lambda **f: _("cured (after-effects)", **f),
    "halted": lambda **f: _("halted", **f),
    "disease": lambda **f: _("disease", **f),
    "poison": lambda **f: _("poison", **f),
    "stage_now": lambda **f: _("stage now: {stage}", **f),
    "next_save": lambda **f: _("next save: {when} ({due})", **f),
    "saves_left": lambda **f: _("saves left: {n} ({span})", **f),
    "streak": lambda **f: _("cure streak: {current}/{needed}", **f),
    "failures": lambda **f: _("failures: {banked}/{needed}", **f),
    "waiting": lambda **f: _("waiting for a die: {ids}", **f),
    "permanent": lambda **f: _("permanent: {name} (removed by {by})", **f),
    "permanent_once_gone": lambda **f: _("permanent: {name} (removed by {by}, once the affliction is gone)", **f),
    "ability_damage": lambda **f: _("ability damage: {list}", **f),
    "cure": lambda **f: _("cure: {text}", **f),
}


def render_affliction(a: dict[str, Any], con: Any) -> None:
    """One disease or poison: its track(s) as a ladder, the current stage in words, what is due, the cure streak."""
    from rich.markup import escape

    def said(key: str, **fields: Any) -> str:
        return A[key](**fields)

    status = said("halted") if a["status"] == "eliminated" and a["kind"] == "disease" else (
        said(a["status"]) if a["status"] in A else a["status"])
    kind = said(a["kind"]) if a["kind"] in A else a["kind"]
    con.print(f"  [bold magenta]{a['id']} {escape(a['name'])}[/] · {kind} · {_('DC')} {a['dc']} · {status}")
    for t in a["tracks"]:
        steps, now = [], None
        for st in t["ladder"]:
            label = escape(st["name"]) + ("†" if st["end_state"] else "")
            if st["current"]:
                now = st["name"]
            steps.append(f"[reverse]\\[{label}][/]" if st["current"] else (f"[red]{label}[/]" if st["reached"] else label))
        con.print("     " + " › ".join(steps))
        if now is not None:
            con.print("     " + said("stage_now", stage=escape(now)))
    parts = []
    if a.get("next_save"):
        parts.append(said("next_save", when=a["next_save"]["text"], due=a["next_save"]["in_text"]))
    if a.get("remaining"):
        parts.append(said("saves_left", n=a["remaining"]["saves"], span=a["remaining"]["text"]))
    if a["streak"]["needed"]:
        parts.append(said("streak", current=a["streak"]["current"], needed=a["streak"]["needed"]))
    if a.get("failures"):
        parts.append(said("failures", banked=a["failures"]["banked"], needed=a["failures"]["needed"]))
    if a.get("pending"):
        parts.append(said("waiting", ids=", ".join(a["pending"])))
    if parts:
        con.print("     " + " · ".join(parts))
    for p in a.get("permanent", []):
        con.print("     " + said("permanent_once_gone" if p.get("once_gone") else "permanent", name=escape(p["name"]),
                                by=", ".join(p.get("removed_by_names", p["removed_by"])) or "—"))
    if a.get("ability_damage"):
        con.print("     " + said("ability_damage", list=", ".join(f"{k} -{v}" for k, v in a["ability_damage"].items())))
    con.print("     " + said("cure", text=escape(a["cure"])))
