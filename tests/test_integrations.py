"""The contract a VTT module or a bot builds on, over HTTP against `sawbones serve` on 127.0.0.1:
a page of another origin calls the API with a Bearer secret (allowed origin: yes; other origin: no;
cookies never count cross-origin), the events stream resumes with Last-Event-ID exactly where the
client left, an Idempotency-Key applies once, a stale If-Match is refused, ids after an undo are new,
and a Foundry actor is imported over the API."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from test_web_browser import browser, serving  # noqa: F401  (the chromium fixture)

FIXTURES = Path(__file__).parent / "fixtures" / "import"
PAGE = b"<!doctype html><title>a VTT</title><p>another origin</p>"


def _static_site() -> tuple[ThreadingHTTPServer, str]:
    """A page of another origin (a hosted VTT, in the real world)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args):
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site, f"http://127.0.0.1:{site.server_address[1]}"


@pytest.fixture(scope="module")
def sites():
    allowed, allowed_url = _static_site()
    other, other_url = _static_site()
    yield allowed_url, other_url
    allowed.shutdown()
    other.shutdown()


@pytest.fixture(scope="module")
def api(tmp_path_factory, sites):
    """`sawbones serve` allowing the first site's origin (from the environment, as a deployment would)."""
    with serving(tmp_path_factory.mktemp("integrations"), SAWBONES_CORS_ORIGINS=sites[0]) as base:
        yield base


def _campaign(api: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=api, timeout=30)
    created = client.post("/api/campaigns", json={"name": name, "seed": 11})
    assert created.status_code == 201, created.text
    client.headers["Authorization"] = f"Bearer {created.json()['gm_secret']}"
    client.secret = created.json()["gm_secret"]
    client.campaign = f"/api/campaigns/{name}"
    added = client.post(f"{client.campaign}/characters", json={"name": "Brena", "max_hp": 20})
    assert added.status_code == 201, added.text
    return client


def _version(client: httpx.Client) -> int:
    return client.get(client.campaign).json()["version"]


FIRE = {"character": "Brena", "parts": [{"amount": 30, "type": "fire"}], "d20": 4}


def test_the_same_idempotency_key_applies_once(api):
    client = _campaign(api, "Retry")
    key = {"Idempotency-Key": "bot-42-damage-1"}
    first = client.post(f"{client.campaign}/damage", json=FIRE, headers=key)
    again = client.post(f"{client.campaign}/damage", json=FIRE, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json(), "the retry gets the first answer"
    log = client.get(f"{client.campaign}/log").json()["events"]
    assert [e["type"] for e in log].count("damage_taken") == 1, "applied once"
    other = client.post(f"{client.campaign}/damage", json={**FIRE, "d20": 5}, headers=key)
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"
    assert client.get(f"{client.campaign}/characters/Brena").json()["hp"] == 0


def test_a_stale_if_match_is_refused_with_the_current_version(api):
    client = _campaign(api, "Stale")
    seen = _version(client)
    moved = client.patch(f"{client.campaign}/characters/Brena", json={"hp": 12}, headers={"If-Match": str(seen)})
    assert moved.status_code == 200, moved.text
    stale = client.post(f"{client.campaign}/damage", json=FIRE, headers={"If-Match": f'"{seen}"'})
    assert stale.status_code == 409, stale.text
    body = stale.json()["error"]
    assert body["code"] == "version_mismatch" and body["current_version"] == _version(client) == seen + 1
    assert stale.headers["ETag"] == f'"{seen + 1}"'
    assert client.get(f"{client.campaign}/characters/Brena").json()["hp"] == 12, "nothing applied"
    undo = client.post(f"{client.campaign}/undo", params={"expected_version": seen})
    assert undo.status_code == 409, "undo too"
    fresh = client.post(f"{client.campaign}/damage", json=FIRE, headers={"If-Match": str(seen + 1)})
    assert fresh.status_code == 200 and fresh.json()["version"] == _version(client)


def test_ids_after_an_undo_are_new(api):
    client = _campaign(api, "Undo")
    first = client.post(f"{client.campaign}/damage", json=FIRE).json()
    old = [e["data"]["id"] for e in first["events"] if e["type"] == "injury_gained"]
    assert client.post(f"{client.campaign}/undo").status_code == 200
    second = client.post(f"{client.campaign}/damage", json={**FIRE, "d20": 17}).json()
    new = [e["data"]["id"] for e in second["events"] if e["type"] == "injury_gained"]
    assert old and new and not set(old) & set(new), (old, new)


def _read_events(client: httpx.Client, headers: dict, count: int, params: dict | None = None) -> list[dict]:
    """Read `count` messages of the events stream, then disconnect."""
    out: list[dict] = []
    with client.stream("GET", f"{client.campaign}/events", headers=headers, params=params, timeout=30) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        message: dict = {}
        for line in stream.iter_lines():
            if line.startswith("id: "):
                message["id"] = line[4:]
            elif line.startswith("data: "):
                message["data"] = json.loads(line[6:])
            elif line == "" and "data" in message:
                out.append(message)
                message = {}
                if len(out) == count:
                    break
    return out


def test_the_events_stream_resumes_with_last_event_id(api):
    client = _campaign(api, "Stream")
    story = [("damage", FIRE), ("advance", {"duration": "1h"}), ("undo", None),
             ("damage", {**FIRE, "d20": 9}), ("rest", {"kind": "long"})]

    def play(steps):
        for name, body in steps:
            answer = client.post(f"{client.campaign}/{name}", json=body) if body else client.post(
                f"{client.campaign}/{name}")
            assert answer.status_code == 200, answer.text

    start = _version(client)
    play(story[:2])
    seen = _read_events(client, {}, 2, {"after": start})  # the client reads two, then its connection drops
    assert [m["data"]["type"] for m in seen] == ["damage_taken", "clock_advanced"]
    assert seen[0]["data"]["characters"] == ["brena"] and seen[0]["data"]["lines"]
    play(story[2:])  # while it is away
    missed = _read_events(client, {"Last-Event-ID": seen[-1]["id"]}, 3)
    assert [m["data"]["type"] for m in missed] == ["action_undone", "damage_taken", "clock_advanced"]  # a long rest moves the clock first
    assert missed[0]["data"]["undone_action"] == seen[1]["data"]["action"], "undo appears as an event"
    versions = [int(m["id"]) for m in seen + missed]
    assert versions == sorted(set(versions)) and versions[-1] == _version(client), "each once, in order, up to now"
    for message in seen + missed:
        assert set(message["data"]) >= {"type", "action", "version", "characters", "lines", "events"}


def test_the_events_stream_needs_the_gm_secret(api):
    client = _campaign(api, "Closed")
    anonymous = httpx.get(f"{api}{client.campaign}/events", timeout=10)
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"


def test_preflight_for_an_allowed_origin_and_not_for_others(api, sites):
    allowed, other = sites
    ask = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,if-match",
           "Access-Control-Request-Private-Network": "true"}
    ok = httpx.options(f"{api}/api/campaigns/X/damage", headers={"Origin": allowed, **ask})
    assert ok.status_code == 204
    assert ok.headers["Access-Control-Allow-Origin"] == allowed
    assert "authorization" in ok.headers["Access-Control-Allow-Headers"].lower()
    assert "if-match" in ok.headers["Access-Control-Allow-Headers"].lower()
    assert ok.headers["Access-Control-Allow-Private-Network"] == "true"
    assert "Access-Control-Allow-Credentials" not in ok.headers
    refused = httpx.options(f"{api}/api/campaigns/X/damage", headers={"Origin": other, **ask})
    assert refused.status_code == 403 and "Access-Control-Allow-Origin" not in refused.headers


def test_cookies_never_count_cross_origin(api, sites):
    client = _campaign(api, "Cookie")
    cookie = {"Cookie": f"sawbones_session=anything; gm={client.secret}", "Origin": sites[0]}
    answer = httpx.get(f"{api}{client.campaign}/status", headers=cookie, timeout=10)
    assert answer.status_code == 401, "cross-origin, only the Bearer header is a credential"


def test_import_a_foundry_actor_over_the_api(api):
    client = _campaign(api, "Imported")
    files = [{"filename": p.name, "content": p.read_text("utf-8")} for p in
             (FIXTURES / "fvtt-Actor-brena.json", FIXTURES / "party.yaml")]
    answer = client.post(f"{client.campaign}/characters/import", json={"files": files})
    assert answer.status_code == 200, answer.text
    assert answer.json()["added"] == ["brena_hollowbrook", "ilse", "gorm"]
    found = client.get(f"{client.campaign}/characters", params={"external": "foundry:Actor.Xb3kQ9fLmN2pR7sT"})
    assert [c["name"] for c in found.json()["characters"]] == ["Brena Hollowbrook"]
    bad = client.post(f"{client.campaign}/characters/import",
                      json={"files": [{"filename": "sword.json", "content": '{"name": "Sword", "type": "weapon"}'}]})
    assert bad.status_code == 422 and bad.json()["error"]["where"] == "sword.json"


def _fetch_from(browser, site: str, url: str, secret: str) -> list:  # noqa: F811
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(site + "/")
        return page.evaluate("""async ([url, secret]) => {
            try {
                const r = await fetch(url, {headers: {Authorization: "Bearer " + secret}});
                return [r.status, (await r.json()).name];
            } catch (e) { return ["blocked", String(e)]; }
        }""", [url, secret])
    finally:
        context.close()


def test_a_page_of_an_allowed_origin_calls_the_api_and_others_cannot(api, sites, browser):  # noqa: F811
    client = _campaign(api, "Browser")
    url = f"{api}{client.campaign}"
    assert _fetch_from(browser, sites[0], url, client.secret) == [200, "Browser"]
    refused = _fetch_from(browser, sites[1], url, client.secret)
    assert refused[0] == "blocked", refused


def test_the_dashboard_file_picker_imports(api):
    """The GM's browser session posts the files (multipart) from the dashboard's form."""
    import re

    client = _campaign(api, "Picker")
    page = httpx.Client(base_url=api, timeout=30, follow_redirects=True)
    link = client.post(f"{client.campaign}/sign-in-link").json()["gm_link"]  # a one-time GM sign-in link
    dashboard = page.get(link)
    assert 'enctype="multipart/form-data"' in dashboard.text
    csrf = re.search(r'name="csrf" value="([^"]+)"', dashboard.text).group(1)
    files = [("files", (p.name, p.read_bytes(), "application/octet-stream"))
             for p in (FIXTURES / "fvtt-Actor-tam.json", FIXTURES / "party.csv")]
    done = page.post("/c/Picker/act/import_characters", data={"csrf": csrf, "back": "add"}, files=files)
    assert done.status_code == 200 and "Tam: added" in done.text
    names = [c["name"] for c in client.get(f"{client.campaign}/characters").json()["characters"]]
    assert names == ["Brena", "Tam", "Ilse", "Gorm"]


def test_the_openapi_contract(api):
    client = _campaign(api, "Contract")
    spec = httpx.get(f"{api}/api/openapi.json", timeout=10).json()
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids)) and all(i.isidentifier() and "_api_" not in i for i in ids), ids
    wrong = httpx.delete(f"{api}/api/campaigns", timeout=10)
    assert wrong.status_code == 405 and wrong.headers["Allow"] == "GET, HEAD, POST"  # (HEAD: issue 41)
    assert wrong.json()["error"]["code"] == "method_not_allowed"
    assert client.put(f"{client.campaign}/characters/Brena").headers["Allow"] == "DELETE, GET, HEAD, PATCH"
    whole = client.post(f"{client.campaign}/damage", json={"character": "Brena", "parts": [{"amount": 3.0,
                                                                                            "type": "fire"}]})
    assert whole.status_code == 200 and client.get(f"{client.campaign}/characters/Brena").json()["hp"] == 17
    half = client.post(f"{client.campaign}/damage", json={"character": "Brena", "parts": [{"amount": 2.5,
                                                                                           "type": "fire"}]})
    assert half.status_code == 422 and half.json()["error"]["where"] == "body.parts[0].amount"


# ------------------------------------------------------------------ issue 39, item 10: the page says what is true


def test_the_integrations_page_names_real_routes_and_commands(api):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "integrations.md").read_text(encoding="utf-8")
    assert "/api/docs" not in text and "`/api-docs`" in text
    assert httpx.get(f"{api}/api-docs").status_code == 200 and httpx.get(f"{api}/api/docs").status_code == 404
    assert "`sawbones gm-link --api-secret`" in text


def test_the_bot_sample_says_why_when_every_attempt_fails():
    """Its `act` left `r` undefined when the three attempts all failed (an UnboundLocalError); now it raises the
    transport's own error, and a request that goes through returns the answer."""
    import re as re_
    from pathlib import Path

    import httpx

    text = (Path(__file__).resolve().parents[1] / "docs" / "integrations.md").read_text(encoding="utf-8")
    sample = re_.search(r"## A minimal bot \(Python\)\n\n```python\n(.*?)```", text, re_.S).group(1)
    head = sample.split("\nprint(act(", 1)[0].replace("\"…\"", "\"s3cret\"")  # `act`, no live server

    def run(handler):
        namespace: dict = {}
        real = httpx.Client
        httpx.Client = lambda **kw: real(transport=httpx.MockTransport(handler), **kw)
        try:
            exec(compile(head, "integrations.md", "exec"), namespace)
        finally:
            httpx.Client = real
        return namespace["act"]

    calls = []

    def down(request):
        calls.append(request.headers["Idempotency-Key"])
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(httpx.ConnectError):
        run(down)("damage", {"character": "Brena", "parts": [{"amount": 3, "type": "fire"}]})
    assert len(calls) == 3 and len(set(calls)) == 1  # three tries, one key
    up = run(lambda request: httpx.Response(200, json={"lines": ["Brena takes 3"]}))
    assert up("damage", {"character": "Brena", "parts": []}) == {"lines": ["Brena takes 3"]}
