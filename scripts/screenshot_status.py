"""Render `sawbones status` after a short fight to docs/img/status.svg (the README picture)."""

import os
import sys
import tempfile

from rich.console import Console

from sawbones.interfaces import cli as cli_module
from sawbones.interfaces.cli import main

record = Console(record=True, width=100, highlight=False, soft_wrap=True)
cli_module.console = lambda: record
with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    steps = [
        ["campaign", "create", "Sword Coast", "--seed", "7"],
        ["character", "add", "Aria", "--max-hp", "24", "--prof", "medicine,herbalism_kit", "--hit-dice", "3"],
        ["character", "add", "Borin", "--max-hp", "31", "--abilities", "str=16,con=16"],
        ["damage", "Borin", "35", "fire", "--d20", "2", "--site", "hand"],
        ["damage", "Aria", "30", "slashing", "--d20", "12"],
        ["advance", "8h"],
    ]
    for step in steps:
        main(["--db", db, *step])
    record.export_text(clear=True)  # keep only the status in the picture
    main(["--db", db, "status"])
    os.makedirs("docs/img", exist_ok=True)
    record.save_svg("docs/img/status.svg", title="sawbones status")
sys.exit(0)
