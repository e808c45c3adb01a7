"""One error hierarchy, mapped once per interface (CLI: message + exit code; API: JSON shape)."""

from __future__ import annotations

from typing import Sequence

from .message import Message, PerAudience, msg


class SawbonesError(Exception):
    """Base: a message for people, a stable code for programs, and where it happened.

    `text` is what the engine said (a Message, said in the reader's language by presentation.locale.say; a
    PerAudience when the fix differs by interface: the command line's flags, the API's fields, a page's form; plain
    text for what has no words of its own, a path, a library's message); `message` is its English (the command
    line's, for a PerAudience)."""

    code = "error"
    exit_code = 1

    def __init__(self, message: str | Message | PerAudience, where: str = "") -> None:
        super().__init__(str(message))
        self.text: str | Message | PerAudience = message
        self.message = str(message)
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "where": self.where}


class UsageError(SawbonesError):
    """The request itself is malformed: unknown name, bad argument, bad formula."""

    code = "usage"
    exit_code = 2


class DiceError(UsageError):
    code = "bad_dice"


class NotFound(UsageError):
    code = "not_found"


class NoDatabase(UsageError):
    """A read-only command on a database file that does not exist yet (reads never make one)."""


class RuleViolation(SawbonesError):
    """Well-formed, but the rules forbid it (treating a magic-only injury by hand, ...)."""

    code = "rule_violation"
    exit_code = 1


class ContentError(SawbonesError):
    """A content file is malformed: names the file and the path inside it."""

    code = "bad_content"
    exit_code = 2


class PackMissing(ContentError):
    """A campaign's content pack folder is gone (moved, deleted, another machine)."""

    code = "pack_missing"
    exit_code = 1


class StoreError(SawbonesError):
    code = "store"
    exit_code = 1


class StorePlaceError(StoreError):
    """The database's place, as given, can't hold one (a folder that doesn't exist, a directory named as the file):
    on the command line a usage error (exit 2); to a running server's clients, like any store fault, a 503."""

    exit_code = 2


class ConflictError(StoreError):
    """Someone else appended to the campaign first."""

    code = "conflict"


def joined(parts: Sequence[str | Message]) -> str | Message:
    """Several reasons said one after another ("w1 …; w2 …"), each in the reader's language."""
    if not parts:
        return ""
    said: str | Message = parts[-1]
    for part in reversed(parts[:-1]):
        said = msg("{first}; {then}", first=part, then=said)
    return said
