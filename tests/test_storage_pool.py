"""The connection pool of the DB-API store (adapters/engines.py) under the web app's threads: more threads than
connections queue and all succeed; GMs acting at once on more campaigns than the pool holds connections for reads
and writes, each holding its writer's turn, never wait on one another for a connection."""

from __future__ import annotations

import threading

from sawbones.adapters.backends import open_store
from sawbones.adapters.engines import Database
from sawbones.application.service import Service


def _act_at_once(store_url: str, campaigns: int, monkeypatch) -> list[BaseException]:
    """`campaigns` GMs, one a campaign and a thread, each deciding only once every other one holds its turn."""
    setup = Service.open(store_url)
    for n in range(campaigns):
        setup.create_campaign(f"Table {n}", "dnd5e", 1)
    setup.store.dispose()
    monkeypatch.setattr(Database, "LIMIT", 2 + campaigns)  # 2 for reads and writes, one held by each GM
    monkeypatch.setattr(Database, "HELD", campaigns)
    monkeypatch.setattr(Database, "WAIT", 3.0)  # a starved thread fails fast instead of after 30 s
    everyone_in = threading.Barrier(campaigns)
    errors: list[BaseException] = []

    def decide(ctx):
        everyone_in.wait(timeout=30)  # every GM holds its campaign's turn now
        return [{"type": "noted", "data": {"by": ctx.state.name}}]

    def gm(n: int) -> None:
        try:
            Service(open_store(store_url), retries=0, memory_cache=False).act(f"Table {n}", decide)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
            everyone_in.abort()

    threads = [threading.Thread(target=gm, args=(n,)) for n in range(campaigns)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return errors


def test_gms_holding_their_turns_on_more_campaigns_than_connections_all_write(pg_url, monkeypatch):
    errors = _act_at_once(pg_url, 3, monkeypatch)
    assert errors == []
    service = Service.open(pg_url)
    for n in range(3):
        assert [e.type for e in service.log(f"Table {n}")][-1] == "noted"


def test_more_threads_than_connections_queue_and_all_write(tmp_path, monkeypatch):
    db = str(tmp_path / "pool.db")
    Service.open(db).create_campaign("Busy", "dnd5e", 1)
    monkeypatch.setattr(Database, "LIMIT", 2)
    store = open_store(db)
    store.db.dispose()
    errors: list[BaseException] = []
    cid = store.campaign_id("Busy")

    def reader_writer(n: int) -> None:
        try:
            for _ in range(5):
                store.campaign_names()
                store.set_meta(f"thread {n}", "here")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=reader_writer, args=(n,)) for n in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert all(store.get_meta(f"thread {n}") == "here" for n in range(8))
    assert store.db._pool.open <= 2 and store.head(cid) == 1


def test_a_connection_the_server_closed_is_replaced_without_an_error(pg_url):
    """A restarted PostgreSQL (or one that ended idle connections) closed the pooled connections: the next
    reads and writes open new ones, and nothing is lost or refused."""
    import psycopg

    service = Service.open(pg_url)
    service.create_campaign("Restart", "dnd5e", 1)
    store = service.store
    with store.db.transaction(), store.db.transaction(), store.db.transaction():
        pass  # three connections open at once, then idle in the pool
    assert store.db._pool.open >= 3
    with psycopg.connect(store.url, autocommit=True) as admin:
        ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                              "'sawbones' AND pid <> pg_backend_pid()").fetchall()
    assert ended, "the pooled connections were ended"
    assert store.campaign_names() == ["Restart"]
    service.act("Restart", lambda ctx: [{"type": "noted", "data": {"after": "restart"}}])
    assert [e.type for e in Service.open(pg_url).log("Restart")][-1] == "noted"


def _connections_opened(store) -> list[int]:
    opened: list[int] = []
    connect = store.db.connect

    def counted():
        opened.append(1)
        return connect()

    store.db.connect = counted
    return opened


def _busy_rounds(store, threads: int, rounds: int) -> None:
    """`threads` requests at once, `rounds` times over: each holds a connection until all hold one."""
    for _ in range(rounds):
        together = threading.Barrier(threads)

        def request() -> None:
            with store.db.connection():
                together.wait(timeout=30)

        workers = [threading.Thread(target=request) for _ in range(threads)]
        for th in workers:
            th.start()
        for th in workers:
            th.join()


def test_a_busy_worker_reuses_its_connections_and_a_quiet_one_lets_the_extra_ones_go(pg_url, monkeypatch):
    """PostgreSQL (a new connection is a new server process): eight requests at once, twenty times over (a
    worker under steady load), and the connections opened for the first round serve every later one. Once the
    load is gone, those past Database.KEEP are closed."""
    Service.open(pg_url).create_campaign("Busy", "dnd5e", 1)
    store = open_store(pg_url)
    store.db.dispose()
    opened = _connections_opened(store)
    _busy_rounds(store, 8, 20)
    assert len(opened) <= 8
    monkeypatch.setattr(Database, "IDLE", 0.0)
    _busy_rounds(store, 1, 1)  # a later request comes back: the long-unused ones past KEEP are let go
    assert len(store.db._pool.idle) <= Database.KEEP
    assert store.db._pool.open == len(store.db._pool.idle)


def test_sqlite_keeps_few_idle_connections(tmp_path):
    """SQLite: each connection holds its own page cache in this process; past Database.KEEP idle, one that
    comes back is closed (a new one is only a file opened)."""
    db = str(tmp_path / "few.db")
    Service.open(db).create_campaign("Few", "dnd5e", 1)
    store = open_store(db)
    store.db.dispose()
    _busy_rounds(store, 8, 2)
    assert len(store.db._pool.idle) == store.db._pool.open == Database.KEEP
