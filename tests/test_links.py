"""Links that reach the phones (issue 39, item 1): `serve --host 0.0.0.0` (and `bash run.sh --host 0.0.0.0`)
prints its GM and player links with the machine's network address and the port it runs on; `--base`
($SAWBONES_BASE) names a public address; `gm-link` and `player-link` print links to the running server; each
player link has a QR code, on the dashboard and in the terminal.

Nothing here listens beyond the loopback: uvicorn.run is replaced by a stand-in that records how it was asked
to serve (the banner is printed before it is called)."""

from __future__ import annotations

import re
import warnings

import pytest
import uvicorn

from sawbones import demo
from sawbones.presentation import links
from sawbones.interfaces.cli import main, web as cli_web

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app

LINK = re.compile(r"https?://[^\s]+")


@pytest.fixture
def served(monkeypatch):
    """serve's uvicorn.run, recorded instead of listening; the port probe is skipped (nothing binds 0.0.0.0)."""
    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **config: calls.append(config))
    monkeypatch.setattr(cli_web, "check_port", lambda host, port: None)
    monkeypatch.delenv(links.BASE_ENV, raising=False)
    return calls


def _links(out: str) -> list[str]:
    return LINK.findall(out)


def test_serving_on_the_network_prints_the_network_address_and_the_running_port(db, capsys, served):
    lan = links.lan_address()
    assert lan is None or not lan.startswith("127."), lan
    code = main(["--db", db, "serve", "--host", "0.0.0.0", "--port", "8731", "--demo"])
    out = capsys.readouterr().out
    assert code == 0 and served and served[0]["host"] == "0.0.0.0" and served[0]["port"] == 8731
    printed = _links(out)
    assert len(printed) == 2 + 1 + 4, out  # the address and its API docs, the GM's sign-in link, four players' links
    expected = f"http://{lan or '127.0.0.1'}:8731/"
    assert all(link.startswith(expected) for link in printed), out
    assert sum("/p/" in link for link in printed) == 4 and "?code=" in printed[2]


def test_run_sh_on_the_network_prints_links_with_the_port_it_chose(tmp_path, capsys, served, monkeypatch):
    monkeypatch.setattr(demo, "free_port", lambda host, first: 8765)  # 8000 was taken: the next free one
    code = demo.run(["--host", "0.0.0.0", "--db", str(tmp_path / "web.db")])
    out = capsys.readouterr().out
    assert code == 0 and served[0]["port"] == 8765
    lan = links.lan_address() or "127.0.0.1"
    assert all(link.startswith(f"http://{lan}:8765/") for link in _links(out)), out


def test_on_the_loopback_the_links_say_the_loopback(db, capsys, served):
    main(["--db", db, "serve", "--port", "8732", "--demo"])
    assert all(link.startswith("http://127.0.0.1:8732/") for link in _links(capsys.readouterr().out))


def test_base_names_the_public_address_and_gm_link_follows_the_running_server(db, capsys, served):
    main(["--db", db, "serve", "--host", "0.0.0.0", "--port", "8733", "--demo", "--qr",
          "--base", "https://table.example.org/"])
    out = capsys.readouterr().out
    assert all(link.startswith("https://table.example.org/") for link in _links(out)), out
    assert out.count("█") > 100, "each player link is drawn as a QR code in the terminal"
    assert main(["--db", db, "-c", "Phandalin", "gm-link"]) == 0
    assert capsys.readouterr().out.startswith("https://table.example.org/c/Phandalin?code=")
    assert main(["--db", db, "-c", "Phandalin", "player-link", "borin", "--qr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("player link for Borin: https://table.example.org/p/") and "▀" in out


def test_gm_link_follows_the_port_the_server_runs_on(db, capsys, served):
    main(["--db", db, "serve", "--port", "8734", "--demo"])
    capsys.readouterr()
    assert main(["--db", db, "-c", "Phandalin", "gm-link"]) == 0
    assert capsys.readouterr().out.startswith("http://127.0.0.1:8734/c/Phandalin?code=")
    assert main(["--db", db, "-c", "Phandalin", "--json", "player-link"]) == 0
    import json

    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["name"] for p in players] == ["Aria", "Borin", "Cora", "Dain"]
    assert all(p["link"].startswith("http://127.0.0.1:8734/p/") for p in players)
    # --base, then $SAWBONES_BASE, win over the running server's address
    assert main(["--db", db, "-c", "Phandalin", "gm-link", "--base", "http://10.0.0.5:9000"]) == 0
    assert capsys.readouterr().out.startswith("http://10.0.0.5:9000/c/Phandalin?code=")


@pytest.mark.parametrize("lang, said", [("en", "is not a web address"), ("fr", "n'est pas une adresse web")])
def test_a_bad_base_is_one_line(db, capsys, served, lang, said):
    code = main(["--db", db, "--lang", lang, "serve", "--base", "table.example.org"])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err, err


def test_the_dashboard_shows_each_player_link_whole_with_its_qr_code(db):
    app = create_app(lambda: Service.open(db), listening_base="http://192.168.1.20:8000")
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:  # the GM's laptop, on the loopback
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        bearer = {"Authorization": f"Bearer {made['gm_secret']}"}
        client.post("/api/campaigns/Alpha/characters", json={"name": "Éloïse", "max_hp": 9}, headers=bearer)
        client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer).json()["gm_link"])
        page = client.get("/c/Alpha").text
    url = re.search(r'class="player-link" href="([^"]+)"', page).group(1)
    assert url.startswith("http://192.168.1.20:8000/p/"), "a phone cannot reach the laptop's loopback"
    assert links.qr_svg(url, "Éloïse") in page
    with TestClient(app, base_url="http://sawbones.lan:8000") as client:  # asked at a network name: that one
        client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer).json()["gm_link"])
        page = client.get("/c/Alpha").text
    assert 'href="http://sawbones.lan:8000/p/' in page


def test_a_qr_code_draws_the_link():
    text = links.qr_text("http://192.168.1.20:8000/p/abc")
    rows = text.splitlines()
    assert len({len(r) for r in rows}) == 1 and len(rows) >= 12  # a square of modules, two per line
    assert links.qr_text("http://192.168.1.20:8000/p/abd") != text
    svg = links.qr_svg("http://x/p/1", "<Aria>")
    assert svg.startswith("<svg") and "<title>&lt;Aria&gt;</title>" in svg
