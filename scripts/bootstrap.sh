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
# the gettext catalogs, compiled (.po → .mo) when a .po is newer than its .mo
for po in src/sawbones/locale/*/LC_MESSAGES/sawbones.po; do
  if [ ! -f "${po%.po}.mo" ] || [ "$po" -nt "${po%.po}.mo" ]; then
    PYTHON=.venv/bin/python bash scripts/catalogs.sh compile
    break
  fi
done
