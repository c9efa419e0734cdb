"""A worker's life line: when its process ends, the others end its lease at their next
look at who is alive, not a lease's time later; a worker that stalls or keeps no life
line still has its lease's time (app.store.lease)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import psycopg
import pytest
from sqlalchemy import text

from app.store.lease import Leases
from app.store.repository import Store
from tests.integration.workers_support import pg_store

TTL_MS = 60_000  # long: within a test no lease lapses by its time


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store() -> Iterator[Store]:
    with pg_store() as store:
        yield store


@pytest.fixture
def worker(store: Store) -> Iterator[Callable[..., tuple[Leases, Clock]]]:
    made: list[Leases] = []

    def make(name: str, life_line: bool = True) -> tuple[Leases, Clock]:
        clock = Clock()
        worker_id = f"{name}-{secrets.token_hex(3)}"  # advisory locks span the database
        leases = Leases(store.engine, worker_id, TTL_MS, life_line=life_line, clock=clock)
        made.append(leases)
        return leases, clock

    yield make
    for leases in made:
        leases.close()


def _lease_ends_in_s(store: Store, worker_id: str) -> float:
    with store.engine.begin() as conn:
        return float(
            conn.execute(
                text(
                    "SELECT EXTRACT(EPOCH FROM expires_at - clock_timestamp()) "
                    "FROM worker_lease WHERE worker_id = :w"
                ),
                {"w": worker_id},
            ).scalar_one()
        )


def _end_session(store: Store, pid: int) -> None:
    """What PostgreSQL does when a session's process dies: the session ends (and this
    returns once it has, its locks gone with it)."""
    with store.engine.begin() as conn:
        ended = conn.execute(
            text("SELECT pg_terminate_backend(:pid, 10000)"), {"pid": pid}
        ).scalar_one()
    assert ended


def _line_pid(leases: Leases) -> int:
    line = leases._life
    assert isinstance(line, psycopg.Connection)
    return int(line.info.backend_pid)


def test_a_dead_workers_lease_ends_at_the_next_look_and_its_tables_can_be_taken(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    dead, _ = worker("dead")
    survivor, clock = worker("survivor")
    dead.renew()
    survivor.renew()
    clock.now += TTL_MS / 2000  # its own line has held half a lease: it judges others
    assert dead.worker_id in survivor.alive()  # a live line: alive, whatever the clock says
    token, _ = dead.claim_or_owner("t1")
    assert token == 1
    assert survivor.claim_or_owner("t1") == (None, dead.worker_id)

    _end_session(store, _line_pid(dead))  # the process died: its sessions end with it

    assert survivor.alive() == [survivor.worker_id]
    assert _lease_ends_in_s(store, dead.worker_id) <= 0  # not 60 s from now
    assert survivor.claim_or_owner("t1") == (2, survivor.worker_id)  # a new fencing token


def test_a_worker_judges_nobody_till_its_own_line_has_held_half_a_lease(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    """When PostgreSQL restarts every line is lost at once: each is taken again at its
    worker's next renewal, before anybody ends a lease for it."""
    dead, _ = worker("dead")
    survivor, clock = worker("survivor")
    dead.renew()
    survivor.renew()
    _end_session(store, _line_pid(dead))
    clock.now += TTL_MS / 2000 - 1
    assert survivor.life_line == "settling"
    assert dead.worker_id in survivor.alive()
    clock.now += 1
    assert survivor.life_line == "held"
    assert dead.worker_id not in survivor.alive()


def test_a_worker_without_a_life_line_keeps_its_lease_for_its_time(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    """A worker of a release before life lines, say, during a rolling restart."""
    older, _ = worker("older", life_line=False)
    survivor, clock = worker("survivor")
    older.renew()
    survivor.renew()
    assert older.life_line == "none"
    clock.now += TTL_MS / 2000
    assert older.worker_id in survivor.alive()
    assert _lease_ends_in_s(store, older.worker_id) > 50


def test_a_live_worker_that_lost_its_line_takes_it_again_and_learns_its_lease_ended(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    """Its lease ended meanwhile, so another worker may have taken its tables: its next
    renewal says so (`held` false), and the sweep lets them go, as after a stall."""
    cut, _ = worker("cut")
    survivor, clock = worker("survivor")
    cut.renew()
    cut.renew()
    assert cut.held
    survivor.renew()
    clock.now += TTL_MS / 2000
    before = _line_pid(cut)
    _end_session(store, before)
    assert cut.worker_id not in survivor.alive()

    assert cut.worker_id in cut.renew()
    assert not cut.held
    assert _line_pid(cut) != before  # a new session holds the lock again
    assert cut.worker_id in survivor.alive()
    cut.renew()
    assert cut.held


def test_a_closed_worker_lets_its_lock_go(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    leaving, _ = worker("leaving")
    leaving.renew()
    line = leaving._life
    assert line is not None and not line.closed
    leaving.close()
    assert line.closed and leaving._life is None and leaving.life_line == "none"
    leaving.renew()  # a closed worker opens no line again
    assert leaving._life is None


def test_a_lease_table_of_a_release_before_life_lines_gets_the_column(
    store: Store, worker: Callable[..., tuple[Leases, Clock]]
) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "CREATE TABLE worker_lease (worker_id TEXT PRIMARY KEY, "
                "expires_at TIMESTAMPTZ NOT NULL)"
            )
        )
        conn.execute(
            text("INSERT INTO worker_lease VALUES ('older', clock_timestamp() + interval '1 h')")
        )
    newer, clock = worker("newer")
    newer.renew()
    clock.now += TTL_MS / 2000
    assert newer.alive() == sorted(["older", newer.worker_id])  # no line: not judged
    with store.engine.begin() as conn:
        lines = dict(conn.execute(text("SELECT worker_id, life_line FROM worker_lease")).all())
    assert lines == {"older": False, newer.worker_id: True}
