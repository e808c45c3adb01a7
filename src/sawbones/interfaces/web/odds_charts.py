"""The injury odds charts of the web pages (issue 17): one drop to 0 on `/tables/{type}` and the dashboard, and
an injury's treatment on the dashboard. Documents from domain/odds_injury.py and odds_treatment.py, with the
display names of the page's language; the template is `_injury_odds.html`."""

from __future__ import annotations

from typing import Any

from ...errors import SawbonesError


def drop_chart(rules: Any, options: dict[str, Any], table: str, lang: str) -> dict[str, Any]:
    """Each row's chance under each band (the campaign's first), the severities, magic only, permanent loss."""
    from ...domain.injuries.odds_drop import drop_doc

    doc = drop_doc(rules, options, table)
    bands = [doc["bands"]] + [b for b in doc["odds"] if b != doc["bands"]]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for band in bands:
        for row in doc["odds"][band]["rows"]:
            cell = rows.setdefault((row["d20"], row["severity"]), {
                "d20": row["d20"], "name": rules.injuries[row["injury"]].name(lang), "severity": row["severity"],
                "severity_name": rules.severities[row["severity"]].name(lang), "p": {}})
            cell["p"][band] = row["p"]
    return {
        "table": table, "name": rules.damage_tables[table].name(lang), "bands": bands,
        "band_names": {b: rules.band_sets[b].name(lang) for b in bands}, "rows": list(rows.values()),
        "severities": [{"id": sid, "name": s.name(lang), "p": {b: doc["odds"][b]["severity"][sid] for b in bands}}
                       for sid, s in rules.severities.items()],
        "magic_only": {b: doc["odds"][b]["magic_only"] for b in bands},
        "permanent_loss": {b: doc["odds"][b]["permanent_loss"] for b in bands},
    }


def _number(text: str | None, default: float, low: float, high: float, what: str, lang: str,
            whole: bool = True) -> float:
    """A number typed in the form (a French decimal comma read as a point), or the reason it is refused, in the
    page's language (ValueError)."""
    import math

    from . import i18n
    from ..odds_words import general

    if text in (None, ""):
        return default
    try:
        value = int(text) if whole else float(text.replace(",", "."))
    except ValueError:
        raise ValueError(i18n.text("odds_whole" if whole else "odds_number", lang).format(what=what, value=text)) \
            from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(i18n.text("odds_range", lang).format(what=what, low=general(low, lang), high=general(high, lang),
                                                              value=text))
    return value


def injury_panel(rules: Any, options: dict[str, Any], table: str, d20: str | None, bonus: str | None,
                 wait: str | None, lang: str) -> tuple[Any, Any]:
    """(chart, error): the drop chart of `table`, and with a d20 its treatment at the healer's bonus."""
    from ...adapters import odds_cache
    from ...domain.injuries.odds import MAX_BONUS, MAX_WAIT_DAYS, MIN_BONUS
    from ...domain.injuries.odds_treatment import treatment_doc

    from . import i18n

    try:
        face = _number(d20, 0, 1, 20, "d20", lang) if d20 not in (None, "") else None
        healer = int(_number(bonus, 5, MIN_BONUS, MAX_BONUS, i18n.text("healer_bonus", lang), lang))
        days = _number(wait, 0, 0, MAX_WAIT_DAYS, i18n.text("wait_days", lang), lang, whole=False)
    except ValueError as exc:
        return None, str(exc)
    try:
        chart = {"drop": drop_chart(rules, options, table, lang), "treatment": None,
                 "asked": {"d20": face, "bonus": healer, "wait": days}}
        if face is not None:
            with odds_cache.kept(rules, options):
                doc = treatment_doc(rules, options, table, int(face), healer, wait_days=days)
            doc["name"] = rules.injuries[doc["injury"]].name(lang)
            doc["severity_name"] = rules.severities[doc["severity"]].name(lang)
            days_rows = [d for d in doc["days"] if d["p"] >= 0.0005]
            top = max((d["p"] for d in days_rows), default=1) or 1
            doc["day_bars"] = [{**d, "w": d["p"] / top} for d in days_rows]
            chart["treatment"] = doc
    except SawbonesError as exc:
        return None, exc.message
    return chart, None
