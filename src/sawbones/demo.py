"""The README's first command: the web app on a demo campaign (`python -m sawbones.demo`), or a
guided tour of the CLI (`python -m sawbones.demo --tour`).

The web app serves ./sawbones.db (the CLI's default database), where the demo campaign is created
when absent: a party with injuries, a wound and a disease under way. Each start prints the address,
a one-time GM sign-in link (browsers already signed in stay signed in) and the players' links. The tour runs real CLI commands against ./sawbones-demo.db
(recreated each time) and shows each one.
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import sys
from typing import Any

from .interfaces.cli import main
from .message import N_
from .presentation.locale import _, language, speaking

DB = "sawbones-demo.db"
WEB_DB = "sawbones.db"
DEMO_CAMPAIGN = "Phandalin"

TOUR: list[tuple[str, str]] = [
    (N_("A campaign keeps its own dice seed, clock, options and characters."), "campaign create 'Tour of the Sword Coast' --seed 7"),
    (N_("Add the party (HP, abilities, proficiencies)."),
     "character add Aria --max-hp 24 --abilities str=10,dex=16,con=12,wis=14 --skills medicine=5 "
     "--prof medicine,herbalism_kit --hit-die d8 --hit-dice 3"),
    ("", "character add Borin --max-hp 31 --abilities str=16,con=16 --hit-die d10 --hit-dice 3"),
    (N_("Every table of the three rules is data you can browse, in French or English."), "tables fire"),
    (N_("Borin drops to 0 HP: one d20 (the player's own, typed with --d20) picks severity and row."),
     "damage Borin 35 fire --d20 12"),
    (N_("The party in plain words: HP, dying or stable, the injury, its DC and how it heals."), "status"),
    (N_("Borin is dying: Aria stabilizes him before anything else."), "stabilize Borin"),
    (N_("Aria treats the injury: its time passes on the clock, then her Medicine check."), "treat Borin i1 --healer Aria"),
    (N_("A short rest: Borin spends a Hit Die and is back on his feet (at 0 HP a long rest gives nothing)."),
     "rest --short Borin --hit-dice 1"),
    (N_("A long rest: hit points and Hit Dice come back, and it heals minor and moderate injuries."), "rest --long"),
    (N_("Aria catches filth fever (Pathfinder's disease tracks run in any campaign)."), "expose Aria filth_fever --save 3"),
    (N_("Days pass: every save that falls due is rolled (--auto), stage by stage."), "advance 3d --auto"),
    ("", "status Aria"),
    (N_("Every change is an event, told in words; undo reverts the last action and says what it undid."), "log --limit 8"),
    ("", "undo"),
    (N_("The same, in French."), "--lang fr status"),
]



def run_tour(db: str = DB) -> int:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    here = language()
    for comment, command in TOUR:
        if comment:
            print(f"\n# {_(comment)}")
        print(f"$ sawbones {command}")
        sys.stdout.flush()
        with speaking(here):  # a step's --lang is that step's (the CLI sets the language it is given)
            code = main(["--db", db, *shlex.split(command)])
        if code:
            return code
    print("\n" + _("The demo campaign is in {db}: try `.venv/bin/sawbones --db {db} status`.", db=db))
    return 0


def _build_demo(service: Any) -> None:
    """The demo party: Borin burnt to 0 HP (a secret deadline runs), Cora cut down and wounded in the hand,
    Dain two days into filth fever; Aria is the healer."""
    from .domain.engine.campaign import add_character

    service.create_campaign(DEMO_CAMPAIGN, "dnd5e", 7)

    def act(decision: Any) -> None:
        service.act(DEMO_CAMPAIGN, decision)

    party = (("Aria", {"max_hp": 24, "abilities": {"dex": 16, "con": 12, "wis": 14}, "skills": {"medicine": 5},
                       "proficiencies": ["medicine", "herbalism_kit"], "hit_die": 8, "hit_dice": 3}),
             ("Borin", {"max_hp": 31, "abilities": {"str": 16, "con": 16}, "hit_die": 10, "hit_dice": 3}),
             ("Cora", {"max_hp": 18, "abilities": {"dex": 16}, "hit_die": 8, "hit_dice": 2}),
             ("Dain", {"max_hp": 27, "abilities": {"con": 14}, "saves": {"fortitude": 4}, "hit_die": 8, "hit_dice": 3}))
    for name, sheet in party:
        act(lambda ctx, name=name, sheet=sheet: add_character(ctx, name, sheet))
    try:  # progression tracks: Dain caught filth fever two days ago
        from .domain.afflictions.decide import expose
        from .domain.engine.timeline import advance

        act(lambda ctx: expose(ctx, "Dain", "filth_fever", 1))
        act(lambda ctx: advance(ctx, 2 * 86400, True))
    except ModuleNotFoundError:  # pragma: no cover - a build without tracks
        pass
    from .domain.engine.damage import damage

    act(lambda ctx: damage(ctx, "Borin", [(35, "fire")], 2))
    act(lambda ctx: damage(ctx, "Cora", [(20, "slashing")], 9))
    try:  # localized wounds: Cora's left hand
        from .domain.wounds.rules import wound

        act(lambda ctx: wound(ctx, "Cora", "hand", 4, "left", None, None, "a goblin's scimitar"))
    except ModuleNotFoundError:  # pragma: no cover
        pass


def ensure_demo(service: Any, base: str) -> tuple[str, str, list[tuple[str, str]]]:
    """Create the demo campaign when absent; a fresh GM sign-in link (sessions already signed in stay).
    (name, sign-in link, [(character, player token)])."""
    from .interfaces.web.api.campaigns import sign_in_link
    from .interfaces.web.access import access, security

    if DEMO_CAMPAIGN not in service.store.campaign_names():
        _build_demo(service)
        security.new_gm_secret(service.store, DEMO_CAMPAIGN)
    state = service.load(DEMO_CAMPAIGN).state
    players = [(c.name, access.player_token(service.store, DEMO_CAMPAIGN, state, c.id)) for c in state.characters]
    return DEMO_CAMPAIGN, base + sign_in_link(service.store, DEMO_CAMPAIGN), players


def free_port(host: str, first: int, tries: int = 20) -> int:
    """The first port from `first` that nothing listens on (the demo must start even when 8000 is taken)."""
    for port in range(first, first + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    return first


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run.sh", description="sawbones: the web app on a demo campaign, "
                                     "or the CLI tour (--tour).")
    parser.add_argument("--tour", action="store_true", help="Play the guided CLI tour instead of serving.")
    parser.add_argument("--host", default="127.0.0.1", help="Address to listen on (default 127.0.0.1).")
    parser.add_argument("--port", type=int, help="Port (default: 8000, or the next free one).")
    parser.add_argument("--db", default=WEB_DB, help=f"Database of the web app (default ./{WEB_DB}).")
    parser.add_argument("--base", help="The address players reach the server at (a reverse proxy's https://…); "
                        "default: the machine's network address when --host is 0.0.0.0.")
    parser.add_argument("--qr", action="store_true", help="Also draw each player link as a QR code.")
    args = parser.parse_args(argv)
    if args.tour:
        return run_tour()
    port = args.port or free_port(args.host, 8000)
    more = (["--base", args.base] if args.base else []) + (["--qr"] if args.qr else [])
    return main(["--db", args.db, "serve", "--demo", "--host", args.host, "--port", str(port), *more])


if __name__ == "__main__":
    sys.exit(run())
