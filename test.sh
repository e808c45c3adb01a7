#!/usr/bin/env bash
# Second command of the README: install sawbones with its test tools into ./.venv and run the whole suite.
# It also installs what the real-component tests need when absent and the machine allows it:
# Debian's chromium (browser tests) and postgresql (the PostgreSQL store tests).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/bootstrap.sh dev
for setup in scripts/setup_chromium.sh scripts/setup_postgres.sh; do
  if [ -f "$setup" ]; then
    # shellcheck disable=SC1090
    source "$setup"
  fi
done
exec .venv/bin/python -m pytest "$@"
