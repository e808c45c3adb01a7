#!/usr/bin/env bash
# First command of the README: install sawbones into ./.venv and play a tour on a demo campaign.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/bootstrap.sh
exec .venv/bin/python -m sawbones.demo "$@"
