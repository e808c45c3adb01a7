"""`sawbones odds --injury/--party`, its API routes and charts, and the bounds of every numeric `odds` option
(issue 17; issue 20 item 8): what a GM types, in both languages, and bad input as one clear line."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app


def test_one_drop_in_both_languages(cli):
    out = cli("odds", "--injury", "slashing")
    assert out.code == 0, out.err
    assert "Lose a Foot or Hand" in out.out and "lenient" in out.out
    assert "permanent loss (eye, hand, foot) before any treatment: standard 10.0% · lenient 5.0%" in out.out
    fr = cli("--lang", "fr", "odds", "--injury", "slashing")
    assert "Perte d'un pied ou d'une main" in fr.out and "clémente" in fr.out and "Sérieuse" in fr.out
    doc = cli("--json", "odds", "--injury", "acid").json
    assert doc["odds"]["standard"]["lost"]["eyes"] == pytest.approx(0.1)


def test_treatment_and_deadline(cli):
    doc = cli("--json", "odds", "--injury", "fire", "--d20", "1", "--bonus", "5", "--wait", "2").json
    assert doc["injury"] == "severe_burn" and doc["lost"] == pytest.approx(0.5 + 0.5 * 0.95)
    assert [a["days"] for a in doc["per_attempt"]] == list(range(4, 17))  # 4d4 days of bed rest
    text = cli("odds", "--injury", "slashing", "--d20", "12", "--bonus", "2", "--self").out
    assert "2d20kl1" in text and "a Hit Die on a short rest" in text
    table = cli("odds", "--injury", "slashing", "--d20", "3", "--bonus", "0..3")
    assert table.code == 0 and "+3" in table.out


def test_party_what_if(cli):
    doc = cli("--json", "odds", "--party", "--types", "slashing", "--drops", "2", "--bonus", "30",
              "--compare", "severity_bands").json
    assert doc["base"]["permanent_losses_per_10"] == pytest.approx(2.0)
    assert doc["variants"][0]["option"] == "severity_bands"
    text = cli("--lang", "fr", "odds", "--party", "--types", "fire=2,cold", "--compare", "severity_bands").out
    assert "pertes définitives pour 10 séances" in text and "severity_bands = lenient" in text


@pytest.mark.parametrize("args, where", [
    (("odds", "deathblade", "--doses", "1000000"), "--doses"),
    (("odds", "deathblade", "--days", "nan"), "--days"),
    (("odds", "deathblade", "--days", "inf"), "--days"),
    (("odds", "deathblade", "--days", "1e308"), "--days"),
    (("odds", "deathblade", "--bonus", "99999999999"), "--bonus"),
    (("odds", "--injury", "fire", "--d20", "21"), "--d20"),
    (("odds", "--injury", "fire", "--d20", "1", "--wait", "nan"), "--wait"),
    (("odds", "--injury", "fire", "--d20", "1", "--bonus", "31"), "--bonus"),
    (("odds", "--party", "--drops", "inf"), "--drops"),
    (("odds", "--party", "--types", "fire=nan"), "--types"),
    (("odds", "--party", "--compare", "nope"), "nope"),
    (("odds", "--injury", "nope"), "nope"),
    (("odds", "deathblade", "--d20", "3"), "--d20"),
])
def test_bad_numbers_are_one_clear_line(cli, args, where):
    out = cli(*args)
    assert out.code in (1, 2), out
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and where in lines[0], out.err


@pytest.fixture
def client(db):
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def test_api_matches_the_cli(client, cli):
    created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
    client.headers["Authorization"] = f"Bearer {created['gm_secret']}"
    drop = client.get("/api/campaigns/Alpha/odds/injuries/fire")
    assert drop.status_code == 200
    assert drop.json() == cli("--json", "--campaign", "Alpha", "odds", "--injury", "fire").json
    api = client.get("/api/odds/injuries/cold/treatment", params={"d20": 4, "bonus": 5}).json()
    assert api == {**cli("--json", "odds", "--injury", "cold", "--d20", "4", "--bonus", "5").json, "campaign": None}
    party = client.get("/api/odds/party", params={"types": "slashing", "drops": 2, "bonus": 30,
                                                  "compare": "severity_bands"}).json()
    assert party["base"]["permanent_losses_per_10"] == pytest.approx(2.0)


@pytest.mark.parametrize("path, params, where", [
    ("/api/odds/injuries/fire/treatment", {"d20": 1, "wait": "nan"}, "query.wait"),
    ("/api/odds/injuries/fire/treatment", {"d20": 0}, "query.d20"),
    ("/api/odds/injuries/fire/treatment", {"d20": 1, "bonus": 99}, "query.bonus"),
    ("/api/odds/party", {"drops": "1e308"}, "query.drops"),
    ("/api/odds/party", {"types": "fire=inf"}, "types"),
    ("/api/odds/deathblade", {"days": "inf"}, "query.days"),
    ("/api/odds/deathblade", {"doses": 1000000}, "query.doses"),
])
def test_api_bounds(client, path, params, where):
    response = client.get(path, params=params)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["where"] == where


def test_charts_on_the_tables_page_and_the_dashboard(client):
    page = client.get("/tables/slashing")
    assert page.status_code == 200 and 'class="injury-odds"' in page.text and "10.0%" in page.text
    created = client.post("/api/campaigns", json={"name": "Beta", "seed": 7}).json()
    client.get(created["gm_link"])  # the one-time sign-in link signs this client in
    dash = client.get("/c/Beta", params={"itype": "fire", "id20": "1", "ibonus": "5"})
    assert dash.status_code == 200 and 'class="treatment-odds"' in dash.text and "95.0%" in dash.text
    bad = client.get("/c/Beta", params={"itype": "fire", "id20": "1", "iwait": "nan"})
    assert bad.status_code == 200 and "days before treatment: from 0 to 30, not nan" in bad.text


def test_the_dashboard_what_if_says_what_each_option_changes(client):
    """The GM asks the what-if on the dashboard: the party's numbers under the campaign's options, then each
    option value that changes one, as the API computes them; an option that changes nothing is listed as such;
    a worse change and a better one are told apart; a bad number is one clear line."""
    import re

    from test_pages_in_french import visible

    created = client.post("/api/campaigns", json={"name": "Gamma", "seed": 7}).json()
    client.get(created["gm_link"])
    client.headers["Authorization"] = f"Bearer {created['gm_secret']}"
    api = client.get("/api/campaigns/Gamma/odds/party", params={"drops": 2, "bonus": 3, "compare": "all"}).json()
    page = client.get("/c/Gamma", params={"whatif": "1", "wdrops": "2", "wbonus": "3"})
    assert page.status_code == 200 and 'class="what-if-odds"' in page.text
    panel = page.text.split('id="what-if"', 1)[1].split("</section>", 1)[0]
    base = api["base"]
    assert f"Critical <b>{base['injuries']['critical']:.2f}</b>" in panel
    assert f"permanent losses per 10 sessions <b>{base['permanent_losses_per_10']:.2f}</b>" in panel
    shown = set(re.findall(r'data-option="([a-z_]+)"', panel))
    assert shown == {v["option"] for v in api["variants"]}
    lenient = next(v["profile"] for v in api["variants"] if v["option"] == "severity_bands")
    assert lenient["permanent_losses_per_10"] < base["permanent_losses_per_10"]
    block = panel.split('data-option="severity_bands"', 1)[1].split('class="variant"', 1)[0]
    delta = lenient["permanent_losses_per_10"] - base["permanent_losses_per_10"]
    assert f'<span class="delta better">(-{abs(delta):.2f})</span>' in block  # fewer losses: better
    assert "delta worse" in panel.split('data-option="deadline_satisfied_by"', 1)[1].split('class="variant"', 1)[0]
    texts = " ".join(visible(panel))
    assert "no effect on these numbers: " in texts and "reveal_deadline" in texts
    bad = client.get("/c/Gamma", params={"whatif": "1", "wdrops": "many"})
    assert "drops to 0 per session: a number, not 'many'" in visible(bad.text)
