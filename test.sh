#!/usr/bin/env bash
# Second command of the README: install sawbones with its test tools into ./.venv and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/bootstrap.sh dev
exec .venv/bin/python -m pytest "$@"
