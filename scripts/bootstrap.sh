#!/usr/bin/env bash
# Creates ./.venv (once) and installs sawbones into it. Usage: bootstrap.sh [extra]
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.installed${extra:+-$extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra:+[$extra]}"
  touch "$stamp"
fi
