"""The bot's state file (JSON, mode 0600): per Discord server (its guild id), the party's table channel, the
last action it posted, what it posted of the action under way, and the prompt messages it posted (pending
roll -> channel, message, character, text, the answer's key); a server linked with /link also keeps its
campaign and API secret there (never echoed or logged). A restart resumes the events stream with
Last-Event-ID and edits the prompts it posted before.

The default path is absolute and the same from any folder: `$XDG_STATE_HOME/sawbones/discord.json`, else
`~/.local/state/sawbones/discord.json` (default_path)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

FLAT = ("table_channel", "last_event_id", "prompts")  # a file of one party, as the bot kept it before servers


def default_path() -> str:
    home = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.abspath(os.path.join(home, "sawbones", "discord.json"))


class BotState:
    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path).resolve() if path else None
        self.data: dict[str, Any] = {"parties": {}}
        if self.path is not None and self.path.exists():
            try:
                self.data.update(json.loads(self.path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                pass  # a damaged file: start afresh (the stream starts at the current version)
        self.data.setdefault("parties", {})

    def party(self, guild_id: int, *, adopt_flat: bool = False) -> "PartyState":
        """The server's part of the file (made when absent); `adopt_flat`: a file of one party written before
        servers becomes this server's."""
        parties = self.data["parties"]
        if str(guild_id) not in parties:
            parties[str(guild_id)] = {"table_channel": None, "last_event_id": None, "prompts": {}, "sent": {}}
            if adopt_flat:
                parties[str(guild_id)].update({k: self.data.pop(k) for k in FLAT if k in self.data})
        return PartyState(self, parties[str(guild_id)])

    def linked(self) -> list[int]:
        """The servers linked to a campaign with /link."""
        return [int(g) for g, p in self.data["parties"].items() if p.get("campaign") and p.get("secret")]

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".sawbones-discord-")  # (mode 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.data, out)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)


class PartyState:
    """One server's part of the state file."""

    def __init__(self, owner: BotState, data: dict[str, Any]) -> None:
        self.owner, self.data = owner, data
        data.setdefault("prompts", {})
        data.setdefault("sent", {})

    def save(self) -> None:
        self.owner.save()

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
        self.data["sent"] = {k: v for k, v in self.data["sent"].items() if int(k) > value}
        self.save()

    @property
    def prompts(self) -> dict[str, dict[str, Any]]:
        return self.data["prompts"]

    def sent(self, action_id: int) -> list[str]:
        """The parts of an action already posted (the GM's lines, the table's, each prompt): each posted once."""
        return self.data["sent"].setdefault(str(action_id), [])

    def mark_sent(self, action_id: int, part: str) -> None:
        self.sent(action_id).append(part)
        self.save()

    def link(self, campaign: str, secret: str) -> None:
        self.data.update(campaign=campaign, secret=secret, last_event_id=None, prompts={}, sent={})
        self.save()
