"""What a new GM met, round 2: lists with no safe default start empty and must be chosen, hit points below the
system's floor refused wherever they are set, one reading of a roll's bonus, names checked with "did you mean"."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app


@pytest.fixture
def app(db):
    return create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)


def made(app, *names: str, system: str = "dnd5e") -> tuple[TestClient, dict, dict]:
    api = TestClient(app, base_url="http://testserver")
    created = api.post("/api/campaigns", json={"name": "Alpha", "seed": 7, "system": system})
    assert created.status_code == 201, created.text
    doc = created.json()
    gm = {"Authorization": f"Bearer {doc['gm_secret']}"}
    for name in names:
        assert api.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 20},
                        headers=gm).status_code == 201
    browser = TestClient(app, base_url="http://testserver")
    assert browser.get(doc["gm_link"].split("testserver", 1)[-1]).status_code == 200
    return browser, api, gm


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def flash(html: str) -> str:
    found = re.search(r'<div class="flash toast flash-(\w+)"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no flash on the page"
    return found.group(1) + ": " + re.sub(r"<[^>]+>", " ", found.group(2))


# ------------------------------------------------------------------ 1. no list preselects its first item


def selects(html: str) -> dict[str, list[str]]:
    """Every <select> of a page: its name -> the value each time it appears selected (the browser's choice)."""
    out: dict[str, list[str]] = {}
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        options = re.findall(r'<option value="([^"]*)"([^>]*)>', body)
        chosen = next((v for v, attrs in options if "selected" in attrs), options[0][0] if options else "")
        out.setdefault(name, []).append(chosen)
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_dashboard_list_without_a_safe_default_starts_on_an_item(app, lang):
    """Spell, damage type, disease, body part, character: each starts on "— choose —" in both languages (the
    first item was Cure Wounds in English and Heal in French, Acid damage, Black Lotus Extract)."""
    browser, api, gm = made(app, "Aria", "Borin")
    assert api.post("/api/campaigns/Alpha/injure", json={"character": "aria", "type": "slashing", "d20": 10},
                    headers=gm).status_code == 200
    html = browser.get(f"/c/Alpha?lang={lang}").text
    found = selects(html)
    for name in ("spell", "parts.0.type", "type", "affliction", "character", "option", "odds", "itype", "table"):
        assert name in found, name
        assert set(found[name]) == {""}, (name, found[name])
    assert ("— choisir —" if lang == "fr" else "— choose —") in html


@pytest.mark.parametrize("lang, said", [("en", "Choose a damage type."), ("fr", "Choisissez un type de dégâts.")])
def test_damage_without_a_type_is_refused_with_what_to_choose(app, lang, said):
    browser, api, gm = made(app, "Aria")
    page = browser.get(f"/c/Alpha?lang={lang}")
    sent = browser.post("/c/Alpha/act/damage", data={"csrf": csrf_of(page.text), "character": "aria",
                                                     "parts.0.amount": "7", "parts.0.type": "", "back": "party"})
    assert flash(sent.text).startswith("error") and said in flash(sent.text)
    assert api.get("/api/campaigns/Alpha/characters/aria", headers=gm).json()["hp"] == 20  # nothing dealt


@pytest.mark.parametrize("lang, said", [("en", "Choose a spell."), ("fr", "Choisissez un sort.")])
def test_heal_without_a_spell_casts_nothing(app, lang, said):
    browser, api, gm = made(app, "Aria")
    version = api.get("/api/campaigns/Alpha", headers=gm).json()["version"]
    page = browser.get(f"/c/Alpha?lang={lang}")
    sent = browser.post("/c/Alpha/act/heal", data={"csrf": csrf_of(page.text), "character": "aria", "spell": "",
                                                   "hp": "5", "back": "actions"})
    assert said in flash(sent.text)
    assert api.get("/api/campaigns/Alpha", headers=gm).json()["version"] == version


# ------------------------------------------------------------------ 7. HP below the system's floor


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_negative_hp_refused_in_a_5e_campaign_on_the_command_line(cli, lang):
    assert cli("campaign", "create", "Five", "--system", "dnd5e").code == 0
    refused = cli("--lang", lang, "character", "add", "Aria", "--max-hp", "20", "--hp", "-3")
    assert refused.code == 2 and "-3" in refused.err and "Traceback" not in refused.err
    assert ("0" in refused.err) and ("hit points" in refused.err if lang == "en" else "points de vie" in refused.err)
    assert cli("character", "add", "Aria", "--max-hp", "20").code == 0
    assert cli("character", "edit", "Aria", "--hp", "-3").code == 2
    assert "20/20" in cli("status", "Aria").out


def test_negative_hp_refused_through_the_api_and_allowed_in_pf1e(app):
    _, api, gm = made(app, "Aria")
    assert api.patch("/api/campaigns/Alpha/characters/aria", json={"hp": -3}, headers=gm).status_code in (400, 422)
    assert api.post("/api/campaigns/Alpha/characters", json={"name": "Borin", "max_hp": 20, "hp": -1},
                    headers=gm).status_code in (400, 422)


def test_negative_hp_stays_a_pf1e_state(cli):
    assert cli("campaign", "create", "Pf", "--system", "pf1e").code == 0
    assert cli("character", "add", "Bob", "--max-hp", "20", "--hp", "-3").code == 0


# ------------------------------------------------------------------ 2. one reading of a roll's bonus


def player_table(app, sheet: dict) -> tuple:
    """Campaign Alpha (5e, who_rolls players) with Aria (this save sheet) and her player's token."""
    _, api, gm = made(app)

    def act(action, body, method="POST"):
        done = api.request(method, f"/api/campaigns/Alpha/{action}", json=body, headers=gm)
        assert done.status_code in (200, 201), done.text
        return done.json()

    act("characters", {"name": "Aria", "max_hp": 30, "saves": sheet})
    link = api.get("/api/campaigns/Alpha/characters/Aria/player-link", headers=gm)
    return api, act, link.json()["url"].rsplit("/", 1)[1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_player_with_nothing_applying_reads_no_row_of_plus_zero(app, lang):
    api, act, token = player_table(app, {"con": 4})
    page = api.get(f"/p/{token}?lang={lang}", headers={"Accept-Language": lang}).text
    rolls = page[page.index('class="panel your-rolls"'):page.index('id="since"')]
    assert 'class="roll-line"' not in rolls and "+0" not in rolls
    assert ("Rien ne change vos jets" if lang == "fr" else "Nothing changes your rolls") in rolls


def test_the_list_and_the_prompt_and_mods_give_one_bonus_with_its_parts(app, cli, db):
    """The prompt said "your bonus +4 (sheet +4)" and the list `Constitution save +0`: now each says the sheet's
    value plus the effects (Filth Fever's impaired stage: exhausted, disadvantage on saves)."""
    api, act, token = player_table(app, {"con": 4})
    act("options/who_rolls", {"value": "players"}, method="PUT")
    act("expose", {"character": "Aria", "affliction": "filth_fever", "save": 1, "deadly": "impaired"})
    act("advance", {"duration": "1d"})
    view = api.get(f"/api/player/{token}").json()
    con = next(r for r in view["rolls"] if r["roll"] == "save_con")
    prompt = view["prompts"][0]
    assert con["applies"] and con["sheet"] == 4 and con["bonus"] == prompt["bonus"] == 4
    assert con["parts"].startswith("sheet +4") and "disadvantage" in con["parts"]
    page = api.get(f"/p/{token}").text
    rolls = page[page.index('class="panel your-rolls"'):page.index('id="since"')]
    assert 'data-roll="save_con"' in rolls and 'class="mod-total">+4<' in rolls and "sheet +4" in rolls
    out = cli("--campaign", "Alpha", "mods", "Aria", "save", "--save", "con").out
    assert "bonus +4 (sheet +4" in out and "(D&D 5e)" in out and "(dnd5e)" not in out


# ------------------------------------------------------------------ 4. `mods` reads the page's labels


@pytest.mark.parametrize("label, said", [
    ("Strength check", "Strength"), ("Ranged attack", "ranged"), ("Attack (left hand)", "left hand"),
    ("test de Force", "Strength"), ("Attaque (main gauche)", "left hand"), ("Wisdom check", "Wisdom"),
    ("Constitution save", "Constitution save"), ("jet de sauvegarde de Sagesse", "Wisdom save")])
def test_mods_accepts_the_labels_the_players_page_shows(cli, label, said):
    assert cli("campaign", "create", "Five", "--system", "dnd5e").code == 0
    assert cli("character", "add", "Aria", "--max-hp", "20").code == 0
    answered = cli("mods", "Aria", label)
    assert answered.code == 0, answered.err
    assert said in answered.out.splitlines()[0]


# ------------------------------------------------------------------ 3. who_rolls gm: nobody waits for the player


@pytest.mark.parametrize("lang, gm_die, player_die", [("en", "waits for the GM's die", "player's die"),
                                                      ("fr", "attend le dé du MJ", "dé du joueur")])
def test_a_save_the_gm_rolls_never_says_it_waits_for_the_player(cli, lang, gm_die, player_die):
    for args in (("campaign", "create", "Five", "--system", "dnd5e", "--seed", "3"),
                 ("character", "add", "Aria", "--max-hp", "20"), ("campaign", "set", "who_rolls", "gm"),
                 ("expose", "Aria", "filth_fever", "--save", "1")):
        assert cli(*args).code == 0, args
    advanced = cli("--lang", lang, "advance", "2d")
    assert advanced.code == 0 and player_die not in advanced.out and "joueur" not in advanced.out, advanced.out
    log = cli("--lang", lang, "log").out
    assert gm_die in log and player_die not in log, log


# ------------------------------------------------------------------ 5. names on a sheet checked against the content


def test_sheet_names_typed_in_either_language_become_their_ids(cli):
    assert cli("campaign", "create", "Five", "--system", "dnd5e").code == 0
    added = cli("--json", "character", "add", "Bob", "--abilities", "force=16", "--saves", "vigueur=3",
                "--skills", "medecine=5", "--prof", "Médecine,herbalism kit")
    assert added.code == 0, added.err
    doc = added.json
    assert doc["abilities"]["str"] == 16 and doc["skills"] == {"medicine": 5}
    assert doc["proficiencies"] == ["medicine", "herbalism_kit"] and "fortitude" in doc["saves"]


@pytest.mark.parametrize("args, said", [
    (("--skills", "medicin=5"), "did you mean Medicine"), (("--prof", "medecin"), "did you mean Médecine"),
    (("--abilities", "forse=3"), "did you mean Force"), (("--saves", "vigeur=1"), "did you mean Vigueur")])
def test_a_mistyped_sheet_name_is_refused_with_did_you_mean(cli, args, said):
    assert cli("campaign", "create", "Five", "--system", "dnd5e").code == 0
    refused = cli("character", "add", "Bob", *args)
    assert refused.code == 2 and said in refused.err and "Traceback" not in refused.err
    assert "Bob" not in cli("status").out  # nothing half written


def test_the_dashboard_form_reads_sheet_names_as_the_cli_does(app):
    browser, api, gm = made(app)
    page = browser.get("/c/Alpha?lang=fr")
    sent = browser.post("/c/Alpha/act/add_character", data={
        "csrf": csrf_of(page.text), "name": "Bob", "max_hp": "12", "abilities_text": "force=16",
        "skills_text": "medecine=5", "back": "add"})
    assert flash(sent.text).startswith("done"), flash(sent.text)
    bob = api.get("/api/campaigns/Alpha/characters/bob", headers=gm).json()
    assert bob["abilities"]["str"] == 16 and bob["skills"] == {"medicine": 5}
    refused = browser.post("/c/Alpha/act/add_character", data={
        "csrf": csrf_of(page.text), "name": "Cid", "max_hp": "12", "skills_text": "medicin=5", "back": "add"})
    assert "vouliez-vous dire" in flash(refused.text)


# ------------------------------------------------------------------ 6. each wrong or partial message


def test_a_bad_host_is_said_to_be_the_host_not_the_port(cli):
    refused = cli("serve", "--host", "999.1.1.1", "--port", "8123")
    assert refused.code == 2 and "--host" in refused.err and "--port" not in refused.err


def test_serve_qr_without_demo_is_refused(cli):
    refused = cli("serve", "--qr", "--port", "8124")
    assert refused.code == 2 and "--demo" in refused.err


def test_long_and_short_rest_at_once_is_refused_as_such(cli):
    assert cli("campaign", "create", "Five").code == 0
    refused = cli("rest", "--long", "--short", "Aria")
    assert refused.code == 2 and "not both" in refused.err and "NAME" not in refused.err


@pytest.mark.parametrize("lang", ["FR", "Fr", "EN"])
def test_lang_in_capitals_is_taken(cli, lang):
    assert cli("--lang", lang, "campaign", "list").code == 0


def test_a_duplicate_character_is_named_as_written(cli):
    assert cli("campaign", "create", "Five").code == 0
    assert cli("character", "add", "Aria").code == 0
    refused = cli("character", "add", "aria")
    assert refused.code == 2 and "'Aria'" in refused.err and "'aria'" not in refused.err


def test_an_empty_campaign_name_is_refused(cli):
    assert cli("campaign", "create", "Five").code == 0
    refused = cli("--campaign", "", "status")
    assert refused.code == 2 and "--campaign" in refused.err


def test_a_missing_db_folder_is_a_usage_error_exit_2(tmp_path, capsys):
    from sawbones.interfaces.cli import main

    assert main(["--db", str(tmp_path / "nope" / "x.db"), "campaign", "create", "X"]) == 2
    assert "--db" in capsys.readouterr().err


def test_a_cut_list_of_names_says_so(cli):
    assert cli("campaign", "create", "Five").code == 0
    refused = cli("campaign", "set", "zz", "1")
    assert refused.code == 2 and "more)" in refused.err


def test_a_link_to_a_stopped_server_warns(cli, db):
    from sawbones.application.service import Service
    from sawbones.presentation import links

    assert cli("campaign", "create", "Five").code == 0
    links.remember(Service.open(db).store, "http://127.0.0.1:9")  # (the discard port: nothing listens)
    printed = cli("gm-link")
    assert printed.code == 0 and printed.out.startswith("http://127.0.0.1:9/") and "no server answers" in printed.err


# ------------------------------------------------------------------ 8. no English left in French


def test_system_words_and_click_words_in_french(cli, tmp_path):
    assert cli("campaign", "create", "Five").code == 0
    export = cli("--lang", "fr", "export", str(tmp_path / "nope" / "x.json"))
    assert export.code != 0 and "No such file" not in export.err and "Aucun fichier" in export.err
    assert "Could not open" not in export.err


def test_sqlite_words_in_french(tmp_path, capsys):
    from sawbones.interfaces.cli import main

    bad = tmp_path / "bad.db"
    bad.write_text("not a database at all, some text " * 100)
    assert main(["--lang", "fr", "--db", str(bad), "status"]) != 0
    err = capsys.readouterr().err
    assert "file is not a database" not in err and "n'est pas une base de données" in err


def test_the_apis_errors_say_the_systems_words_in_french(tmp_path, db, cli, monkeypatch):
    """A campaign's content pack the server cannot read: the API's JSON error carries the system's reason, in the
    client's language (Accept-Language: fr) and never in English. (Root reads any file: the read fails as the system
    says it, `PermissionError(EACCES, "Permission denied")`, whoever runs the test.)"""
    import builtins
    import errno

    from sawbones.content import loader
    from sawbones.presentation.system_words import PHRASES

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "extra.yaml").write_text("{}\n", encoding="utf-8")
    assert cli("campaign", "create", "Five").code == 0
    assert cli("campaign", "set", "--pack", str(pack)).code == 0
    secret = cli("--json", "gm-link", "--api-secret").json["gm_secret"]
    (pack / "extra.yaml").write_text("# edited since: read again\n{}\n", encoding="utf-8")

    def unreadable(path, *args, **kwargs):
        if str(path).startswith(str(pack)):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return builtins.open(path, *args, **kwargs)

    monkeypatch.setattr(loader, "open", unreadable, raising=False)
    api = TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver")
    gm = {"Authorization": f"Bearer {secret}"}
    english = api.get("/api/campaigns/Five/status", headers=gm).json()["error"]
    french = api.get("/api/campaigns/Five/status", headers={**gm, "Accept-Language": "fr"}).json()["error"]
    assert english["code"] == french["code"] == "bad_content", (english, french)
    assert "Permission denied" in english["message"]  # (the test can fail)
    assert "lecture impossible" in french["message"] and "Permission refusée" in french["message"], french
    assert not [phrase for phrase in PHRASES if phrase in french["message"]], french


def test_click_words_in_french(cli):
    helped = cli("--lang", "fr", "damage", "--help").out
    for english in ("INTEGER", "TEXT", "NAME", "DAMAGE", "RANGE"):
        assert not re.search(rf"\b{english}\b", helped), english
    assert "integer range" not in cli("--lang", "fr", "damage", "Aria", "3", "fire", "--d20", "x").err
    assert not re.search(r"\bCOMMAND\b", cli("--lang", "fr", "--help").out.splitlines()[0])
    assert "NAME" not in cli("--lang", "fr", "damage").err


# ------------------------------------------------------------------ 11. terminal QR codes dark on light


def test_a_terminal_qr_code_draws_the_dark_modules_dark():
    """Read back from the half blocks, the code is segno's own matrix with its dark modules as the drawn ones (the
    blocks print dark on a light page), a quiet zone of four modules, and painted black on white in a terminal."""
    import segno

    from sawbones.presentation import links

    url = "http://192.168.1.20:8000/p/abc"
    text = links.qr_text(url)
    top = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    read = []
    for line in text.splitlines():
        read.append([top[c][0] for c in line])
        read.append([top[c][1] for c in line])
    expected = [[bool(c) for c in row] for row in segno.make(url, error="m", micro=False).matrix_iter(border=4)]
    assert read[:len(expected)] == expected
    assert not any(read[0]) and not any(read[3]) and read[4][4]  # quiet zone, then the finder's dark corner
    painted = links.qr_text(url, color=True).splitlines()
    assert all(line.startswith("\x1b[30;107m") and line.endswith("\x1b[0m") for line in painted)


def test_player_link_qr_in_a_pipe_has_no_colour_codes(cli):
    assert cli("campaign", "create", "Five").code == 0
    assert cli("character", "add", "Aria").code == 0
    out = cli("player-link", "--qr", "--base", "http://192.168.1.20:8000").out
    assert "█" in out and "\x1b[" not in out


# ------------------------------------------------------------------ 9. the quick tour's story


def test_the_tour_stabilizes_borin_and_its_long_rest_heals(tmp_path, monkeypatch, capsys):
    """Borin was left dying for the whole tour, and its long rest gave him nothing (0 HP): he is stabilized, gets
    back on his feet with a Hit Die, and the long rest brings everyone's hit points back."""
    from sawbones.demo import run_tour

    monkeypatch.chdir(tmp_path)
    assert run_tour() == 0
    out = capsys.readouterr().out
    assert "Borin is stable" in out and "no benefit" not in out
    rest = out[out.index("$ sawbones rest --long"):]
    assert "Borin: 31 HP · a long rest" in rest.splitlines()[2]
    final = out[out.rindex("$ sawbones --lang fr status"):]
    assert "mourant" not in final and "31/31" in final


@pytest.mark.parametrize("lang, label", [("en", "amount"), ("fr", "montant")])
def test_a_form_error_names_the_field_by_its_label(app, lang, label):
    browser, api, gm = made(app, "Aria")
    page = browser.get(f"/c/Alpha?lang={lang}")
    sent = browser.post("/c/Alpha/act/damage", data={"csrf": csrf_of(page.text), "character": "aria",
                                                     "parts.0.amount": "x", "parts.0.type": "fire", "back": "party"})
    said = flash(sent.text)
    assert "parts[0]" not in said and re.search(rf"\b{label}\s?:", said), said
