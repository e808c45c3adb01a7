#!/usr/bin/env bash
# First command of the README: install sawbones into ./.venv, then serve the web app on ./sawbones.db with a
# demo campaign (made when absent) and print its address and links. `bash run.sh --tour`: the CLI tour instead.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/bootstrap.sh
exec .venv/bin/python -m sawbones.demo "$@"
