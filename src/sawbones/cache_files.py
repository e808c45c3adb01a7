"""The user's cache directory and the one way sawbones writes a file there (the checked rule content, the
injury odds): atomically, and never an error — a cache that cannot be written is only slower next time.

os.path, not pathlib: the checked content is read at every command's start-up (docs/benchmarks.md).
"""

from __future__ import annotations

import os
import pickle
import threading
from typing import Any


def cache_dir() -> str:
    """`$XDG_CACHE_HOME/sawbones`, else `~/.cache/sawbones`."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "sawbones")


def write_pickle(path: str, value: Any) -> bool:
    """Pickle `value` to `path` atomically (a reader sees the old file or the new one); False when it could not
    be written (a read-only home, a value that does not pickle), which callers ignore."""
    tmp = f"{os.path.splitext(path)[0]}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True
