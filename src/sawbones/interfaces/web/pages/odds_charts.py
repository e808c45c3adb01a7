"""The injury odds charts of the web pages (issue 17): one drop to 0 on `/tables/{type}` and the dashboard, an
injury's treatment and the party's what-if on the dashboard. Documents from domain/injuries/odds_drop.py,
odds_treatment.py and odds_party.py, with the display names of the page's language; the template is
`_injury_odds.html`."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from ....errors import SawbonesError
from ....message import Message, msg
from ....presentation.locale import _, name, say
from ..http.errors import said
from ....presentation.odds_words import CHANGED, PER_SESSION, tone
from ....presentation.typeset import general

if TYPE_CHECKING:
    from ....content.rules import Rules


class Refused(ValueError):
    """A number typed in an odds form that the form does not take (its Message says why)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.text = message


def drop_chart(rules: Rules, options: dict[str, Any], table: str) -> dict[str, Any]:
    """Each row's chance under each band (the campaign's first), the severities, magic only, permanent loss."""
    from ....domain.injuries.odds_drop import drop_doc

    doc = drop_doc(rules, options, table)
    bands = [doc["bands"]] + [b for b in doc["odds"] if b != doc["bands"]]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for band in bands:
        for row in doc["odds"][band]["rows"]:
            cell = rows.setdefault((row["d20"], row["severity"]), {
                "d20": row["d20"], "name": name(rules.injuries[row["injury"]].name), "severity": row["severity"],
                "severity_name": name(rules.severities[row["severity"]].name), "p": {}})
            cell["p"][band] = row["p"]
    return {
        "table": table, "name": name(rules.damage_tables[table].name), "bands": bands,
        "band_names": {b: name(rules.band_sets[b].name) for b in bands}, "rows": list(rows.values()),
        "severities": [{"id": sid, "name": name(s.name), "p": {b: doc["odds"][b]["severity"][sid] for b in bands}}
                       for sid, s in rules.severities.items()],
        "magic_only": {b: doc["odds"][b]["magic_only"] for b in bands},
        "permanent_loss": {b: doc["odds"][b]["permanent_loss"] for b in bands},
    }


def _number(text: str | None, default: float, low: float, high: float, what: str, whole: bool = True) -> float:
    """A number typed in the form (a French decimal comma read as a point), or the reason it is refused (Refused)."""
    import math

    if text in (None, ""):
        return default
    from ....numbers import parse_int

    try:
        number = parse_int(text, signed=True) if whole else None
        if whole and number is None:
            raise ValueError(text)
        value = number if number is not None else float(str(text).replace(",", "."))
    except ValueError:
        raise Refused(msg("{what}: a whole number, not {value!r}", what=what, value=text) if whole
                      else msg("{what}: a number, not {value!r}", what=what, value=text)) from None
    if not math.isfinite(value) or not low <= value <= high:
        raise Refused(msg("{what}: from {low} to {high}, not {value}", what=what, low=general(low),
                          high=general(high), value=text))
    return value


def injury_panel(rules: Rules, options: dict[str, Any], table: str, d20: str | None, bonus: str | None,
                 wait: str | None) -> tuple[Any, Any]:
    """(chart, error): the drop chart of `table`, and with a d20 its treatment at the healer's bonus."""
    from ....adapters import odds_cache
    from ....domain.injuries.odds import MAX_BONUS, MAX_WAIT_DAYS, MIN_BONUS
    from ....domain.injuries.odds_treatment import treatment_doc
    from ....presentation.odds_words import rest_words, treatment_rows, treatment_words
    from ....presentation.typeset import span

    try:
        face = _number(d20, 0, 1, 20, "d20") if d20 not in (None, "") else None
        healer = int(_number(bonus, 5, MIN_BONUS, MAX_BONUS, _("healer's bonus")))
        days = _number(wait, 0, 0, MAX_WAIT_DAYS, _("days before treatment"), whole=False)
    except Refused as exc:
        return None, say(exc.text)
    try:
        chart = {"drop": drop_chart(rules, options, table), "treatment": None,
                 "asked": {"d20": face, "bonus": healer, "wait": days}}
        if face is not None:
            with odds_cache.kept(rules, options):
                doc = treatment_doc(rules, options, table, int(face), healer, wait_days=days)
            doc["name"] = name(rules.injuries[doc["injury"]].name)
            doc["severity_name"] = name(rules.severities[doc["severity"]].name)
            # every row, in the unit a GM speaks, each bar on the same absolute scale (a full bar is 100%)
            doc["day_bars"] = [{**d, "w": d["p"], "when": span(d["days"])} for d in doc["days"] if d["p"] > 0]
            doc["outcomes"] = [{"key": key, "name": treatment_words(words), "p": p}
                               for key, words, p in treatment_rows(doc)]
            doc["words"] = {key: treatment_words(key) for key in ("never_means", "on_average", "until_healed",
                                                                        "for_free")}
            doc["expected_when"] = span(doc["expected_days"])
            doc["free"] = rest_words(doc["rest"])
            chart["treatment"] = doc
    except SawbonesError as exc:
        return None, said(exc.text)
    return chart, None


def what_if_panel(rules: Rules, options: dict[str, Any], drops: str | None, bonus: str | None) -> tuple[Any, Any]:
    """(chart, error): the party's injuries per session under the campaign's options and under each other value
    of each injury option that changes a number (odds_party.what_if, every damage type alike), with each
    option's help in the page's language and each change's way (better or worse)."""
    from functools import partial

    from ....presentation import views
    from ....adapters import odds_cache
    from ....domain.injuries import odds_party
    from ....domain.injuries.odds import MAX_BONUS, MIN_BONUS

    try:
        per_session = _number(drops, 1, 0, odds_party.MAX_PER_SESSION, _("drops to 0 per session"), whole=False)
        healer = int(_number(bonus, 5, MIN_BONUS, MAX_BONUS, _("healer's bonus")))
        doc = odds_party.what_if(rules, options, odds_party.Profile(drops=per_session, bonus=healer),
                                 keep=partial(odds_cache.kept, rules))
    except Refused as exc:
        return None, say(exc.text)
    except SawbonesError as exc:
        return None, said(exc.text)
    base = doc["base"]
    helps = {o["id"]: o["help"] for o in views.options_doc(rules, options)["options"]}

    def numbers(profile: dict[str, Any]) -> list[dict[str, Any]]:
        out = [{"name": name(s.name), "value": profile["injuries"][sid], "delta": profile["injuries"][sid] -
                base["injuries"][sid], "tone": ""} for sid, s in rules.severities.items()]
        if profile["npc_injuries"] or base["npc_injuries"]:
            out.append({"name": _("NPC"), "value": profile["npc_injuries"],
                        "delta": profile["npc_injuries"] - base["npc_injuries"], "tone": ""})
        for key, *words, better in PER_SESSION:  # (words: the English template first)
            delta = profile[key] - base[key]
            out.append({"name": _(words[0]), "value": profile[key], "delta": delta,
                        "tone": tone(better, delta)})
        return out

    return {
        "drops": per_session, "bonus": healer, "base": numbers(base),
        "variants": _grouped([{"option": v["option"], "value": views.shown(v["value"]),
                               "help": helps.get(v["option"], ""),
                               "numbers": [n for n in numbers(v["profile"]) if abs(n["delta"]) > CHANGED]}
                              for v in doc["variants"]]),
        "unchanged": sorted({u["option"] for u in doc["unchanged"]} - {v["option"] for v in doc["variants"]}),
        # (the engine's own words name the CLI's flags: on the page, what it means)
        "not_compared": [{"option": n["option"], "value": views.shown(n["value"]),
                          "why": _("a call the GM makes at the table, which the odds cannot make")} for n in doc["not_compared"]],
    }, None


def _grouped(variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The values of one option that change the same numbers alike, as one entry ("long_rests:1, long_rests:2")."""
    out: list[dict[str, Any]] = []
    for v in variants:
        same = out and out[-1]["option"] == v["option"] and \
            [(n["name"], round(n["value"], 6)) for n in out[-1]["numbers"]] == \
            [(n["name"], round(n["value"], 6)) for n in v["numbers"]]
        if same:
            out[-1]["value"] += ", " + v["value"]
        else:
            out.append(dict(v))
    return out
