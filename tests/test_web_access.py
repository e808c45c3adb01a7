"""Access to the web app as a hostile client would try it (issue 18): one-time GM sign-in links, the API
secret out of URLs and cookies, revocable player links bound to one character, the closed server mode,
the Host allow-list, request-size limits before authentication before parsing, strict page parameters."""

from __future__ import annotations

import base64
import json
import re
import socket
import warnings
from contextlib import closing

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.cli.web import server_settings
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.access import security


def make(db, **settings):
    return create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3, **settings)


@pytest.fixture
def app(db):
    return make(db)


@pytest.fixture
def client(app):
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def bearer(secret):
    return {"Authorization": f"Bearer {secret}"}


def new_campaign(client, name="Alpha", **headers):
    made = client.post("/api/campaigns", json={"name": name, "seed": 7}, headers=headers)
    assert made.status_code == 201, made.text
    return made.json()


def csrf_of(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


def cookie_payload(response) -> dict:
    """The session cookie's signed JSON, as anyone holding the cookie can read it."""
    value = re.search(r"sawbones_session=([^;]+)", response.headers["set-cookie"]).group(1).strip('"')
    body = value.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def error_code(response):
    return response.json()["error"]["code"]


# ------------------------------------------------------------------ secrets: sign-in links, the API secret


def test_a_sign_in_link_signs_in_once(client, app):
    made = new_campaign(client)
    link = made["gm_link"]
    assert "?code=" in link and made["gm_secret"] not in link
    assert client.get(link, follow_redirects=False).headers["location"] == "/c/Alpha"
    assert client.get("/c/Alpha").status_code == 200
    with TestClient(app) as thief:  # the same link, from the history of the first browser
        used = thief.get(link)
        assert used.status_code == 403 and "<html" in used.text and "already used" in used.text
        assert thief.get("/c/Alpha").status_code == 403


def test_expired_unknown_and_other_campaign_codes_give_a_clear_page(client, db):
    secret = new_campaign(client)["gm_secret"]
    new_campaign(client, "Beta")
    with closing(Service.open(db)) as service:
        expired = security.new_signin_code(service.store, "Alpha", seconds=-1)
        beta = security.new_signin_code(service.store, "Beta")
    page = client.get(f"/c/Alpha?code={expired}")
    assert page.status_code == 403 and "expired" in page.text
    assert "already used" in client.get(f"/c/Alpha?code={expired}").text  # an expired code is spent too
    assert "not valid" in client.get(f"/c/Alpha?code={beta}").text  # Beta's code does not open Alpha
    assert "not valid" in client.get("/c/Alpha?code=nope").text
    assert "not valid" in client.get("/c/Alpha?code=%00%E2%80%AE").text
    french = client.get("/c/Alpha?code=nope", headers={"Accept-Language": "fr"})
    assert "pas valable" in french.text
    # the API secret in the address is refused, and says why
    old = client.get(f"/c/Alpha?key={secret}")
    assert old.status_code == 403 and "history" in old.text and client.get("/c/Alpha").status_code == 403


def test_new_sign_in_links_and_api_secrets_end_no_session(client, app, cli):
    secret = new_campaign(client)["gm_secret"]
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    assert client.get("/c/Alpha").status_code == 200
    link = cli("--json", "--campaign", "Alpha", "gm-link").json  # what run.sh prints each start
    assert link["gm_link"].startswith("http://127.0.0.1:8000/c/Alpha?code=") and "gm_secret" not in link
    with TestClient(app) as tablet:
        assert tablet.get(link["gm_link"].removeprefix("http://127.0.0.1:8000")).status_code == 200
        assert client.get("/c/Alpha").status_code == 200  # the first browser is still signed in
        new = client.post("/api/campaigns/Alpha/gm-secret", headers=bearer(secret)).json()["gm_secret"]
        assert client.get("/api/campaigns/Alpha", headers=bearer(secret)).status_code == 403
        assert client.get("/api/campaigns/Alpha", headers=bearer(new)).status_code == 200
        assert tablet.get("/c/Alpha").status_code == 200 and client.get("/c/Alpha").status_code == 200


def test_the_api_secret_is_revealed_and_renewed_on_the_dashboard_only(client):
    secret = new_campaign(client)["gm_secret"]
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    dashboard = client.get("/c/Alpha")
    assert secret not in dashboard.text  # behind the reveal
    csrf = csrf_of(dashboard)
    shown = client.post("/c/Alpha/api-secret", data={"csrf": csrf, "do": "reveal"})
    assert shown.status_code == 200 and secret in shown.text and shown.headers["cache-control"] == "no-store"
    assert secret not in shown.headers.get("set-cookie", "")
    renewed = client.post("/c/Alpha/api-secret", data={"csrf": csrf, "do": "new"})
    new = re.search(r'id="shown-secret">([^<]+)<', renewed.text).group(1)
    assert new != secret and client.get("/api/campaigns/Alpha", headers=bearer(new)).status_code == 200
    assert client.get("/c/Alpha").status_code == 200  # still signed in
    assert client.post("/c/Alpha/api-secret", data={"do": "reveal"}).status_code == 403  # no CSRF token
    with TestClient(client.app) as stranger:
        assert stranger.post("/c/Alpha/api-secret", data={"csrf": csrf_of(stranger.get("/")),
                                                          "do": "reveal"}).status_code == 403


def test_results_and_secrets_stay_out_of_the_cookie(client):
    home = client.get("/")
    made = client.post("/campaigns", data={"csrf": csrf_of(home), "name": "Alpha"}, follow_redirects=False)
    payload = cookie_payload(made)
    assert set(payload) <= {"csrf", "sid", "gm", "f", "admin"}, payload
    dashboard = client.get("/c/Alpha")
    added = client.post("/c/Alpha/act/add_character", data={"csrf": csrf_of(dashboard), "name": "Zanzibar",
                                                            "max_hp": "12"}, follow_redirects=False)
    assert "Zanzibar" not in json.dumps(cookie_payload(added))
    assert "Zanzibar: 12/12" in client.get("/c/Alpha").text  # the message, shown once from the server
    assert "Zanzibar: 12/12" not in client.get("/c/Alpha").text


# ------------------------------------------------------------------ bounded input


def test_a_large_body_is_refused_before_the_secret_and_the_parser(db):
    app = make(db, max_body=4096)
    with TestClient(app) as client:
        secret = new_campaign(client)["gm_secret"]
        big = b'{"character": "' + b"x" * 10_000 + b'"}'
        for headers in ({}, bearer("wrong"), bearer(secret)):
            refused = client.post("/api/campaigns/Alpha/damage", content=big,
                                  headers={**headers, "Content-Type": "application/json"})
            assert refused.status_code == 413 and error_code(refused) == "too_large", refused.text

        def chunks():  # no Content-Length: counted while read
            for _ in range(10):
                yield b"x" * 1000

        streamed = client.post("/api/campaigns/Alpha/damage", content=chunks(),
                               headers={**bearer(secret), "Content-Type": "application/json"})
        assert streamed.status_code == 413
        assert client.post("/campaigns", content=big, headers={"Content-Type": "application/x-www-form-urlencoded"}
                           ).status_code == 413
        # the secret before the body: malformed JSON is a 401 or 403 to those without the secret
        for headers, status in (({}, 401), (bearer("wrong"), 403), (bearer(secret), 422)):
            answer = client.post("/api/campaigns/Alpha/damage", content=b"{not json",
                                 headers={**headers, "Content-Type": "application/json"})
            assert answer.status_code == status, answer.text
        assert client.get("/api/campaigns/Alpha/log", params={"limit": "²"}).status_code == 401
        assert client.post("/api/campaigns", content=b"{", headers={"Content-Type": "application/json"}
                           ).status_code == 422  # (open mode: anyone may create)


def test_the_default_limit_is_one_megabyte(client):
    body = b"[" + b"0," * 600_000 + b"0]"
    assert client.post("/api/campaigns", content=body, headers={"Content-Type": "application/json"}
                       ).status_code == 413


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "21", "0", "-1", "3.0", "1e1"])
def test_page_query_parameters_are_strict(client, value):
    page = client.get("/tables/fire", params={"d20": value})
    assert page.status_code == 422 and "<html" in page.text and "d20" in page.text


def test_page_errors_are_pages(client):
    assert client.get("/tables/fire", params={"d20": "3"}).status_code == 200
    assert client.get("/tables/fire", params={"d20": ""}).status_code == 200  # a form's blank field
    for path in ("/tables/nope", "/c/Nope", "/p/nope", "/no/such/page"):
        answer = client.get(path)
        assert answer.headers["content-type"].startswith("text/html") and "<html" in answer.text, path
    secret = new_campaign(client)["gm_secret"]
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    for params in ({"bonus": "²"}, {"bonus": "99"}, {"hand": "tentacle"}, {"mods": "x" * 500}):
        answer = client.get("/c/Alpha", params=params)
        assert answer.status_code == 422 and "<html" in answer.text, params
    assert client.get("/api/tables/nope").headers["content-type"].startswith("application/json")


def test_names_are_isolated_in_the_html(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    page = client.get("/c/Alpha").text
    assert '<h3 class="name"><bdi>Nia</bdi></h3>' in page and "<h1><bdi>Alpha</bdi></h1>" in page
    assert "<bdi>Alpha</bdi>" in client.get("/").text


# ------------------------------------------------------------------ player links


def player_link(client, secret, character, method="GET"):
    answer = client.request(method, f"/api/campaigns/Alpha/characters/{character}/player-link", headers=bearer(secret))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_player_links_are_revoked_and_renewed(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    first = player_link(client, secret, "Nia")["url"]
    assert player_link(client, secret, "nia")["url"] == first  # stable until renewed
    assert client.get(first).status_code == 200
    renewed = player_link(client, secret, "Nia", "POST")["url"]
    assert renewed != first and client.get(first).status_code == 404 and client.get(renewed).status_code == 200
    assert player_link(client, secret, "Nia", "DELETE") == {"character": "nia", "revoked": True}
    assert client.get(renewed).status_code == 404 and client.get(renewed + "/events").status_code == 404
    assert player_link(client, secret, "Nia", "DELETE")["revoked"] is False
    third = player_link(client, secret, "Nia")["url"]  # a new one when asked again
    assert third not in (first, renewed) and client.get(third).status_code == 200
    # a new API secret changes nothing for players
    client.post("/api/campaigns/Alpha/gm-secret", headers=bearer(secret))
    assert client.get(third).status_code == 200
    # anonymous or wrong secret: nothing
    assert client.delete("/api/campaigns/Alpha/characters/Nia/player-link").status_code == 401


def test_two_pages_drawn_at_once_show_one_player_link_that_works(client, db, monkeypatch):
    """The GM adds a character: the dashboard and its live cards are drawn at the same moment, each finding no
    link yet. Both must show the same link, and the player who opens it gets the page, not "unknown link"."""
    import threading

    from sawbones.interfaces.web.access import access

    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Borin", "max_hp": 31}, headers=bearer(secret))
    both_looked = threading.Barrier(2, timeout=10)
    made = access._new_token

    def after_both_looked(*args):  # each drawing has found no link before either makes one
        both_looked.wait()
        return made(*args)

    monkeypatch.setattr(access, "_new_token", after_both_looked)
    shown: list[str] = []

    def draw() -> None:
        service = Service.open(db)
        state = service.load("Alpha").state
        shown.append(access.player_token(service.store, "Alpha", state, "borin"))

    drawings = [threading.Thread(target=draw) for _ in range(2)]
    for d in drawings:
        d.start()
    for d in drawings:
        d.join()
    assert len(shown) == 2 and shown[0] == shown[1]
    page = client.get(f"/p/{shown[0]}")
    assert page.status_code == 200 and "Borin" in page.text


def test_a_player_link_dies_with_its_character(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    old = player_link(client, secret, "Nia")["url"]
    assert client.delete("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret)).status_code == 200
    assert client.get(old).status_code == 404
    made = client.post("/api/campaigns/Alpha/characters", json={"name": "NIA", "max_hp": 30}, headers=bearer(secret))
    assert made.json()["id"] == "nia"  # the same id as the old Nia
    assert client.get(old).status_code == 404  # ... and not her link
    new = player_link(client, secret, "NIA")["url"]
    assert new != old and "NIA" in client.get(new).text


def test_undoing_a_character_kills_its_link_and_a_new_one_never_inherits_it(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    old = player_link(client, secret, "Nia")["url"]
    client.post("/api/campaigns/Alpha/undo", headers=bearer(secret))  # Nia was never added
    assert client.get(old).status_code == 404
    client.post("/api/campaigns/Alpha/characters", json={"name": "nia", "max_hp": 5}, headers=bearer(secret))
    assert client.get(old).status_code == 404


def test_a_removal_undone_brings_the_same_character_and_its_link_back(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    link = player_link(client, secret, "Nia")["url"]
    client.delete("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret))
    assert client.get(link).status_code == 404
    client.post("/api/campaigns/Alpha/undo", headers=bearer(secret))
    assert client.get(link).status_code == 200


def test_the_dashboard_renews_and_revokes_player_links(client):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    page = client.get("/c/Alpha")
    old = re.search(r'class="player-link" href="http://testserver(/p/[^"]+)"', page.text).group(1)
    renewed = client.post("/c/Alpha/player-link/nia", data={"csrf": csrf_of(page), "do": "renew"})
    new = re.search(r'id="shown-secret">http://testserver(/p/[^<]+)<', renewed.text).group(1)
    assert client.get(old).status_code == 404 and client.get(new).status_code == 200
    client.post("/c/Alpha/player-link/nia", data={"csrf": csrf_of(page), "do": "revoke"})
    assert client.get(new).status_code == 404
    assert new not in client.get("/c/Alpha").text


# ------------------------------------------------------------------ server modes


def test_a_closed_server_lists_and_creates_for_its_admin_only(db):
    app = make(db, closed=True)
    with closing(Service.open(db)) as service:
        admin = security.new_admin_secret(service.store)
    with TestClient(app) as anonymous:
        assert anonymous.get("/api/campaigns").status_code == 401
        assert error_code(anonymous.post("/api/campaigns", json={"name": "Alpha"})) == "unauthorized"
        assert anonymous.post("/api/campaigns", json={"name": "Alpha"}, headers=bearer("nope")).status_code == 403
        made = new_campaign(anonymous, "Secret Tomb", **bearer(admin))
        assert anonymous.get("/api/campaigns", headers=bearer(admin)).json()["campaigns"] == ["Secret Tomb"]
        home = anonymous.get("/")
        assert "Secret Tomb" not in home.text and 'id="create-campaign"' not in home.text
        assert 'id="admin-sign-in"' in home.text
        refused = anonymous.post("/campaigns", data={"csrf": csrf_of(home), "name": "Mine"})
        assert refused.status_code == 403
        for path in ("/c/Nope", "/api/campaigns/Nope/status"):  # no campaign names in a 404
            assert "Secret Tomb" not in anonymous.get(path, headers=bearer(made["gm_secret"])).text
        # the GM of one campaign sees it on the home page, and only it
        anonymous.get(made["gm_link"])
        assert "Secret Tomb" in anonymous.get("/").text
    with TestClient(app) as admin_browser:
        home = admin_browser.get("/")
        wrong = admin_browser.post("/admin", data={"csrf": csrf_of(home), "secret": "nope"})
        assert wrong.status_code == 403
        admin_browser.post("/admin", data={"csrf": csrf_of(home), "secret": admin})
        home = admin_browser.get("/")
        assert "Secret Tomb" in home.text and 'id="create-campaign"' in home.text
        assert admin_browser.post("/campaigns", data={"csrf": csrf_of(home), "name": "Mine"}).status_code == 200
        assert "Mine" in admin_browser.get("/api/campaigns", headers=bearer(admin)).text


def test_an_open_server_never_lists_names_in_a_404(client):
    new_campaign(client, "Secret Tomb")
    for path in ("/c/Nope", "/api/campaigns/Nope/status"):
        answer = client.get(path, headers=bearer("x"))
        assert answer.status_code == 404 and "Secret Tomb" not in answer.text


def test_the_host_allow_list_refuses_other_names(db):
    app = make(db, allowed_hosts=("127.0.0.1", "localhost"))
    with TestClient(app, base_url="http://localhost:8000") as local:
        assert local.get("/").status_code == 200
    with TestClient(app, base_url="http://attacker.example") as rebound:
        refused = rebound.get("/api/tables")
        assert refused.status_code == 400 and error_code(refused) == "host_refused"
        assert rebound.get("/").status_code == 400


def test_server_settings_by_address():
    assert server_settings("127.0.0.1", None, (), 10) == {
        "closed": False, "allowed_hosts": ["127.0.0.1", "localhost", "[::1]"], "max_body": 10}
    assert server_settings("0.0.0.0", None, (), 10)["closed"] is True
    beyond = server_settings("0.0.0.0", None, (), 10)["allowed_hosts"]  # the machine's own names (issue 41)
    assert socket.gethostname().lower() in beyond and "127.0.0.1" in beyond and "rebound.example" not in beyond
    assert server_settings("0.0.0.0", None, ("*",), 10)["allowed_hosts"] is None
    assert server_settings("0.0.0.0", "open", ("table.local",), 10) == {
        "closed": False, "allowed_hosts": ["table.local"], "max_body": 10}
    assert server_settings("127.0.0.1", "closed", (), 10)["closed"] is True


def test_admin_secret_command_replaces_the_secret(cli, db):
    first = cli("--json", "admin-secret").json["admin_secret"]
    second = cli("--json", "admin-secret").json["admin_secret"]
    with closing(Service.open(db)) as service:
        assert not security.is_admin_secret(service.store, first)
        assert security.is_admin_secret(service.store, second)


def test_no_swagger_ui_from_a_cdn(client):
    assert client.get("/api/docs").status_code == 404
    offline = client.get("/api-docs")
    assert offline.status_code == 200 and "cdn" not in offline.text.lower()
    assert "script-src 'self'" in offline.headers["content-security-policy"]
    assert "script-src 'self'" in client.get("/api/openapi.json").headers["content-security-policy"]


def test_undoing_back_to_an_older_character_of_the_same_id_kills_the_link(client):
    """Nia (1) is removed, Nia (2) takes her id and gets a link; undoing back to before the removal brings
    Nia (1) back under that id: the link of Nia (2) must not show her."""
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    client.delete("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret))
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 40}, headers=bearer(secret))
    second = player_link(client, secret, "Nia")["url"]
    assert client.get(second).status_code == 200
    client.post("/api/campaigns/Alpha/undo", headers=bearer(secret))  # Nia (2) was never added
    client.post("/api/campaigns/Alpha/undo", headers=bearer(secret))  # Nia (1) was never removed
    status = client.get("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret)).json()
    assert status["max_hp"] == 9  # the first Nia is back
    assert client.get(second).status_code == 404


def test_a_long_log_after_a_player_link_is_read_once(client, db, monkeypatch):
    from sawbones.interfaces.web.access import access

    monkeypatch.setattr(access, "CHECKPOINT", 3)
    secret = new_campaign(client)["gm_secret"]
    for name in ("Nia", "Oda"):
        client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 9}, headers=bearer(secret))
    link = player_link(client, secret, "Nia")["url"]
    for _ in range(5):
        client.post("/api/campaigns/Alpha/damage", json={"character": "Oda", "parts": [{"amount": 1, "type": "fire"}]},
                    headers=bearer(secret))
    assert client.get(link).status_code == 200
    with closing(Service.open(db)) as service:
        record = json.loads(service.store.get_meta("player_token:" + link.rsplit("/", 1)[1]))
        assert record["since"] == service.store.head(service.store.campaign_id("Alpha"))
    client.delete("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret))
    assert client.get(link).status_code == 404


def test_each_demo_start_prints_a_new_sign_in_link_and_signs_no_one_out(app, db):
    from sawbones.demo import DEMO_CAMPAIGN, ensure_demo

    with closing(Service.open(db)) as service:
        name, first, players = ensure_demo(service, "http://127.0.0.1:8000")
    assert name == DEMO_CAMPAIGN and "?code=" in first and len(players) == 4
    with TestClient(app) as browser:
        assert browser.get(first.removeprefix("http://127.0.0.1:8000")).status_code == 200
        with closing(Service.open(db)) as service:  # run.sh starts again
            _, second, again = ensure_demo(service, "http://127.0.0.1:8000")
        assert second != first and again == players  # the same player links
        assert browser.get(f"/c/{DEMO_CAMPAIGN}").status_code == 200  # still signed in
        assert browser.get(first.removeprefix("http://127.0.0.1:8000")).status_code == 403  # spent


def test_a_revoked_link_ends_its_live_stream(client, app):
    secret = new_campaign(client)["gm_secret"]
    for name in ("Nia", "Oda"):
        client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 9}, headers=bearer(secret))
    link = player_link(client, secret, "Nia")["url"]
    seen = []
    with TestClient(app) as player:
        with player.stream("GET", link + "/events") as stream:
            for line in stream.iter_lines():
                seen.append(line)
                if line == "event: hello":
                    player_link(client, secret, "Nia", "DELETE")
                    client.post("/api/campaigns/Alpha/damage", headers=bearer(secret),
                                json={"character": "Oda", "parts": [{"amount": 1, "type": "fire"}]})
    assert "event: hello" in seen and "event: change" not in seen  # ended at the change, before saying it


def test_refusals_on_pages_speak_the_page_language(db):
    app = make(db, allowed_hosts=("localhost",), max_body=2048)
    with TestClient(app, base_url="http://elsewhere.example") as rebound:
        page = rebound.get("/", headers={"Accept-Language": "fr"})
        assert page.status_code == 400 and "ne répond pas" in page.text and "<html" in page.text
    with TestClient(app, base_url="http://localhost") as local:
        big = local.post("/campaigns", content=b"x" * 5000, headers={"Accept-Language": "fr",
                                                                      "Content-Type": "application/x-www-form-urlencoded"})
        assert big.status_code == 413 and "octets au plus" in big.text


def test_the_workers_read_the_server_settings(tmp_path, monkeypatch):
    from sawbones.interfaces.cli.web import SERVER_ENV, app_from_env

    monkeypatch.setenv("SAWBONES_DATABASE_URL", str(tmp_path / "w.db"))
    monkeypatch.setenv(SERVER_ENV, json.dumps(server_settings("0.0.0.0", None, ("table.example",), 2048)))
    with TestClient(app_from_env(), base_url="http://table.example") as client:
        assert client.get("/api/campaigns").status_code == 401  # closed
        assert client.post("/api/campaigns", content=b"x" * 3000).status_code == 413
    with TestClient(app_from_env(), base_url="http://other.example") as client:
        assert client.get("/").status_code == 400


@pytest.mark.parametrize("index", ["²", "٣", "9" * 5000])
def test_a_form_field_index_is_strict(client, index):
    secret = new_campaign(client)["gm_secret"]
    client.post("/api/campaigns/Alpha/characters", json={"name": "Nia", "max_hp": 9}, headers=bearer(secret))
    client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=bearer(secret)).json()["gm_link"])
    csrf = csrf_of(client.get("/c/Alpha"))
    answer = client.post("/c/Alpha/act/damage", data={"csrf": csrf, "character": "nia", f"parts.{index}.amount": "3",
                                                      f"parts.{index}.type": "fire"})
    assert answer.status_code == 200 and "flash-error" in answer.text  # a message, not a 500
