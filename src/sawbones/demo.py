"""The README's first command: a guided tour of sawbones on a fresh demo campaign.

Runs real CLI commands against ./sawbones-demo.db (recreated each time) and shows each one.
"""

from __future__ import annotations

import os
import shlex
import sys

from .interfaces.cli import main

DB = "sawbones-demo.db"

TOUR: list[tuple[str, str]] = [
    ("A campaign keeps its own dice seed, clock, options and characters.", "campaign create 'Tour of the Sword Coast' --seed 7"),
    ("Add the party (HP, abilities, proficiencies).",
     "character add Aria --max-hp 24 --abilities str=10,dex=16,con=12,wis=14 --prof medicine,herbalism_kit --hit-die d8 --hit-dice 3"),
    ("", "character add Borin --max-hp 31 --abilities str=16,con=16 --hit-die d10 --hit-dice 3"),
    ("Every table of the three rules is data you can browse, in French or English.", "tables"),
    ("The fire injury table:", "tables fire"),
    ("One d20 picks both severity and row; type the player's own die with --d20.", "roll fire --d20 12"),
    ("", "--lang fr roll cold --d20 4"),
    ("Options are declared once, with defaults taken from the rules notes.", "campaign set severity_bands lenient"),
    ("", "roll cold --d20 4"),
    ("Every change is an event; undo reverts the last action exactly.", "undo"),
    ("", "log"),
    ("The game clock moves forward and runs what falls due.", "advance 8h"),
    ("", "status"),
]


def run_tour(db: str = DB) -> int:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    for comment, command in TOUR:
        if comment:
            print(f"\n# {comment}")
        print(f"$ sawbones {command}")
        sys.stdout.flush()
        code = main(["--db", db, *shlex.split(command)])
        if code:
            return code
    print(f"\nThe demo campaign is in {db}: try `.venv/bin/sawbones --db {db} status`.")
    return 0


if __name__ == "__main__":
    sys.exit(run_tour())
