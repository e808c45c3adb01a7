"""Group commit: several pieces of work of one thread written in one transaction, made durable by one COMMIT.

On SQLite under `synchronous=FULL` every COMMIT waits for an fsync of the write-ahead log; a web worker's
writers' lane that has several GM actions queued runs them one after the other inside one `batch()`
(interfaces/web/http/writers_lane.py). Within a batch, on its thread:

- the first write takes the database's write lock as any write does (the store's `_write`: this process's
  turn, the file lock, BEGIN IMMEDIATE) and keeps it, and the transaction, until the batch ends;
- each write after it is a SAVEPOINT inside that transaction: a write that fails is rolled back alone, the
  others stay;
- reads of the thread go to the batch's connection, so a piece of work sees what the ones before it wrote
  (two actions on one campaign in a row);
- what must follow a durable write (telling the live streams, stamping the files) waits for the COMMIT:
  `after_commit` runs it then, or at once outside a batch;
- a campaign's writer turn taken in a batch is kept until the COMMIT (the store's `writer_turn`): another
  process never reads the campaign as it was before a write of the batch and decides on it;
- a piece of work that has taken no turn and written nothing yet never waits for a turn that another writer
  holds (that writer may be waiting for the write lock or a turn the batch holds: each would wait for the
  other until a deadline): the batch commits what it wrote first (`flush`), gives every lock back, and goes
  on in a new transaction. `commits` counts its COMMITs, so that the lane answers at once the work a flush
  made durable. (A piece that took a turn waits as anywhere else: a flush would take its turn from it.)

Nothing of a batch is durable before its COMMIT; the lane answers none of its clients before then, so an
acknowledged write survives a power cut as it does one COMMIT at a time. When the COMMIT fails, nothing of
the batch was written and every piece of work in it gets the error.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


@dataclass
class Batch:
    """The open batch of one thread on one database."""

    conn: Any = None  # the connection in the batch's transaction, once its first write began it
    pool: Any = None  # the pool it came from (it goes back there at the end)
    held: ExitStack = field(default_factory=ExitStack)  # the write lock (taken by the first write) and the turns
    committed: list[Callable[[], None]] = field(default_factory=list)  # after the COMMIT, the lock still held
    released: list[Callable[[], None]] = field(default_factory=list)  # after the lock is given back
    savepoints: int = 0  # the SAVEPOINTs opened so far (each write's, named by its number)
    commits: int = 0  # the COMMITs made so far (a flush's, then the batch's last)
    failure: BaseException | None = None  # why the last COMMIT that failed failed (its pieces' answer)
    writes: int = 0  # the writes made so far
    piece_from: int = 0  # `writes` when the piece of work under way began (begin_piece)
    piece_turns: int = 0  # the writer turns the piece under way took (kept in `held`)

    def begin_piece(self) -> None:
        """A new piece of work (a GM action) begins: until it writes or takes a turn, the batch may be flushed."""
        self.piece_from, self.piece_turns = self.writes, 0

    def roll_back(self, db: Any) -> None:
        """Roll back what the open transaction wrote (nothing of it was durable) and give its connection back."""
        if self.conn is not None:
            self.pool.checkin(self.conn, db._rollback(self.conn))
            self.conn = None

    def let_go(self) -> None:
        """Give back every lock the batch holds (the write lock, the turns)."""
        self.held.close()
        self.held = ExitStack()

    def may_flush(self) -> bool:
        """The piece under way wrote nothing and holds no turn yet: a flush (Batches.flush), which gives back
        every lock, would commit whole pieces only and take no turn from under the piece."""
        return self.writes == self.piece_from and not self.piece_turns


class Batches:
    """The batches of a database's threads (one at most per thread)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def current(self) -> Batch | None:
        return getattr(self._local, "batch", None)

    def writing(self) -> Any:
        """The connection of this thread's batch once it wrote (reads go there), else None."""
        batch = self.current()
        return batch.conn if batch is not None else None

    @contextmanager
    def batch(self, db: Any) -> Iterator[Batch]:
        """Run the body's writes in one transaction (see the module). A batch inside a batch is part of it."""
        found = self.current()
        if found is not None:
            yield found
            return
        batch = self._local.batch = Batch()
        try:
            yield batch
            self.flush(db)
        except BaseException:
            batch.roll_back(db)
            batch.let_go()  # (also when the COMMIT failed)
            raise
        finally:
            self._local.batch = None

    def flush(self, db: Any) -> None:
        """Commit what this thread's batch wrote so far and give back every lock it holds (the write lock, the
        campaigns' turns): the batch goes on, its next write in a new transaction. Outside a batch: nothing."""
        batch = self.current()
        if batch is None:
            return
        if batch.conn is not None:
            try:
                batch.conn.raw.execute("COMMIT")
            except BaseException as exc:  # nothing since the last COMMIT was written: its pieces get the error
                batch.roll_back(db)
                batch.failure, batch.committed, batch.released = exc, [], []
                batch.let_go()
                raise
            batch.pool.checkin(batch.conn, True)
            batch.conn = None
            batch.commits += 1
        committed, released, batch.committed, batch.released = batch.committed, batch.released, [], []
        try:
            for then in committed:
                then()
        finally:
            batch.let_go()
        for then in released:
            then()

    @contextmanager
    def savepoint(self, batch: Batch, write: bool) -> Iterator[Any]:
        """One write (or a read of several statements) inside the batch's transaction."""
        batch.savepoints += 1
        batch.writes += write
        name = f"sawbones_{batch.savepoints}"
        raw = batch.conn.raw
        raw.execute(f"SAVEPOINT {name}")
        try:
            yield batch.conn
        except BaseException:
            raw.execute(f"ROLLBACK TO {name}")
            raw.execute(f"RELEASE {name}")
            raise
        raw.execute(f"RELEASE {name}")


def after_commit(db: Any, then: Callable[[], None]) -> None:
    """Run `then` once what this thread wrote is durable: at once, or after its batch's COMMIT."""
    batch = db.batches.current()
    if batch is not None and batch.conn is not None:
        batch.released.append(then)
    else:
        then()
