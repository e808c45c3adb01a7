"""The names a GM types on a character's sheet, checked against the content as every other name is
(content/rules.py `resolve`: an id, or a name in either language, accent-blind; else "did you mean"): abilities
(`force=16` is str), saves (fortitude, Vigueur, or an ability), skills (`medecine=5` is medicine; `medicin` gets
"did you mean Medicine?") and proficiencies (a skill's name becomes its id; a name close to a skill's but none is
refused; another, a tool or a weapon the content does not list, is kept as typed: `herbalism kit` is
herbalism_kit). The command line and the dashboard's forms read a sheet through here."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from ..errors import NotFound

if TYPE_CHECKING:
    from ..content.rules import Rules


def named_sheet(rules: Rules, sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet with every typed name as its content id (NotFound, with "did you mean", naming the first that is
    not one)."""
    out = dict(sheet)
    for key, section in (("abilities", ("abilities",)), ("saves", ("saves", "abilities")), ("skills", ("skills",))):
        if isinstance(out.get(key), dict):
            out[key] = {_resolve(rules, section, str(name)): value for name, value in out[key].items()}
    if isinstance(out.get("proficiencies"), list):
        out["proficiencies"] = [_proficiency(rules, str(p)) for p in out["proficiencies"]]
    return out


def _resolve(rules: Rules, sections: tuple[str, ...], typed: str) -> str:
    """The id in the first section that knows the name; else the first section's "did you mean" (or a later one's
    when only it has a close name: `constitutoin` for a save is close to the ability)."""
    errors = []
    for section in sections:
        try:
            return rules.resolve(section, typed)
        except NotFound as exc:
            errors.append(exc)
    raise next((e for e in errors if "did you mean" in str(e)), errors[0])


def _proficiency(rules: Rules, typed: str) -> str:
    try:
        return rules.resolve("skills", typed)
    except NotFound as exc:
        folded = typed.strip().casefold().replace(" ", "_").replace("-", "_")
        names = [n.casefold() for skill in rules.skills.values() for n in (skill.id, skill.name.en, skill.name.fr)]
        if difflib.get_close_matches(folded.replace("_", " "), names, n=1, cutoff=0.75):
            raise exc  # a skill mistyped ("medecin"): said with its "did you mean"
        return folded
