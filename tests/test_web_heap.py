"""The server's worker processes settle their heap once (web/http/heap.py); the app the tests build does not."""

import json
import os
import subprocess
import sys

from sawbones.interfaces.web.http.heap import FULL_AFTER

PROBE = """
import gc, json
from sawbones.interfaces.cli import web
from sawbones.content.loader import _load
before = gc.get_threshold()
app = getattr(web, {factory!r})()
print(json.dumps({{"frozen": gc.get_freeze_count(), "threshold": gc.get_threshold(), "before": before,
                  "content_loaded": _load.cache_info().currsize}}))
"""


def probe(tmp_path, factory: str) -> dict:
    env = dict(os.environ, SAWBONES_DATABASE_URL=str(tmp_path / "w.db"))
    done = subprocess.run([sys.executable, "-c", PROBE.format(factory=factory)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_worker_loads_the_content_freezes_its_startup_and_spaces_full_collections(tmp_path):
    seen = probe(tmp_path, "worker_app")
    assert seen["content_loaded"] == 1  # loaded before the freeze, not by the first request
    assert seen["frozen"] > 50_000  # the modules and the content are never walked again
    assert seen["threshold"][:2] == seen["before"][:2]  # young collections as CPython does them
    assert seen["threshold"][2] == FULL_AFTER > seen["before"][2]


def test_the_app_alone_leaves_the_collector_as_it_was(tmp_path):
    seen = probe(tmp_path, "app_from_env")
    assert seen["frozen"] == 0 and seen["threshold"] == seen["before"]
