"""The bot's small state file (JSON): the table channel, the last event id it handled, and the prompt
messages it posted (pending roll -> channel, message, character, text), so a restart resumes the events
stream with Last-Event-ID and edits the prompts it posted before."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class BotState:
    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self.data: dict[str, Any] = {"table_channel": None, "last_event_id": None, "prompts": {}}
        if self.path is not None and self.path.exists():
            try:
                self.data.update(json.loads(self.path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                pass  # a damaged file: start afresh (the stream starts at the current version)

    @property
    def table_channel(self) -> int | None:
        value = self.data.get("table_channel")
        return int(value) if value else None

    @table_channel.setter
    def table_channel(self, channel_id: int | None) -> None:
        self.data["table_channel"] = channel_id
        self.save()

    @property
    def last_event_id(self) -> int | None:
        value = self.data.get("last_event_id")
        return int(value) if value is not None else None

    @last_event_id.setter
    def last_event_id(self, value: int) -> None:
        self.data["last_event_id"] = value
        self.save()

    @property
    def prompts(self) -> dict[str, dict[str, Any]]:
        return self.data.setdefault("prompts", {})

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".sawbones-discord-")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.data, out)
        os.replace(tmp, self.path)
