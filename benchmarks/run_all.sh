#!/usr/bin/env bash
# Every benchmark, one after the other (about 30 minutes on a 2-core machine, 15 of them bench_live). Each prints markdown tables;
# docs/benchmarks.md records them. Usage: bash benchmarks/run_all.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
py=.venv/bin/python
echo "## CLI"; $py benchmarks/bench_cli.py
echo; echo "## Engine"; $py benchmarks/bench_engine.py
echo; echo "## Odds"; $py benchmarks/bench_odds.py
echo; echo "## Injury odds"; $py benchmarks/bench_injury_odds.py
echo; echo "## A campaign's what-if"; $py benchmarks/bench_what_if.py
echo; echo "## Store"; $py benchmarks/bench_store.py
echo; echo "## Store: the file stamp"; $py benchmarks/bench_stamp.py
echo; echo "## Web API"; $py benchmarks/bench_web.py --workers 2
echo; echo "## Web limits"; $py benchmarks/bench_web_limits.py
echo; echo "## Costly odds under attack"; $py benchmarks/bench_costly.py
echo; echo "## Contention"; $py benchmarks/bench_contention.py
echo; echo "## Reads while GMs write"; $py benchmarks/bench_readers.py
echo; echo "## Player view"; $py benchmarks/bench_player_view.py
echo; echo "## What one read costs the server"; $py benchmarks/bench_read_cost.py
echo; echo "## Live streams"; $py benchmarks/bench_live.py
echo; echo "## Live delivery, in one process"; $py benchmarks/bench_deliver.py
