"""Injury odds that read as time (issue 39, item 4), from the user's steps: `odds --injury piercing --d20 8 --bonus 5`
charted `0.104167 d` and dropped its likeliest rows; the dashboard labelled `0.0208333 … 0.125` "game days" and
said "0.03 days" where the CLI said "50 min"; a bar of 0.9% filled the chart; Temporary Paralysis said "never
heals without magic: 9.7%" above "for free: a long rest"; `odds --all` did not read at 80 columns, piped.

Now: durations in minutes, hours or days on both screens, every row, bars on one absolute scale (a full bar is
100%), three outcomes that add up to 100% with "treatment never heals it" defined once in words, and --all at the
console's width."""

from __future__ import annotations

import json
import re
import warnings

import pytest

from sawbones.presentation.typeset import span
from sawbones.presentation.locale import speaking

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app

ASKED = ("odds", "--injury", "piercing", "--d20", "8", "--bonus", "5")
BAR = re.compile(r"([█▏▎▍▌▋▊▉]*)·*")


def said(lang, words, *args):
    """What a typeset function writes for a reader of `lang`."""
    with speaking(lang):
        return words(*args)


@pytest.mark.parametrize("days, en, fr", [
    (0.0208333, "30 min", "30 min"), (0.0347, "50 min", "50 min"), (1 / 24, "1 hour", "1 heure"),
    (0.104167, "2.5 hours", "2,5 heures"), (0.125, "3 hours", "3 heures"), (1.5, "1.5 days", "1,5 jour"),
    (7.54, "7.54 days", "7,54 jours"), (None, "—", "—")])
def test_a_duration_in_the_unit_a_gm_speaks(days, en, fr):
    assert said("en", span, days) == en and said("fr", span, days) == fr


def _drawn(line: str) -> float:
    """How much of a 20-character bar a line's chart draws, in eighths of the whole."""
    cells = next(m.group(1) for m in BAR.finditer(line) if m.group(0) and len(m.group(0)) >= 20)
    return sum(8 if c == "█" else " ▏▎▍▌▋▊▉".index(c) for c in cells) / (20 * 8)


def test_the_cli_charts_every_row_in_time_on_an_absolute_scale(cli):
    doc = cli("--json", *ASKED).json
    out = cli(*ASKED).out
    assert "0.104167" not in out and "0.125 d" not in out and " d " not in out
    chart = out.split("time from the drop until treatment heals it:\n", 1)[1].splitlines()
    rows = [d for d in doc["days"] if d["p"] > 0]
    assert len(rows) == 6 and all(line.strip().startswith(said("en", span, d["days"])) for d, line in zip(rows, chart))
    for d, line in zip(rows, chart):  # the likeliest rows are there, each bar its own chance of the whole
        assert _drawn(line) == pytest.approx(d["p"], abs=1 / 160 + 1e-9)
    assert [line.split()[0] for line in chart[:2]] == ["30", "1"] and "55.0%" in chart[0]
    assert "on average, when it heals: 1.66 attempts, 50 min" in out


def test_never_heals_is_one_thing_said_in_words(cli):
    doc = cli("--json", *ASKED).json
    out = cli(*ASKED).out
    lines = {line.split("  ")[0]: line for line in out.splitlines()[1:4]}
    chances = [float(re.search(r"([\d.]+)%$", line).group(1)) for line in lines.values()]
    assert list(lines) == ["heals by treatment", "hand or foot lost", "treatment never heals it"]
    assert sum(chances) == pytest.approx(100, abs=0.15)  # three outcomes, one whole
    assert chances[2] == pytest.approx(100 * (doc["never_heals"] - doc["lost"]), abs=0.05)
    assert "treatment never heals it: only magic heals this injury, or its DC is beyond the healer's reach" in out
    assert "never heals without magic" not in out
    assert "for free, whatever the treatment: a long rest (8 hours)" in out
    fr = cli("--lang", "fr", *ASKED).out
    assert "les soins ne la guérissent jamais : seule la magie guérit cette blessure" in fr
    assert "2,5 heures" in fr and "1,66 essai, 50 min" in fr  # (French: plural from 2 on)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_odds_all_reads_at_80_columns_piped(cli, lang):
    out = cli("--lang", lang, "odds", "--all").out  # (captured: as piped, rich's 80 columns)
    assert out and max(len(line) for line in out.splitlines()) <= 80, out
    assert "…" not in out
    doc = cli("--json", "odds", "--all").json
    assert len([line for line in out.splitlines() if re.search(r"\s\d+\s+(\d+|<1|>99)\s", line)]) == len(doc["afflictions"])
    said = "un bonus sur" if lang == "fr" else "bonus shown (--json has all)"
    assert said in out  # which bonuses the table shows, when not all of them fit
    wide = cli("--lang", lang, "odds", "--all", "--bonus", "0..5").out
    assert said not in wide and all(f"+{b}" in wide for b in range(6))


def test_the_dashboard_charts_time_in_minutes_hours_and_days(db):
    app = create_app(lambda: Service.open(db))
    with TestClient(app, base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        client.get(client.post("/api/campaigns/Alpha/sign-in-link",
                               headers={"Authorization": f"Bearer {made['gm_secret']}"}).json()["gm_link"])
        page = client.get("/c/Alpha?itype=piercing&id20=8&ibonus=5").text
        fr = client.get("/c/Alpha?itype=piercing&id20=8&ibonus=5&lang=fr").text
    chart = page.split('class="treatment-odds"', 1)[1].split("</div>", 1)[0]
    assert "0.0208333" not in chart and "game days" not in chart and "0.03" not in chart
    whens = re.findall(r'<td class="num when">([^<]+)</td>', chart)
    assert whens == ["30 min", "1 hour", "1.5 hours", "2 hours", "2.5 hours", "3 hours"]  # every row
    widths = [float(w) for w in re.findall(r'<rect x="0" y="0" height="10" width="([\d.]+)"', chart)]
    assert widths[3:] == pytest.approx([55.0, 20.2, 8.7, 4.0, 1.8, 0.5], abs=0.06)  # 0.5% is a sliver, not a bar
    assert "<b>50 min</b>" in chart and "treatment never heals it: only magic heals this injury" in chart
    assert "a long rest (8 hours)" in chart
    assert "30 min" in fr and "2,5 heures" in fr and "les soins ne la guérissent jamais" in fr
