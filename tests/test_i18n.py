"""Every word people read exists in English and French (the catalogs, sawbones/locale/, and the content).

- every message the code raises is a catalog Message with its French in fr.po (a new `raise UsageError(f"...")`
  fails here);
- every entry of fr.po: the same {fields} in both languages, and no French left identical to the English by
  accident (true cognates are listed);
- every text of the content: French and English, identical only for listed cognates;
- errors come in French in the CLI (--lang fr, $SAWBONES_LANG), the API (?lang=fr, Accept-Language)
  and the dashboard.
"""

from __future__ import annotations

import ast
import re
import string
import warnings
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1] / "src" / "sawbones"
PEOPLE = {"UsageError", "RuleViolation", "NotFound", "DiceError", "ContentError", "StoreError", "Forbidden",
          "ConflictError", "FileError", "WebError", "Unauthorized", "BadParameter", "SawbonesError"}
# the same in both languages on purpose: names the French rules use as they are, units, ids
COGNATES = {"Bluff", "Coma", "Constitution", "Force", "Immobile", "Intelligence", "Intimidation", "Investigation",
            "Miracle", "Nature", "Perception", "Initiative", "initiative", "concentration", "Persuasion", "Poison", "Radiant", "Religion",
            "Tables", "API", "stable", "type", "site", "—", "total", "action", "Poisons", "option", "d20", "poison",
            "{type}", "{text}", "standard", "{n} {what}", "option {option} = {value}", "{who}: {part} {change:+d}",
            "{track}: {from_} → {to}", "{option} = {value}", "D&D 5e", "Pathfinder 1e", "Contact", "min", " (max {max_hp})", "{part} {left}/2", "{who}: {source} → {outcome}",
            # French words too (the French rules say a round, a bonus, an affliction)
            "affliction", "restriction", "round", "rounds", "minute", "minutes", "notes", "bonus", "bonus {bonus}", "normal", "Actions",
            # ids and commands, said as they are typed
            "neutralize_poison, remove_disease, heal, restoration, greater_restoration, lesser_restoration, "
            "remove_curse, remove_blindness_deafness, regenerate, miracle, wish.",
            "`sawbones pending`, `sawbones answer ID TOTAL`", "GET …/pending, POST …/answer"}


def _template(node: ast.AST) -> str | None:
    """An f-string as a sample message: each field becomes a distinct value ("⟨1⟩", "⟨2⟩")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out, values = "", {}
        for part in node.values:
            if isinstance(part, ast.Constant):
                out += part.value
            else:  # the same expression twice is the same value twice
                out += values.setdefault(ast.unparse(part.value), f"⟨{len(values)}⟩")
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        return None if left is None or right is None else left + right
    return None


def _catalog_template(node: ast.AST) -> str | None:
    """A message made with sawbones.message.msg / msgs: its template (the catalog's msgid)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("msg", "msgs") \
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def raised_messages(catalog: bool = False):
    """(where, sample) of each message raised as an f-string or a string (catalog=False), or of each raised as a
    Message (catalog=True: its template, which fr.po translates)."""
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                func = node.exc.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name not in PEOPLE:
                    continue
                sample = (_catalog_template if catalog else _template)(node.exc.args[0])
                if sample:  # messages built elsewhere (a variable) are checked where they are built
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", sample


def test_every_message_raised_for_people_is_a_catalog_message():
    """A message people read is made with msg()/msgs() (its words in the catalogs), never a finished English
    sentence: a new `raise UsageError(f"...")` fails here."""
    plain = [f"{where}: {sample!r}" for where, sample in raised_messages()]
    assert not plain, "raised as finished text (make it a msg(...) of the catalog):\n" + "\n".join(plain)
    assert len(list(raised_messages(catalog=True))) > 150


def test_every_raised_message_is_in_the_catalog():
    from sawbones.presentation.locale import catalog

    french = catalog("fr")
    missing = [f"{where}: {sample!r}" for where, sample in raised_messages(catalog=True)
               if french.gettext(sample) == sample and sample not in ("{said}",) and sample not in COGNATES]
    assert not missing, "no French in fr.po for:\n" + "\n".join(missing)


def test_a_message_carries_its_values_into_each_language():
    from sawbones.message import msg
    from sawbones.presentation.locale import say, speaking

    # the engine's own template (domain/engine/campaign.find_character): a Message whose msgid fr.po translates
    message = msg("no character named {key} in {campaign} (characters: {known})", key="'Bob'", campaign="Coast",
                  known="Aria, Borin")
    with speaking("fr"):
        assert say(message) == "aucun personnage nommé 'Bob' dans Coast (personnages : Aria, Borin)"
    with speaking("en"):
        assert say(message) == str(message) == "no character named 'Bob' in Coast (characters: Aria, Borin)"
    with speaking("fr"):
        assert say(msg("something nobody wrote a template for")) == "something nobody wrote a template for"


def fields_of(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def _load_catalogs():
    """(where, English, French) of every entry of fr.po."""
    from babel.messages.pofile import read_po

    with (ROOT / "locale" / "fr" / "LC_MESSAGES" / "sawbones.po").open("rb") as handle:
        catalog = read_po(handle)
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        for en, fr in zip(ids * len(strs) if len(ids) == 1 else ids, strs):
            out.append((f"{m.context or ''}|{ids[0]}", en, fr))
    return out


def test_every_string_has_both_languages_with_the_same_fields():
    for key, en, fr in _load_catalogs():
        assert en.strip(" ") or en == " ", key
        assert fr.strip() or not en.strip(), key
        assert sorted(set(fields_of(en))) == sorted(set(fields_of(fr))) or "{n}" in en, key


def test_no_french_is_the_english_by_accident():
    same = [f"{key}: {en!r}" for key, en, fr in _load_catalogs()
            if en == fr and en not in COGNATES and re.search(r"[a-z]{4,}", re.sub(r"\{[^}]*\}", "", en))
            and not key.startswith(("field|", "discord command|", "discord option|"))]
    assert not same, "identical in both languages (translate, or add a true cognate to COGNATES):\n" + "\n".join(same)


@pytest.mark.parametrize("close", [False, True])
def test_an_entry_not_found_names_its_section_in_french(rules, close):
    """`sawbones odds --injury nothing` in French: "type de dégâts inconnu : 'nothing'", never the section's
    English name ("damage table") or a word of it; every section of the content, present and to come."""
    from sawbones.content.schema import SECTIONS, singular
    from sawbones.errors import NotFound
    from sawbones.presentation.locale import say, speaking

    for section in SECTIONS:
        entry = next(iter(rules.section(section)), None)
        try:
            rules.get(section, (entry + "x") if close and entry else "nothing-at-all")
        except NotFound as exc:
            english = exc.message
            with speaking("fr"):
                french = say(exc.text)
        else:
            raise AssertionError(f"{section}: no error")
        # (the catch-all template keeps the English name: "damage introuvable : table 'nothing'")
        catch_all = f"{singular(section)} introuvable"
        assert french != english and not french.startswith(catch_all), (section, singular(section), french)


def test_french_units_are_pv_and_dd():
    for key, en, fr in _load_catalogs():
        assert not re.search(r"\b(HP|DC)\b", fr), f"{key}: {fr!r}"


def test_every_content_text_is_in_both_languages(rules):
    from sawbones.content.schema import Text

    same, empty = set(), []

    def walk(obj, path):
        if isinstance(obj, Text):
            if not obj.fr.strip() or not obj.en.strip():
                empty.append(path)
            elif obj.fr.strip() == obj.en.strip() and obj.en not in COGNATES:
                same.add(f"{path}: {obj.en!r}")
        elif isinstance(obj, dict):
            for k, v in obj.items():
                walk(v, f"{path}.{k}")
        elif isinstance(obj, (list, tuple)):
            for i, v in enumerate(obj):
                walk(v, f"{path}[{i}]")
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            for k, v in vars(obj).items():
                walk(v, f"{path}.{k}")

    for section, entries in rules.sections.items():
        walk(entries, section)
    assert not empty and not same, (empty, sorted(same))


# ------------------------------------------------------------------ errors, in French, at every entry point


def test_cli_errors_in_french(cli, monkeypatch):
    cli("campaign", "create", "Coast", "--seed", "1")
    result = cli("--lang", "fr", "status", "Bob")
    assert result.code == 2 and result.err == "erreur : aucun personnage nommé 'Bob' dans Coast : le groupe est vide\n"
    assert result.err.count("\n") == 1
    monkeypatch.setenv("SAWBONES_LANG", "fr")
    assert "la durée '0d' est nulle" in cli("advance", "0d").err
    assert "Commande inconnue" in cli("character", "show").err
    monkeypatch.setenv("SAWBONES_LANG", "en")
    assert "duration '0d' is zero" in cli("advance", "0d").err



@pytest.mark.parametrize("args, french", [
    (("--bonus", "abc"), "donnez un nombre entier (5, -2) ou un intervalle"),
    (("--bonus", "5..3"), "un intervalle monte"),
    (("--wait", "99999"), "n'est pas dans l'intervalle"),
])
def test_an_option_error_click_wraps_is_french_whole(cli, args, french):
    """"Invalid value for '--bonus': <the option's own message>": both halves in French, not one swallowing the other."""
    cli("campaign", "create", "Coast", "--seed", "1")
    result = cli("--lang", "fr", "odds", "--injury", "fire", *args)
    assert result.code == 2 and "Valeur invalide pour" in result.err and french in result.err, result.err
    assert "Invalid value" not in result.err

@pytest.fixture
def api(db):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        client.headers["Authorization"] = f"Bearer {created['gm_secret']}"
        yield client


def test_api_errors_in_french(api):
    url = "/api/campaigns/Alpha/status"
    assert api.get(url, params={"character": "Bob"}).json()["error"]["message"].startswith("no character named")
    fr = api.get(url, params={"character": "Bob", "lang": "fr"}).json()["error"]
    assert fr["message"].startswith("aucun personnage nommé 'Bob'") and fr["code"] == "not_found"
    header = api.get(url, params={"character": "Bob"}, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert header.json()["error"]["message"].startswith("aucun personnage nommé")
    bad = api.post("/api/campaigns", json={"name": "a/b"}, headers={"Accept-Language": "fr"}).json()["error"]
    assert "ne peut pas contenir '/'" in bad["message"], bad


def test_dashboard_errors_in_french(db):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    def csrf(page):
        return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        home = client.get("/?lang=fr")
        made = client.post("/campaigns", data={"csrf": csrf(home), "name": "a/b"})
        assert "ne peut pas contenir" in made.text and "cannot contain" not in made.text
        client.post("/campaigns", data={"csrf": csrf(home), "name": "Alpha", "seed": "7"})
        page = client.get("/c/Alpha")
        done = client.post("/c/Alpha/act/damage", data={"csrf": csrf(page), "character": "Bob", "parts.0.amount": "3",
                                                        "parts.0.type": "fire"})
        assert "aucun personnage nommé" in done.text, done.text[-2000:]


def test_a_bug_on_a_page_answers_a_page_in_its_language(db, monkeypatch):
    """A bug the server did not foresee, on a GM's page: a page that says so, in the page's language (not a JSON
    body in the browser); when the error page cannot be drawn either, the JSON error (the API's, always)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app
    from sawbones.interfaces.web.api import reports

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    app = create_app(lambda: Service.open(db))
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        assert client.get(made["gm_link"].split("testserver", 1)[-1]).status_code == 200
        monkeypatch.setattr(reports, "dashboard_doc", broken)
        page = client.get("/c/Alpha?lang=fr")
        assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
        assert "erreur interne" in page.text and "internal error" not in page.text
        from sawbones.interfaces.web.http import errors
        monkeypatch.setattr(errors, "render_error", broken)  # the error page cannot be drawn either
        again = client.get("/c/Alpha?lang=fr")
        assert again.status_code == 500 and again.json()["error"]["code"] == "internal"


CLI_FLAG = re.compile(r"(?<![\w-])--[a-z]")
CLI_COMMAND = re.compile(r"`(sawbones|character|heal|campaign|damage|answer|pending)\b")
# the command line's own words, said by the engine for what only the command line does (no campaign chosen, the
# database file, a campaign import, the repair of a damaged log, the tables' index screen)
CLI_ONLY = ("no campaign chosen:", "no database at", "give an amount and a damage type", "the export names no campaign",
            "a campaign named ", "campaign {campaign}: event {version} is damaged", "each severity's treatment")
SHARED = ("domain", "application", "adapters", "content", "presentation")  # what every interface says


def _call_name(node: ast.AST) -> str:
    return getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""


def _catalog_calls(tree: ast.AST):
    """(line, kind, context, templates) of each catalog call in a module: msg, msgs, pmsg, _, ngettext, pgettext, N_."""
    where = {"msg": (None, 0, 1), "_": (None, 0, 1), "N_": (None, 0, 1), "msgs": (None, 0, 2),
             "ngettext": (None, 0, 2), "pmsg": (0, 1, 2), "pgettext": (0, 1, 2)}
    for node in ast.walk(tree):
        kind = _call_name(node)
        if kind not in where:
            continue
        context, first, last = where[kind]
        args = node.args
        if len(args) < last or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:last]):
            continue
        yield node, kind, (args[context].value if context is not None else None), [a.value for a in args[first:last]]


def _per_audience_arms(tree: ast.AST):
    """{id(node): audience} of every node inside a PerAudience's arms (cli=, api=, page=)."""
    arms = {}
    for node in ast.walk(tree):
        if _call_name(node) != "PerAudience":
            continue
        given = dict(zip(("cli", "api", "page"), node.args)) | {kw.arg: kw.value for kw in node.keywords}
        for who, value in given.items():
            arms.update({id(inner): who for inner in ast.walk(value)})
    return arms


def _french(kind: str, context: str | None, templates: list[str]) -> list[str]:
    """The French of a template (each plural form for a counted one)."""
    from sawbones.presentation.locale import catalog

    french = catalog("fr")
    if len(templates) == 2:
        return [french.npgettext(context, *templates, n) if context else french.ngettext(*templates, n) for n in (1, 2)]
    return [french.pgettext(context, templates[0]) if context else french.gettext(templates[0])]


def _shared_templates():
    """(where, audience, kind, context, templates) of every catalog template the shared layers make: audience is
    "cli", "api" or "page" inside a PerAudience's arm, else "" (said to everyone)."""
    for layer in SHARED:
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            arms = _per_audience_arms(tree)
            for node, kind, context, templates in _catalog_calls(tree):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", arms.get(id(node), ""), kind, context, templates


def _names_the_command_line(text: str) -> bool:
    return bool(CLI_FLAG.search(text) or CLI_COMMAND.search(text))


def test_web_errors_name_no_command_line():
    """What the engine and the read models say to every interface names no flag and no command, in either
    language: a setting is an Option field (a flag on the command line, the API's field, the page's label) and a
    fix that differs by interface is a PerAudience, whose `cli=` arm alone may name the command line's words."""
    wrong = []
    for where, who, kind, context, templates in _shared_templates():
        if who == "cli" or templates[0].startswith(CLI_ONLY):
            continue
        for text in templates + _french(kind, context, templates):
            if _names_the_command_line(text):
                wrong.append(f"{where} ({who or 'everyone'}): {text!r}")
    assert not wrong, "the command line's words said to the API or the pages:\n" + "\n".join(wrong)


def test_every_template_naming_a_flag_has_the_apis_words():
    """A fix the engine words in the CLI's words (a flag, a command) has the API's words and the pages' words
    too, in both languages, and none of them names the command line; an Option is said as each interface names it."""
    from sawbones.message import Option
    from sawbones.presentation.locale import addressing, say, speaking

    fixes = [(where, templates) for where, who, _, _, templates in _shared_templates()
             if who == "cli" and _names_the_command_line(templates[0])]
    assert len(fixes) > 10 and any("--cl-check" in t for _, templates in fixes for t in templates)
    for layer in SHARED:
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if _call_name(node) != "PerAudience":
                    continue
                given = dict(zip(("cli", "api", "page"), node.args)) | {kw.arg: kw.value for kw in node.keywords}
                assert "api" in given, f"{path.relative_to(ROOT)}:{node.lineno}: a PerAudience without the API's words"
                for who in ("api", "page"):
                    for inner, kind, context, templates in _catalog_calls(given.get(who, ast.Constant(None))):
                        said = templates + _french(kind, context, templates)
                        assert not any(map(_names_the_command_line, said)), \
                            f"{path.relative_to(ROOT)}:{inner.lineno} ({who}): {said}"
                        french = _french(kind, context, templates)
                        assert french != templates or templates[0] in COGNATES, \
                            f"{path.relative_to(ROOT)}:{inner.lineno} ({who}): no French for {templates[0]!r}"
    options = {node.args[0].value for layer in SHARED for path in (ROOT / layer).rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if _call_name(node) == "Option" and node.args and isinstance(node.args[0], ast.Constant)}
    assert "campaign" in options and len(options) > 5, options
    for lang in ("en", "fr"):
        with speaking(lang):
            for option in sorted(options):
                with addressing("cli"):
                    assert say(Option(option)) == "--" + option.replace("_", "-")
                with addressing("api"):
                    assert say(Option(option)) == option
                with addressing("page"):
                    assert not _names_the_command_line(say(Option(option))), option


def test_the_api_says_its_fields_and_the_page_its_labels(db):
    """The user's steps: a wound with no side, a cure with no caster level check, a treatment by a healer without
    the proficiencies, through the API and the dashboard's forms, in both languages: the API names its body's
    fields, the page its forms' words, neither a flag nor a command."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    def flash(page):
        found = re.search(r'<div class="flash toast flash-error".*?</div>', page.text, re.S)
        assert found, page.text[-2000:]
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).replace("&#39;", "'").strip()

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        gm = {"Authorization": f"Bearer {made['gm_secret']}"}
        for name in ("Aria", "Borin"):
            assert client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 31},
                               headers=gm).status_code == 201
        assert client.post("/api/campaigns/Alpha/expose", json={"character": "Borin", "affliction": "filth_fever",
                                                                 "save": 1}, headers=gm).status_code == 200
        injured = client.post("/api/campaigns/Alpha/injure", json={"character": "Borin", "type": "slashing", "d20": 3},
                              headers=gm).json()
        injury = injured["characters"][0]["injuries"][0]["id"]
        steps = {"wound": {"character": "Borin", "part": "hand", "damage": 3},
                 "cure": {"character": "Borin", "affliction": "filth_fever", "spell": "remove_disease"},
                 "treat": {"character": "Borin", "injury": injury, "check": 30, "healer": "Aria"}}

        def api(action, lang):
            answer = client.post(f"/api/campaigns/Alpha/{action}", params={"lang": lang}, json=steps[action],
                                 headers=gm)
            assert answer.status_code in (409, 422), answer.text
            return answer.json()["error"]["message"]

        assert api("wound", "en") == "a hand wound needs a side: side left or right"
        assert api("wound", "fr") == "une blessure (main) demande un côté : side left ou right"
        assert "give cl_check (its total) or cl (the caster level)" in api("cure", "en")
        assert "cl_check" in api("cure", "fr") and "niveau de lanceur" in api("cure", "fr")
        assert "proficiencies" in api("treat", "en") and "Edit form" not in api("treat", "en")
        for action in steps:
            for lang in ("en", "fr"):
                assert not _names_the_command_line(api(action, lang)), (action, lang, api(action, lang))

        client.get(made["gm_link"])  # this browser signs in as the GM
        for lang in ("en", "fr"):
            page = client.get("/c/Alpha", params={"lang": lang})
            token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
            said = {action: flash(client.post(f"/c/Alpha/act/{action}",
                                              data={"csrf": token, **{k: str(v) for k, v in body.items()}}))
                    for action, body in steps.items()}
            for action, text in said.items():
                assert not _names_the_command_line(text) and " side left" not in text, (lang, action, text)
            if lang == "en":
                assert "Edit form" in said["treat"] and "PATCH" not in said["treat"], said["treat"]
                assert "a hand wound needs a side" in said["wound"]
                assert "caster level check" in said["cure"] and "cl_check" not in said["cure"]
            else:
                assert "côté" in said["wound"] and "niveau de lanceur" in said["cure"], said
                assert "PATCH" not in said["treat"] and "Aria" in said["treat"], said["treat"]
