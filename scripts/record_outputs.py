#!/usr/bin/env python3
"""Record what a user reads, in English and in French, to compare it before and after a change (issue 38:
"nothing a user reads changes").

    .venv/bin/python scripts/record_outputs.py OUT_DIR [--sawbones PATH]

Only public tools: the `sawbones` command (as a user types it, in a fresh temporary folder and database) and
the web app it serves (`sawbones serve` on 127.0.0.1, a GM sign-in link, a player link), read over HTTP.
One file per output, under OUT_DIR/<lang>/:
  readme/NN-….txt   every command of the README's quick tour, in order (the dice come from the seed and --d20)
  tour/NN-….txt     the guided tour (`run.sh --tour`), its commands copied here so both runs play the same ones
  errors/….txt      a bad dice formula, an unknown damage type, an unknown campaign, a malformed content file,
                    refused rules, usage mistakes
  help/….txt        `--help` of every command and subcommand (found by walking `sawbones --help`)
  pages/….html      the pages: home, dashboard, player page, tables, error pages (?lang=en|fr)
  api/….txt         the JSON API's errors (?lang=en|fr)
Each text file holds the command, its exit code, its stdout and its stderr. What changes from run to run
(sign-in codes, tokens, nonces, ports, wall-clock times) is masked, so two runs compare with `diff -r`.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "fr")

# the guided tour (src/sawbones/demo.py's TOUR at the time of issue 38), copied so both runs play the same story
TOUR = [
    "campaign create 'Tour of the Sword Coast' --seed 7",
    "character add Aria --max-hp 24 --abilities str=10,dex=16,con=12,wis=14 --skills medicine=5 "
    "--prof medicine,herbalism_kit --hit-die d8 --hit-dice 3",
    "character add Borin --max-hp 31 --abilities str=16,con=16 --hit-die d10 --hit-dice 3",
    "tables fire",
    "damage Borin 35 fire --d20 12",
    "status",
    "treat Borin i1 --healer Aria",
    "rest --long",
    "expose Aria filth_fever --save 3",
    "advance 3d --auto",
    "status Aria",
    "log --limit 8",
    "undo",
    "--lang fr status",
]

# more of what the tests and the pseudo-locale look at: a table of each kind, odds, a wound, JSON
EXTRA = [
    "tables",
    "tables severity",
    "tables body_parts",
    "tables filth_fever",
    "roll fire --d20 7",
    "odds filth_fever",
    "odds --injury cold --d20 3 --bonus 2",
    "character add Cora --max-hp 18 --abilities dex=16",
    "damage Cora 20 slashing --d20 9",
    "wound Cora hand --damage 4 --side left",
    "status",
    "status Cora",
    "campaign show",
    "campaign list",
    "character list",
    "clock",
    "pending",
    "log",
    "--json status",
]

BAD_PACK = """injuries:
  - id: bleed
    name: {fr: a, en: a}
    text: {fr: a, en: a}
    effects: [{type: trigger, "on": day, outcome: {max_hp_loss: "1d4+"}}]
"""
MALFORMED_PACK = "damage_tables: [\n  - id: sonic\n    name: {fr: Sonique\n"
UNKNOWN_KEY_PACK = "monsters: []\n"

# (file name, command); run after `campaign create Errors --seed 3` and `character add Borin --max-hp 20`
ERRORS = [
    ("bad-dice-formula", "--content {bad_pack} status"),
    ("malformed-content-file", "--content {malformed_pack} status"),
    ("unknown-content-key", "--content {unknown_pack} status"),
    ("missing-content-folder", "--content {tmp}/nope status"),
    ("unknown-damage-type", "damage Borin 5 fyre"),
    ("unknown-campaign", "--campaign Nowhere status"),
    ("unknown-character", "status Nobody"),
    ("unknown-command", "stauts"),
    ("unknown-option", "status --fast"),
    ("amount-not-a-number", "damage Borin 2d6+ fire"),
    ("d20-out-of-range", "roll cold --d20 44"),
    ("d20-not-used", "damage Borin 5 fire --d20 2"),
    ("unknown-table", "tables nothing-here"),
    ("unknown-affliction", "expose Borin no_such_fever"),
    ("bad-duration", "advance forever"),
    ("unknown-option-name", "campaign set no_such_option on"),
    ("bad-option-value", "campaign set severity_bands sideways"),
    ("refused-stabilize-standing", "stabilize Borin"),
    ("refused-treat-no-injury", "treat Borin i9"),
    ("refused-heal-nothing", "heal Borin --spell regenerate"),
    ("refused-undo-empty", "--campaign Empty undo"),
    ("refused-duplicate-character", "character add Borin --max-hp 20"),
    ("refused-duplicate-campaign", "campaign create Errors --seed 3"),
    ("json-error", "--json status Nobody"),
]

MASKS = [
    (re.compile(r'(<svg class="qr"[^>]*>).*?</svg>', re.S), r"\1<qr/></svg>"),  # a QR code draws a random link
    (re.compile(r"(code=)[A-Za-z0-9_\-]+"), r"\1<code>"),
    (re.compile(r"(nonce=\")[^\"]+"), r"\1<nonce>"),
    (re.compile(r"(/p/)[A-Za-z0-9_\-]{8,}"), r"\1<token>"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:?\d\d|Z)?"), "<datetime>"),
    (re.compile(r"\b(?=[\w\-]*\d)(?=[\w\-]*[A-Za-z])[\w\-]{20,}\b", re.A), "<secret>"),  # letters and digits
    (re.compile(r"(backup-|sawbones-)\d{8}[-T]?\d{4,6}"), r"\1<stamp>"),
]


def mask(text: str, tmp: str) -> str:
    if tmp:
        text = text.replace(tmp, "<tmp>")
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def slug(command: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "-", command).strip("-")[:60] or "bare"


class Runner:
    """Runs `sawbones` in a temporary folder with a clean environment (no $SAWBONES_*; 100 columns, no colour)."""

    def __init__(self, sawbones: str, folder: Path) -> None:
        self.sawbones, self.folder = sawbones, folder
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SAWBONES_")}
        self.env.update(COLUMNS="100", LINES="50", NO_COLOR="1", TERM="dumb", PYTHONIOENCODING="utf-8",
                        XDG_CACHE_HOME=str(folder / "cache"), HOME=str(folder))
        self.env.pop("FORCE_COLOR", None)

    def run(self, args: list[str], db: str | None = None) -> tuple[int, str, str]:
        argv = [self.sawbones, *(["--db", db] if db else []), *args]
        done = subprocess.run(argv, cwd=self.folder, env=self.env, capture_output=True, text=True, timeout=300)
        return done.returncode, done.stdout, done.stderr

    def record(self, out: Path, args: list[str], db: str | None = None) -> tuple[int, str, str]:
        code, stdout, stderr = self.run(args, db)
        said = shlex.join(["sawbones", *args])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(mask(f"$ {said}\n[exit {code}]\n--- stdout\n{stdout}--- stderr\n{stderr}", str(self.folder)),
                       encoding="utf-8")
        return code, stdout, stderr


def readme_commands() -> list[list[str]]:
    """Every `sawbones …` line of the README's sh blocks, in order, without its comment (as tests/test_newcomer.py
    reads them); `serve` (it blocks) is left out."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = re.sub(r"\s{2,}#.*$", "", line).strip()
            if line.startswith("sawbones ") and not line.startswith("sawbones serve"):
                commands.append(shlex.split(line)[1:])
    return commands


def with_lang(args: list[str], lang: str) -> list[str]:
    return args if lang == "en" else ["--lang", lang, *args]


def record_story(runner: Runner, out: Path, name: str, commands: list[list[str]], lang: str) -> str:
    db = str(runner.folder / f"{name}-{lang}.db")
    for i, args in enumerate(commands, 1):
        runner.record(out / lang / name / f"{i:02d}-{slug(' '.join(args))}.txt", with_lang(args, lang), db)
    return db


def record_errors(runner: Runner, out: Path, lang: str) -> None:
    tmp = runner.folder
    packs = {}
    for key, text in (("bad_pack", BAD_PACK), ("malformed_pack", MALFORMED_PACK), ("unknown_pack", UNKNOWN_KEY_PACK)):
        folder = tmp / key
        folder.mkdir(exist_ok=True)
        (folder / "pack.yaml").write_text(text, encoding="utf-8")
        packs[key] = str(folder)
    db = str(tmp / f"errors-{lang}.db")
    runner.run(["campaign", "create", "Empty", "--seed", "1"], db)
    runner.run(["campaign", "create", "Errors", "--seed", "3"], db)
    runner.run(["character", "add", "Borin", "--max-hp", "20"], db)
    for name, command in ERRORS:
        args = shlex.split(command.format(tmp=tmp, **packs))
        runner.record(out / lang / "errors" / f"{name}.txt", with_lang(args, lang), db)


def command_names(help_text: str) -> list[str]:
    """The commands listed under "Commands:" in a --help text."""
    part = help_text.split("Commands:", 1)
    if len(part) < 2:
        return []
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z0-9-]*)(\s|$)", part[1], re.M)]


def all_commands(runner: Runner) -> list[list[str]]:
    found, todo = [], [[]]
    while todo:
        path = todo.pop(0)
        found.append(path)
        todo += [[*path, name] for name in command_names(runner.run([*path, "--help"])[1])]
    return found


def record_help(runner: Runner, out: Path, commands: list[list[str]], lang: str) -> None:
    for path in commands:
        runner.record(out / lang / "help" / f"{slug(' '.join(path)) if path else 'sawbones'}.txt",
                      with_lang([*path, "--help"], lang))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def record_pages(runner: Runner, out: Path, db: str, campaign: str, player: str) -> None:
    """Serve `db` on 127.0.0.1; sign in with a GM link; read each page in both languages."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    made = json.loads(runner.run(["--json", "--campaign", campaign, "gm-link", "--api-secret", "--base", base], db)[1])
    gm_link, secret = made["gm_link"], made["gm_secret"]
    links = runner.run(["--campaign", campaign, "player-link", "--base", base], db)[1]
    player_link = next(w for line in links.splitlines() if player in line for w in line.split() if "://" in w)
    server = subprocess.Popen([runner.sawbones, "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=runner.folder, env=runner.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        gm = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        gm.open(gm_link, timeout=30).read()
        anyone = urllib.request.build_opener()
        c = urllib.parse.quote(campaign)
        pages = [("home", gm, "/"), ("dashboard", gm, f"/c/{c}"), ("tables", anyone, "/tables"),
                 ("table-fire", anyone, "/tables/fire"), ("table-fire-d20", anyone, "/tables/fire?d20=4"),
                 ("table-severity", anyone, "/tables/severity"), ("table-body-parts", anyone, "/tables/body_parts"),
                 ("table-filth-fever", anyone, "/tables/filth_fever"),
                 ("dashboard-mods", gm, f"/c/{c}?mods={urllib.parse.quote(player)}&roll=str"),
                 ("dashboard-odds-error", gm, f"/c/{c}?odds=nothing"),
                 ("error-unknown-table", anyone, "/tables/nothing-here"),
                 ("error-unknown-campaign", gm, "/c/Nowhere"), ("error-no-access", anyone, f"/c/{c}"),
                 ("error-not-found", anyone, "/no-such-page"),
                 ("player", anyone, player_link.split(str(port), 1)[1])]
        for lang in LANGS:
            for name, opener, path in pages:
                sep = "&" if "?" in path else "?"
                try:
                    answer = opener.open(f"{base}{path}{sep}lang={lang}", timeout=60)
                    status, body = answer.status, answer.read().decode("utf-8", "replace")
                except urllib.error.HTTPError as exc:
                    status, body = exc.code, exc.read().decode("utf-8", "replace")
                target = out / lang / "pages" / f"{name}.html"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"<!-- GET {mask(path, '')} → {status} -->\n{mask(body, str(runner.folder))}",
                                  encoding="utf-8")
        record_api(out, base, c, secret, runner)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


# the JSON API's errors (method, path, body or None, with the GM's secret?)
API_ERRORS = [
    ("unknown-campaign", "GET", "/api/campaigns/Nowhere", None, True),
    ("no-secret", "GET", "/api/campaigns/{c}", None, False),
    ("unknown-table", "GET", "/api/tables/nothing-here", None, False),
    ("unknown-damage-type", "POST", "/api/campaigns/{c}/damage",
     {"character": "Aria", "parts": [{"amount": 5, "type": "fyre"}]}, True),
    ("unknown-character", "POST", "/api/campaigns/{c}/damage",
     {"character": "Nobody", "parts": [{"amount": 5, "type": "fire"}]}, True),
    ("d20-not-used", "POST", "/api/campaigns/{c}/damage",
     {"character": "Aria", "parts": [{"amount": 1, "type": "fire"}], "d20": 2}, True),
    ("unknown-affliction", "POST", "/api/campaigns/{c}/expose",
     {"character": "Aria", "affliction": "no_such_fever", "save": 1}, True),
    ("bad-body", "POST", "/api/campaigns/{c}/damage", {"character": "Aria", "parts": "lots"}, True),
]


def record_api(out: Path, base: str, campaign: str, secret: str, runner: Runner) -> None:
    """The API's error documents, in each language (?lang=)."""
    for lang in LANGS:
        for name, method, path, body, signed in API_ERRORS:
            url = f"{base}{path.format(c=campaign)}?lang={lang}"
            request = urllib.request.Request(url, method=method, data=None if body is None else
                                             json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            if signed:
                request.add_header("Authorization", f"Bearer {secret}")
            try:
                answer = urllib.request.urlopen(request, timeout=60)
                status, said = answer.status, answer.read().decode("utf-8", "replace")
            except urllib.error.HTTPError as exc:
                status, said = exc.code, exc.read().decode("utf-8", "replace")
            try:
                said = json.dumps(json.loads(said), ensure_ascii=False, indent=1, sort_keys=True)
            except ValueError:
                pass
            target = out / lang / "api" / f"{name}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"{method} {mask(path.format(c=campaign), '')} {json.dumps(body)} → {status}\n"
                              f"{mask(said, str(runner.folder))}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="Folder to write the outputs into (emptied first).")
    default = ROOT / ".venv" / "bin" / "sawbones"
    parser.add_argument("--sawbones", default=str(default) if default.exists() else shutil.which("sawbones"),
                        help="The sawbones command (default: ./.venv/bin/sawbones).")
    parser.add_argument("--no-pages", action="store_true", help="Leave the web pages out.")
    args = parser.parse_args(argv)
    if not args.sawbones:
        parser.error("no sawbones command: run scripts/bootstrap.sh first or give --sawbones")
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="sawbones-outputs-") as folder:
        runner = Runner(args.sawbones, Path(folder))
        commands = all_commands(runner)
        for lang in LANGS:
            readme_db = record_story(runner, args.out, "readme", readme_commands(), lang)
            record_story(runner, args.out, "tour", [shlex.split(c) for c in TOUR], lang)
            record_story(runner, args.out, "extra", [shlex.split(c) for c in ["campaign create Extra --seed 11",
                         "character add Aria --max-hp 24 --skills medicine=5", *EXTRA]], lang)
            record_errors(runner, args.out, lang)
            record_help(runner, args.out, commands, lang)
        if not args.no_pages:
            record_pages(runner, args.out, readme_db, "Sword Coast", "Aria")
    count = sum(1 for p in args.out.rglob("*") if p.is_file())
    print(f"{count} outputs in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
