"""What a new user does first: the README's commands and `run.sh --tour`, run as written, and the
mistakes a newcomer makes, each answered by one clear line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sawbones.interfaces.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
LONG_RUNNING = {"serve"}  # blocks until Ctrl+C: its start is tested with the web app


def readme_commands() -> list[list[str]]:
    """Every `sawbones ...` line of the README's sh blocks, in order, without its comment."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            line = re.sub(r"\s{2,}#.*$", "", line).strip()
            if line.startswith("sawbones "):
                commands.append(shlex.split(line)[1:])
    return commands


def test_readme_has_the_whole_story():
    said = " ".join(" ".join(c) for c in readme_commands())
    for step in ("campaign create", "damage", "treat", "rest --long", "expose", "advance", "undo"):
        assert step in said, step


def test_readme_commands_run_in_order_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SAWBONES_DATABASE_URL", raising=False)
    for args in readme_commands():
        if args[0] in LONG_RUNNING:
            continue
        capsys.readouterr()
        code = main(args)
        out, err = capsys.readouterr()
        assert code == 0, f"sawbones {' '.join(args)} failed: {err}"
        assert "{'" not in out and "Traceback" not in out + err, out


def test_the_tour_tells_the_whole_story(tmp_path, monkeypatch, capsys):
    from sawbones.demo import run_tour

    monkeypatch.chdir(tmp_path)
    assert run_tour() == 0
    out = capsys.readouterr().out
    for said in ("→ 0 HP", "new injury", "treatment of i1", "a long rest", "Filth Fever", "Summary:",
                 "undone", "PV"):
        assert said in out, said
    assert "error:" not in out and "{'" not in out


# ------------------------------------------------------------------ a newcomer's mistakes


def run(tmp_path, capsys, *args):
    capsys.readouterr()
    code = main(["--db", str(tmp_path / "s.db"), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_typed_d20_no_roll_used_is_refused(tmp_path, capsys):
    run(tmp_path, capsys, "campaign", "create", "T", "--seed", "1")
    run(tmp_path, capsys, "character", "add", "Borin", "--max-hp", "20")
    assert run(tmp_path, capsys, "damage", "Borin", "5", "fire", "--d20", "2")[0] == 2  # stays standing
    assert run(tmp_path, capsys, "damage", "Borin", "25", "fire", "--d20", "2")[0] == 0
    code, out, err = run(tmp_path, capsys, "damage", "Borin", "5", "fire", "--d20", "2")
    assert code == 2 and "--d20 2 is not used" in err and "already at 0 HP" in err and err.count("\n") == 1
    assert run(tmp_path, capsys, "damage", "Borin", "5", "fire")[0] == 0  # without the die: fine


def test_bare_sawbones_prints_help(capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Usage:") and "error" not in err


def test_read_only_commands_make_no_database(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["status"], ["log"], ["campaign", "show"], ["clock"]):
        code, _, err = run(tmp_path, capsys, *args)
        assert code == 2 and err.startswith("error: no database at") and err.count("\n") == 1
    for args in (["campaign", "options"], ["campaign", "list"], ["tables", "fire"], ["roll", "cold", "--d20", "4"]):
        assert run(tmp_path, capsys, *args)[0] == 0, args
    assert not (tmp_path / "s.db").exists() and not (tmp_path / "sawbones.db").exists()


def test_a_db_in_a_missing_folder_names_the_folder(tmp_path, capsys):
    code = main(["--db", str(tmp_path / "nope" / "x.db"), "campaign", "create", "X"])
    err = capsys.readouterr().err
    assert code == 2 and f"the folder {tmp_path / 'nope'} does not exist" in err and err.count("\n") == 1


def _pack(where: Path) -> Path:
    where.mkdir(parents=True)
    (where / "sonic.yaml").write_text(
        "damage_tables:\n  - id: sonic\n    name: {fr: Sonique, en: Sonic}\n    rows:\n"
        "      - {d20: \"11-20\", injury: tinnitus, text: {fr: Acouphènes., en: Tinnitus.}}\n"
        "      - {d20: \"6-10\", injury: temporary_deafness, text: {fr: Sourd., en: Deaf.}}\n"
        "      - {d20: \"3-5\", injury: minor_concussion, text: {fr: Commotion., en: Concussion.}}\n"
        "      - {d20: \"1-2\", injury: torn_auditory_nerve, magic_only: true, text: {fr: Nerf., en: Nerve.}}\n",
        encoding="utf-8")
    return where


def test_a_pack_works_from_any_directory_and_a_missing_one_is_one_line(tmp_path, capsys, monkeypatch):
    _pack(tmp_path / "work" / "homebrew")
    db = str(tmp_path / "s.db")
    monkeypatch.chdir(tmp_path / "work")
    assert main(["--db", db, "campaign", "create", "T", "--pack", "homebrew", "--seed", "1"]) == 0
    monkeypatch.chdir(tmp_path)  # another directory: the stored path is absolute
    assert main(["--db", db, "--json", "campaign", "show"]) == 0
    shown = capsys.readouterr().out
    assert str(tmp_path / "work" / "homebrew") in shown
    (tmp_path / "work" / "homebrew").rename(tmp_path / "moved")
    capsys.readouterr()
    assert main(["--db", db, "status"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "content pack" in err and "campaign set --pack" in err
    assert main(["--db", db, "campaign", "set", "--pack", str(tmp_path / "moved")]) == 0
    assert main(["--db", db, "status"]) == 0


def test_a_missing_pack_is_a_clear_page_not_a_500(tmp_path):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    pack = _pack(tmp_path / "homebrew")
    db = str(tmp_path / "s.db")
    assert main(["--db", db, "campaign", "create", "T", "--pack", str(pack), "--seed", "1"]) == 0
    from sawbones.adapters.backends import open_store
    from sawbones.interfaces.web.access import security

    store = open_store(db)
    secret = security.new_gm_secret(store, "T")
    from sawbones.interfaces.web.api.campaigns import sign_in_link

    link = sign_in_link(store, "T")
    store.close()
    pack.rename(tmp_path / "gone")
    with TestClient(create_app(lambda: Service.open(db))) as client:
        api = client.get("/api/campaigns/T/status", headers={"Authorization": f"Bearer {secret}"})
        assert api.status_code == 503 and api.json()["error"]["code"] == "pack_missing"
        page = client.get(link, headers={"Accept": "text/html"})
        assert page.status_code == 503 and "content pack" in page.text


@pytest.mark.parametrize("lang,said", [("en", "error: serve: cannot listen on"),
                                       ("fr", "erreur : serve : impossible d'écouter")])
def test_serve_on_a_busy_port_is_one_line(tmp_path, capsys, lang, said):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["--db", str(tmp_path / "s.db"), "--lang", lang, "serve", "--port", str(port)])
    out, err = capsys.readouterr()
    assert code == 1 and err.startswith(said) and err.count("\n") == 1 and out == ""
