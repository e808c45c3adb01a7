"""The worker processes of one machine tell each other what they wrote (SQLite), so that none reads it back.

Each worker whose hub watches campaigns listens on a Unix socket in a directory of its own user's, one per
database file (`<temp dir>/sawbones-live-<uid>-<key>`, mode 0700: only that user's processes may connect
there), and connects to the other workers' sockets it finds there (listed again every RELIST seconds). A
worker that appends sends the rows it wrote to every other worker (`tell`: one message each, never waiting);
they hand them to their streams (web/live/hub.py) as the writer's own hub does. The sockets are SOCK_SEQPACKET:
one message per write, in order, queued in the connection's buffer (datagrams queue 10 messages at most,
fewer than a busy worker's writes in a turn of a peer's event loop). Nothing depends on it: a message not
sent (a full buffer, a worker gone, more than LIMIT bytes, a worker not listed yet) leaves the write to that
worker's watcher, as any other program's write, a poll later. A directory that is not the user's own
private one, or a socket that cannot be made (its path too long for one), means no peers at all.

A message: JSON {"db": database id, "c": campaign id, "a": the version the write followed, "r": its rows
as written (the events table's columns)}.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import stat
import tempfile
import threading
import time
import weakref
from hashlib import blake2b
from pathlib import Path
from typing import Any, Callable

LIMIT = 60_000  # bytes a message may take (a bigger write is left to the watchers)
RELIST = 1.0  # seconds between two listings of the directory (a new worker is told from then on)
BATCH = 16  # messages read from a connection per turn of the event loop (its other work goes between)
Told = tuple[int, int, list[tuple[Any, ...]]]  # (campaign id, the version the write followed, its rows)


def directory(database_id: str, path: str) -> Path | None:
    """The workers' directory for this database file, made if missing; None when it is not this user's own
    private directory (another user made it first: not trusted)."""
    if not hasattr(os, "getuid") or not hasattr(socket, "AF_UNIX"):  # (Windows: no peers, the watchers read)
        return None
    key = blake2b(f"{database_id}\x1f{os.path.realpath(path)}".encode(), digest_size=8).hexdigest()
    place = Path(tempfile.gettempdir()) / f"sawbones-live-{os.getuid()}-{key}"
    try:
        place.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    found = os.lstat(place)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        return None
    return place


class Peers:
    """This worker's socket, the other workers' it tells, and theirs connected to it."""

    def __init__(self, database_id: str, place: Path) -> None:
        self.database_id, self.place = database_id, place
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.listener.setblocking(False)
        self.path = str(place / f"{os.getpid()}-{secrets.token_hex(4)}.sock")
        try:
            self.listener.bind(self.path)
            self.listener.listen(64)
        except OSError:
            self.listener.close()
            raise
        self.links: dict[str, socket.socket] = {}  # another worker's socket path → this worker's connection to it
        self.incoming: set[socket.socket] = set()  # the other workers' connections to this one
        self.lock = threading.Lock()  # (writers of several threads tell at once)
        self.listed = float("-inf")
        # (the file and the directory go with this object, or at the latest when the process exits normally)
        self.removed = weakref.finalize(self, _remove, self.path, place)
        self.loop: Any = None
        self.handle: Callable[[int, int, list[tuple[Any, ...]]], None] | None = None

    @classmethod
    def open(cls, database_id: str, path: str) -> "Peers | None":
        """This worker's socket for the database file at `path`, or None (no private directory, no socket)."""
        for _ in range(2):  # (once more when the last worker of the directory removed it meanwhile)
            place = directory(database_id, path)
            if place is None:
                return None
            try:
                return cls(database_id, place)
            except FileNotFoundError:
                continue
            except OSError:
                return None
        return None

    # -------------------------------------------------------- telling (the writer's thread)
    def tell(self, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        """Every other worker gets the write, one message each; never waits (a worker whose connection is full,
        or gone, is not told: its watcher reads the write)."""
        with self.lock:
            now = time.monotonic()
            if now - self.listed >= RELIST:
                self._list(now)
            if not self.links:
                return
            message = json.dumps({"db": self.database_id, "c": cid, "a": after, "r": rows},
                                 separators=(",", ":")).encode()
            if len(message) > LIMIT:
                return
            for other, link in list(self.links.items()):
                try:
                    link.send(message)
                except BlockingIOError:  # that worker does not keep up: its watcher reads it
                    pass
                except OSError:  # it stopped or died
                    self._forget(other)

    def _list(self, now: float) -> None:
        """Connects to the sockets of the workers that came since the last listing."""
        self.listed = now
        try:
            found = {str(p) for p in self.place.iterdir() if p.suffix == ".sock" and str(p) != self.path}
        except OSError:
            found = set()
        for other in found - set(self.links):
            link = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            link.setblocking(False)  # (a full backlog refuses at once: tried again at the next listing)
            try:
                link.connect(other)
            except ConnectionRefusedError:  # no one listens there any more (a worker that died): removed
                link.close()
                try:
                    os.unlink(other)
                except OSError:
                    pass
                continue
            except OSError:
                link.close()
                continue
            self.links[other] = link
        for gone in set(self.links) - found:
            self._forget(gone)

    def _forget(self, other: str) -> None:
        link = self.links.pop(other, None)
        if link is not None:
            link.close()

    # -------------------------------------------------------- hearing (the event loop)
    def serve(self, loop: Any, handle: Callable[[int, int, list[tuple[Any, ...]]], None]) -> None:
        """`handle(campaign id, after, rows)` on the event loop for each write another worker tells."""
        self.loop, self.handle = loop, handle
        loop.add_reader(self.listener.fileno(), self._accept)

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # (none waiting: BlockingIOError)
                return
            conn.setblocking(False)
            self.incoming.add(conn)
            self.loop.add_reader(conn.fileno(), self._receive, conn)

    def _receive(self, conn: socket.socket) -> None:
        """At most BATCH messages of one connection (the rest at the event loop's next turn); a message that
        does not read as a write is skipped."""
        for _ in range(BATCH):
            try:
                data = conn.recv(LIMIT + 1)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # that worker stopped
                self._drop(conn)
                return
            told = _read(data, self.database_id)
            if told is not None and self.handle is not None:
                self.handle(*told)

    def _drop(self, conn: socket.socket) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(conn.fileno())
        self.incoming.discard(conn)
        conn.close()

    def close(self) -> None:
        """Every socket closed and this one's file removed; the directory too when it was the last one.
        (Again: nothing more.)"""
        if not self.removed.alive:
            return
        for conn in list(self.incoming):
            self._drop(conn)
        if self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.listener.fileno())
        self.listener.close()
        with self.lock:
            for other in list(self.links):
                self._forget(other)
        self.removed()


def _remove(path: str, place: Path) -> None:
    """A worker's socket file, and the directory when it was the last one in it."""
    for remove, what in ((os.unlink, path), (os.rmdir, place)):
        try:
            remove(what)
        except OSError:  # (the directory holds another worker's socket: kept)
            pass


def _read(data: bytes, database_id: str) -> Told | None:
    try:
        doc = json.loads(data)
        cid, after, rows = doc["c"], doc["a"], doc["r"]
    except (ValueError, TypeError, KeyError):
        return None
    if doc.get("db") != database_id or not _whole(cid) or not _whole(after) or not isinstance(rows, list) or not rows:
        return None
    if not all(isinstance(row, list) and len(row) == 9 and row[0] == cid for row in rows):
        return None
    return cid, after, [tuple(row) for row in rows]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
