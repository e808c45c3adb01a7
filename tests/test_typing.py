"""`mypy --strict` on the pure layers (src/sawbones/domain and src/sawbones/content) and the presentation layer
(src/sawbones/presentation: the words, the documents people read; issue 38); config in pyproject.toml.

The layers are strict: any error fails. Reached step by step (issue 16: 200 errors when decisions took
`ctx: Any`, 105 before the typed character accessor); BASELINE stays 0.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = 0  # `mypy` errors allowed on domain/, content/ and presentation/: none
LAYERS = ("src/sawbones/domain", "src/sawbones/content", "src/sawbones/presentation")


def test_mypy_covers_the_pure_layers_and_the_presentation():
    import tomllib

    files = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
    assert set(LAYERS) <= set(files), files


def test_mypy_strict_passes_on_domain_content_and_presentation():
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    out = run.stdout + run.stderr
    assert "No module named mypy" not in out, "mypy is a dev dependency: bash scripts/bootstrap.sh dev"
    found = re.search(r"Found (\d+) errors?", out)
    errors = int(found.group(1)) if found else (0 if "Success" in out else None)
    assert errors is not None, out[-2000:]
    assert errors <= BASELINE, f"mypy --strict: {errors} errors, more than the {BASELINE} allowed:\n{out[-4000:]}"
    if errors < BASELINE:
        print(f"mypy --strict: {errors} errors: lower BASELINE in tests/test_typing.py to {errors}")
