"""Taking turns to write, with a bound on every wait.

Two layers, always in this order:

- **In a process** (the web app's worker threads), writers queue first come, first served on a
  ticket lock (`Turns`): no thread overtakes another, and each one waits at most until its deadline.
- **Across processes** (CLI commands, other workers) on SQLite, a writer's turn on a campaign (load,
  decide, append) holds a lock on that campaign's byte of `<database>-writer.lock` (`campaign_lock`, an
  open-file-description lock: other campaigns do not wait), and each write holds an exclusive `flock`
  on the whole file (`file_lock`) for as long as the transaction lasts: blocking calls, so the kernel
  wakes a waiter as soon as the lock is free, made by a helper thread that the caller stops waiting for
  at the deadline. Where open-file-description locks are missing (not Linux), or the lock file is
  read-only, a turn holds the whole file instead. PostgreSQL uses an advisory lock with `lock_timeout`
  (store.py).

Both are re-entrant in one thread: an action that holds its turn may append, and save a snapshot,
without waiting for itself. A wait that reaches its deadline raises `Busy`, one line that says
what was busy and that nothing was written. The bound is `lock_wait()` seconds: $SAWBONES_LOCK_WAIT,
else LOCK_WAIT.

Inside `waiting_briefly()` a lock that another writer holds is waited for at most BRIEF seconds, then
`WouldWait` (the web app's writers' lane runs a GM action only while no other program's lock holds it up,
web/http/deps.py),
until the work writes (`wrote`): from then on it waits as anywhere else.
"""

from __future__ import annotations

import errno
import os
import struct
import threading
import time
from collections import deque
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from ..errors import StoreError
from ..message import Message, msg

LOCK_WAIT = 10.0  # seconds: the longest any writer waits for its turn before it is refused


class Busy(StoreError):
    """The writer's turn did not come before the deadline: nothing was written."""

    code = "busy"


class WouldWait(Busy):
    """(inside `waiting_briefly`) A lock stayed taken past the brief wait: given up before anything was written."""


BRIEF = 0.005  # seconds: the longest wait for a lock inside `waiting_briefly` (about what one write holds it)
_BRIEF: ContextVar[float | None] = ContextVar("sawbones_brief_waits", default=None)


@contextmanager
def waiting_briefly(seconds: float = BRIEF) -> Iterator[None]:
    """Within: a lock that another writer holds is waited for at most `seconds`, then `WouldWait` instead of
    a longer wait (which would stop the web app's event loop). The work can be run again where it may wait:
    nothing was written."""
    token = _BRIEF.set(seconds)
    try:
        yield
    finally:
        _BRIEF.reset(token)


def wrote() -> None:
    """Something was written: from here on, inside `waiting_briefly` too, a lock is waited for as anywhere else
    (the work could no longer be run again from the start without writing twice)."""
    if _BRIEF.get() is not None:
        _BRIEF.set(None)


def _bound(deadline: float) -> tuple[float, bool]:
    """(the deadline of this wait, whether it is a brief one: `waiting_briefly`)"""
    brief = _BRIEF.get()
    if brief is None:
        return deadline, False
    return min(deadline, time.monotonic() + brief), True


def _gave_up(brief: bool, where: str) -> Busy:
    if brief:
        return WouldWait(msg("another writer held the lock for more than {seconds} s", seconds=f"{_BRIEF.get():g}"),
                         where)
    return Busy(busy_message(lock_wait()), where)


def lock_wait() -> float:
    """The bound on a wait for the writer's turn, in seconds ($SAWBONES_LOCK_WAIT, else LOCK_WAIT)."""
    raw = os.environ.get("SAWBONES_LOCK_WAIT", "")
    try:
        value = float(raw) if raw.strip() else LOCK_WAIT
    except ValueError:
        return LOCK_WAIT
    return value if 0 <= value <= 3600 else LOCK_WAIT


def busy_message(seconds: float) -> Message:
    return msg("another writer held the database for more than {seconds} s (a suspended or stuck sawbones, or a long "
               "import); nothing was written, try again (see docs/deployment.md)", seconds=f"{seconds:g}")


# ---------------------------------------------------------------- in a process: a fair ticket lock


class Turns:
    """A re-entrant first-come-first-served lock with a deadline. A thread that ends its turn hands it to the
    next in the queue and wakes that one only (waking every waiter to let one through cost each turn as many
    thread switches as there were waiters: with 32 GMs on a 2-core machine, most of a worker's time)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._queue: deque[tuple[int, threading.Lock]] = deque()  # (thread, the lock it sleeps on)
        self._owner: int | None = None
        self._depth = 0

    @contextmanager
    def turn(self, deadline: float, where: str = "") -> Iterator[bool]:
        """Wait for this thread's turn; yields True for the outermost hold, False inside it."""
        me = threading.get_ident()
        with self._guard:
            if self._owner == me:
                self._depth += 1
                waiter = None
                outermost = False
            elif self._owner is None and not self._queue:
                self._owner, self._depth = me, 1
                waiter = None
                outermost = True
            else:
                waiter = threading.Lock()
                waiter.acquire()
                self._queue.append((me, waiter))
                outermost = True
        if waiter is not None:
            self._wait(me, waiter, deadline, where)
        try:
            yield outermost
        finally:
            with self._guard:
                self._depth -= 1
                if self._depth == 0:
                    self._hand_over()

    def _wait(self, me: int, waiter: threading.Lock, deadline: float, where: str) -> None:
        """Sleep until a releasing thread hands this one the turn (it then owns it), at most until deadline."""
        deadline, brief = _bound(deadline)
        if waiter.acquire(timeout=max(0.0, deadline - time.monotonic())):
            return
        with self._guard:
            if self._owner == me:  # handed over just as the wait ended: the turn is this thread's
                return
            self._queue.remove((me, waiter))
        raise _gave_up(brief, where)

    def _hand_over(self) -> None:
        """(holding the guard) The turn to the first waiter, which wakes owning it; else free."""
        if self._queue:
            thread, waiter = self._queue.popleft()
            self._owner, self._depth = thread, 1
            waiter.release()
        else:
            self._owner = None


_TURNS: dict[Any, Turns] = {}
_TURNS_GUARD = threading.Lock()


def turns(key: Any) -> Turns:
    """The one queue of this process for `key` (a database, or a campaign of a database)."""
    with _TURNS_GUARD:
        found = _TURNS.get(key)
        if found is None:
            found = _TURNS[key] = Turns()
        return found


# ---------------------------------------------------------------- across processes: the writer-lock file

_HELD = threading.local()  # lock files this thread holds, with a count (re-entrant)


def lock_path(path: str) -> str:
    return f"{path}-writer.lock"


def _open_lock(path: str) -> int:
    """Open (or create) the lock file with the database's permissions; flock needs no write access."""
    lock = lock_path(path)
    try:
        return os.open(lock, os.O_RDWR)
    except FileNotFoundError:
        pass
    except PermissionError:
        try:
            return os.open(lock, os.O_RDONLY)
        except OSError as exc:
            raise _unusable(lock, exc) from None
    except OSError as exc:
        raise _unusable(lock, exc) from None
    try:
        mode = os.stat(path).st_mode & 0o666
    except OSError:
        mode = 0o644
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:  # another writer created it meanwhile
        return _open_lock(path)
    except OSError as exc:
        raise _unusable(lock, exc) from None
    try:  # the database's group and mode, whatever this process's umask
        st = os.stat(path)
        os.fchmod(fd, st.st_mode & 0o666)
        if os.fstat(fd).st_gid != st.st_gid:
            os.fchown(fd, -1, st.st_gid)
    except OSError:
        pass
    return fd


def _unusable(lock: str, exc: OSError) -> StoreError:
    why = exc.strerror or str(exc)
    return StoreError(msg("cannot use the writer lock {lock} ({why}): give it the database file's owner, group and "
                          "mode (see docs/deployment.md)", lock=lock, why=why), lock)


@contextmanager
def database_lock(path: str, key: str, deadline: float, *, wait: bool = True) -> Iterator[bool]:
    """The whole database, for one write: this process's threads first come, first served (`Turns` on `key`, so
    that one of them at most waits on the file), then the file lock shared with the other processes. Yields
    False at once, holding nothing, when wait=False and either is taken."""
    with ExitStack() as held:
        try:
            held.enter_context(turns(("write", key)).turn(deadline if wait else time.monotonic(), path))
        except Busy:
            if wait:
                raise
            free = False
        else:
            free = held.enter_context(file_lock(path, deadline, wait=wait))
        yield free


@contextmanager
def file_lock(path: str, deadline: float, *, wait: bool = True) -> Iterator[bool]:
    """Hold `<path>-writer.lock` (yields True), or yield False at once when wait=False and it is taken.

    Busy when the deadline passes. No lock for in-memory databases or where fcntl is missing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover (not POSIX)
        yield True
        return
    if path in ("", ":memory:"):
        yield True
        return
    held: dict[str, int] = getattr(_HELD, "locks", None) or {}
    _HELD.locks = held
    if held.get(path):
        held[path] += 1
        try:
            yield True
        finally:
            held[path] -= 1
        return
    fd = _open_lock(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            os.close(fd)
            raise _unusable(lock_path(path), exc) from None
        if not wait:
            os.close(fd)
            yield False
            return
        deadline, brief = _bound(deadline)
        if not _before(fd, deadline, lambda: fcntl.flock(fd, fcntl.LOCK_EX), lambda: fcntl.flock(fd, fcntl.LOCK_UN)):
            # (the fd now belongs to the waiting thread, which closes it)
            raise _gave_up(brief, path) from None
    held[path] = 1
    try:
        yield True
    finally:
        held.pop(path, None)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


WAITERS = 8  # helper threads that wait on locks, at most: one abandoned at its deadline waits on for the lock
_WAITING: dict[str, Any] = {"tasks": None, "threads": 0, "busy": 0}


def _wait_in_helper(task: Callable[[], None]) -> None:
    """Run `task` (a blocking lock call) in one of the process's few daemon helper threads, started on demand
    (a new thread per wait cost more than the write it waited for; daemons never hold the process's exit)."""
    import queue

    with _TURNS_GUARD:
        if _WAITING["tasks"] is None:
            _WAITING["tasks"] = queue.SimpleQueue()
        _WAITING["busy"] += 1
        start = _WAITING["busy"] > _WAITING["threads"] and _WAITING["threads"] < WAITERS
        if start:
            _WAITING["threads"] += 1
    _WAITING["tasks"].put(task)
    if start:
        threading.Thread(target=_helper, args=(_WAITING["tasks"],), name="sawbones-writer-lock", daemon=True).start()


def _helper(tasks: Any) -> None:
    while True:
        task = tasks.get()
        try:
            task()
        except Exception:  # noqa: BLE001 - (a wait's failure is its caller's answer: it sees no lock)
            pass
        finally:
            with _TURNS_GUARD:
                _WAITING["busy"] -= 1


def _before(fd: int, deadline: float, take: Callable[[], Any], give: Callable[[], Any]) -> bool:
    """Block on the lock (`take`: the kernel wakes the waiter when it is free, no polling), at most until deadline.

    A helper thread (of the process's few, not a new one per wait) makes the blocking call; if the deadline
    passes first, it is abandoned: when it gets the lock at last it lets go at once (`give`) and closes the
    file."""
    state = {"got": False, "abandoned": False}
    guard = threading.Lock()
    done = threading.Event()

    def wait() -> None:
        try:
            take()
            ok = True
        except OSError:
            ok = False
        with guard:
            if state["abandoned"]:
                if ok:
                    give()
                os.close(fd)
            else:
                state["got"] = ok
        done.set()

    _wait_in_helper(wait)
    done.wait(max(0.0, deadline - time.monotonic()))
    with guard:
        if state["got"]:
            return True
        if done.is_set():  # the blocking call failed
            os.close(fd)
        else:
            state["abandoned"] = True
        return False


# ---------------------------------------------------------------- across processes: one campaign's turn

CAMPAIGN_BYTES = 1 << 40  # campaign N's turn: the byte at CAMPAIGN_BYTES + N (far past the stamp's text)


@contextmanager
def campaign_lock(path: str, key: str, campaign_id: int, deadline: float, *, wait: bool = True) -> Iterator[bool]:
    """Hold this campaign's byte of `<path>-writer.lock` (an open-file-description lock, taken on a file opened
    for this turn: threads of one process exclude each other too, and closing it lets go): yields True. Busy
    when the deadline passes; wait=False: yields False at once, holding nothing, when another holds it. Without
    such locks, or with a read-only lock file: the whole database, as a write takes it (`database_lock` on
    `key`: this process's threads in turn first, so that a thread holding the file never waits on one that
    waits for the file)."""
    try:
        import fcntl

        setlk, setlkw = fcntl.F_OFD_SETLK, fcntl.F_OFD_SETLKW
    except (ImportError, AttributeError):  # (not Linux)
        with database_lock(path, key, deadline, wait=wait) as free:
            yield free
        return
    if path in ("", ":memory:"):
        yield True
        return
    fd = _open_lock(path)
    lock = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, CAMPAIGN_BYTES + campaign_id, 1, 0)
    try:
        fcntl.fcntl(fd, setlk, lock)
    except OSError as exc:
        if exc.errno == errno.EBADF:  # a read-only lock file: no write lock on it, the whole database instead
            os.close(fd)
            with database_lock(path, key, deadline, wait=wait) as free:
                yield free
            return
        if exc.errno not in (errno.EAGAIN, errno.EACCES):
            os.close(fd)
            raise _unusable(lock_path(path), exc) from None
        if not wait:
            os.close(fd)
            yield False
            return
        deadline, brief = _bound(deadline)
        if not _before(fd, deadline, lambda: fcntl.fcntl(fd, setlkw, lock), lambda: None):
            raise _gave_up(brief, path) from None
    try:
        yield True
    finally:
        os.close(fd)  # (lets go of the lock)
