"""The campaign's events stream (SSE, GET …/events), read in a thread of its own.

The stream waits on the outside world forever, so it is not the bot's unfinished work: it runs in a plain
thread (SimCord settles the bot's own tasks, and would stop at this wait). Each action's document is handed
to the bot's loop as a task of its own (`loop.call_soon_threadsafe` + `create_task`), so each post is the
bot's own work. The thread speaks the language of whoever starts it (the channels'): the documents come in
it. A lost connection is retried with `Last-Event-ID`: the last id handed over, which starts at
the state file's last event id; the bot drops any id it has already handled.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Callable

import httpx

from ..presentation.locale import language, speaking

LOG = logging.getLogger("sawbones.discord")
BACKOFF = (0.5, 1, 2, 5, 10)


class Feed(threading.Thread):
    def __init__(self, url: str, headers: Callable[[], dict[str, str]], start: int | None,
                 deliver: Callable[[dict[str, Any]], bool]) -> None:
        super().__init__(name="sawbones-events", daemon=True)
        self.url, self.headers = url, headers
        self.language = language()
        self.last = start  # the last id handed over
        self.deliver = deliver  # False: the bot is gone, stop
        self.stopped = threading.Event()
        self.connected = threading.Event()
        self._response: httpx.Response | None = None

    def stop(self) -> None:
        self.stopped.set()
        response = self._response
        if response is not None:
            try:
                response.close()
            except Exception:  # noqa: BLE001 - closing from another thread: the reader sees the end either way
                pass

    def start(self) -> None:
        self.language = language()  # (a thread starts in a context of its own: the language is handed over)
        super().start()

    def run(self) -> None:
        with speaking(self.language):
            self.follow()

    def follow(self) -> None:
        failures = 0
        with httpx.Client(timeout=httpx.Timeout(10.0, read=60.0), trust_env=False) as client:
            while not self.stopped.is_set():
                try:
                    self._follow(client)
                    failures = 0
                except (httpx.HTTPError, OSError, ValueError) as exc:
                    if self.stopped.is_set():
                        break
                    LOG.info("events stream: %s (reconnecting after id %s)", type(exc).__name__, self.last)
                    failures += 1
                self.connected.clear()
                self.stopped.wait(BACKOFF[min(failures, len(BACKOFF) - 1)])

    def _follow(self, client: httpx.Client) -> None:
        headers = dict(self.headers())
        params = {"lang": language()}
        if self.last is not None:
            headers["Last-Event-ID"] = str(self.last)
        with client.stream("GET", self.url, headers=headers, params=params) as response:
            self._response = response
            if response.status_code != 200:
                LOG.warning("events stream: HTTP %s", response.status_code)
                raise ValueError(response.status_code)
            self.connected.set()
            data: list[str] = []
            for line in response.iter_lines():
                if self.stopped.is_set():
                    return
                if line.startswith("data:"):
                    data.append(line[5:].lstrip())
                elif line == "" and data:
                    doc = json.loads("\n".join(data))
                    data = []
                    if not self.deliver(doc):
                        self.stopped.set()
                        return
                    self.last = int(doc["id"])
