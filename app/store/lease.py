"""Who applies a table's commands when several workers share one PostgreSQL.

Each worker holds a lease (`worker_lease`: renewed every few hundred milliseconds,
expiring `ttl_ms` after the last renewal, by the database's clock so that the workers'
clocks never matter). Each table has one owner (`table_owner`) and a fencing token
that goes up by one at every change of owner. The owner writes the table's log with
its token (`Store.append(..., fence=token)`): the insert holds a share lock on the
owner row and happens only while the token is still the table's, so a worker that
lost a table (it stalled past its lease and another took over) cannot write to it any
more, and the new owner reads the log only after every write of the old one is in.

A worker that dies is not waited for that long when its process ends: each worker keeps a
life line, a session of its own that holds an advisory lock on the worker's id for as
long as the process lives (`life_line` in its lease row says it does). A killed or crashed
process loses it at once (its socket closes and PostgreSQL ends the session), and the
other workers end its lease at their next look at who is alive (`alive`): its tables are
taken over within a sweep rather than a lease's time. A worker whose host is gone (no
socket closed) or that stalls still holds its lock: for it the lease's time stands, as it
does for a worker that keeps no life line. A worker looks for dead ones only once its own
life line has held for half a lease, so that when PostgreSQL restarts (every life line
lost at once) each has taken its lock again, at its next renewal, before any is judged.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from app.domain.status import LIVE, TableStatus

if TYPE_CHECKING:  # imported where a life line is kept: one worker on SQLite starts without it
    import psycopg

log = logging.getLogger(__name__)

TTL_MS = 2_000

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS worker_lease (worker_id TEXT PRIMARY KEY,"
    " expires_at TIMESTAMPTZ NOT NULL, life_line BOOLEAN NOT NULL DEFAULT false)",
    "CREATE TABLE IF NOT EXISTS table_owner ("
    " table_id TEXT PRIMARY KEY, owner TEXT, token BIGINT NOT NULL DEFAULT 0)",
)
#: A database of a release before life lines gets the column (only then: an ALTER locks
#: the lease table, and every worker's renewal with it, even when it has nothing to do).
_HAS_LIFE_LINE = (
    "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
    "AND table_name = 'worker_lease' AND column_name = 'life_line'"
)
_ADD_LIFE_LINE = "ALTER TABLE worker_lease ADD COLUMN life_line BOOLEAN NOT NULL DEFAULT false"

#: The advisory lock a worker's life line holds (one key a worker id).
_LIFE_LOCK = "hashtextextended({}, 0)"

#: Ends the lease of every worker whose life line is gone: its lock is free.
_END_DEAD = (
    "UPDATE worker_lease SET expires_at = clock_timestamp() "
    "WHERE life_line AND worker_id <> :me AND expires_at > clock_timestamp() "
    f"AND pg_try_advisory_xact_lock({_LIFE_LOCK.format('worker_id')})"
)

_LIVE_WORKER = (
    "EXISTS (SELECT 1 FROM worker_lease w WHERE w.worker_id = table_owner.owner"
    " AND w.expires_at > clock_timestamp())"
)

#: A claim's token: one more at every change of owner. A worker claiming a table it holds
#: keeps its token: a command and the sweep may both claim a table at once, and the one that
#: lost the race must not fence out the other's writes within the same worker.
_NEXT_TOKEN = (
    "token = CASE WHEN table_owner.owner = :me THEN table_owner.token "
    "ELSE table_owner.token + 1 END"
)


def rank(table_id: str, worker_id: str) -> bytes:
    """Rendezvous hashing: among the live workers, the one ranked highest for a table
    takes it over when its owner dies (every worker computes the same choice)."""
    return hashlib.blake2b(f"{table_id}/{worker_id}".encode(), digest_size=8).digest()


def heir(table_id: str, workers: Iterable[str]) -> str | None:
    return max(workers, key=lambda w: rank(table_id, w), default=None)


class Leases:
    def __init__(
        self,
        engine: Engine,
        worker_id: str,
        ttl_ms: int = TTL_MS,
        life_line: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.worker_id = worker_id
        self.ttl_ms = ttl_ms
        self._clock = clock
        self._wants_life_line = life_line
        self._life: psycopg.Connection[Any] | None = None
        self._life_since: float | None = None  # when the life line last took its lock
        #: Whether the last renewal found the lease held, with a quarter of it to spare:
        #: then it was live all the way from the renewal before, and no other worker
        #: could take a table of this one's meanwhile (`claim_or_owner` takes a live owner's never).
        self.held = False
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(7319001)"))  # one creator at a time
            for statement in SCHEMA:
                conn.execute(text(statement))
            if conn.execute(text(_HAS_LIFE_LINE)).first() is None:
                conn.execute(text(_ADD_LIFE_LINE))
        if life_line:
            self._hold_life_line()  # before the first lease: no lease without its lock

    # -- the life line ------------------------------------------------------------------

    def _hold_life_line(self) -> bool:
        """Open the life line afresh and take the worker's lock on it: whether it holds."""
        import psycopg

        self._drop_life_line()
        if not self._wants_life_line:
            return False  # closed meanwhile (a clean stop)
        try:
            _, params = self.engine.dialect.create_connect_args(self.engine.url)
            conn: psycopg.Connection[Any] = psycopg.connect(**params, autocommit=True)
        except psycopg.Error as exc:
            log.warning("the worker's life line could not be opened: %s", exc)
            return False
        try:
            lock = f"SELECT pg_try_advisory_lock({_LIFE_LOCK.format('%s')})"
            row = conn.execute(lock, (self.worker_id,)).fetchone()
        except psycopg.Error as exc:
            log.warning("the worker's life line could not take its lock: %s", exc)
            row = None
        if row is None or not row[0]:
            conn.close()
            return False
        self._life, self._life_since = conn, self._clock()
        return True

    def _life_line_holds(self) -> bool:
        """Whether the life line still holds the lock (a round trip on it); taken again if
        it was lost."""
        import psycopg

        if not self._wants_life_line:
            return False
        conn = self._life
        if conn is not None and not conn.closed:
            try:
                conn.execute("SELECT 1")
                return True
            except psycopg.Error:
                pass
        return self._hold_life_line()

    def _drop_life_line(self) -> None:
        conn, self._life, self._life_since = self._life, None, None
        if conn is not None:
            import psycopg

            with contextlib.suppress(psycopg.Error):
                conn.close()

    def _judges(self) -> bool:
        """Whether this worker ends the leases of dead ones: its own life line held for
        half a lease."""
        since = self._life_since
        return since is not None and self._clock() - since >= self.ttl_ms / 2000

    @property
    def life_line(self) -> str:
        """What the health endpoint says of it: "held" (this worker judges the others),
        "settling", "lost" (taken again at the next renewal) or "none" (kept none)."""
        if not self._wants_life_line:
            return "none"
        if self._life is None:
            return "lost"
        return "held" if self._judges() else "settling"

    def close(self) -> None:
        """Let the life line go (the process ends; a clean stop resigns first)."""
        self._wants_life_line = False
        self._drop_life_line()

    # -- the lease ----------------------------------------------------------------------

    def renew(self) -> list[str]:
        """Extend this worker's lease; the workers alive now (this one included)."""
        line = self._life_line_holds()
        with self.engine.begin() as conn:
            held = conn.execute(
                text(
                    "SELECT expires_at > clock_timestamp() + make_interval(secs => :spare) "
                    "FROM worker_lease WHERE worker_id = :me FOR UPDATE"
                ),
                {"me": self.worker_id, "spare": self.ttl_ms / 4000},
            ).scalar()
            conn.execute(
                text(
                    "INSERT INTO worker_lease (worker_id, expires_at, life_line) VALUES "
                    "(:me, clock_timestamp() + make_interval(secs => :ttl), :line) "
                    "ON CONFLICT (worker_id) DO UPDATE SET expires_at = EXCLUDED.expires_at, "
                    "life_line = EXCLUDED.life_line"
                ),
                {"me": self.worker_id, "ttl": self.ttl_ms / 1000, "line": line},
            )
            alive = self._alive(conn)
        self.held = bool(held)
        return alive

    def alive(self) -> list[str]:
        """The workers alive now (a read of the few lease rows; a dead worker's life line
        gone, its lease ended first)."""
        with self.engine.begin() as conn:
            return self._alive(conn)

    def _alive(self, conn: Connection) -> list[str]:
        if self._judges():
            conn.execute(text(_END_DEAD), {"me": self.worker_id})
        rows = conn.execute(
            text("SELECT worker_id FROM worker_lease WHERE expires_at > clock_timestamp()")
        )
        return sorted(r[0] for r in rows)

    def resign(self) -> None:
        """Leave at once (a clean stop): this worker's tables go to the others."""
        with self.engine.begin() as conn:
            me = {"me": self.worker_id}
            conn.execute(text("DELETE FROM worker_lease WHERE worker_id = :me"), me)
            conn.execute(text("UPDATE table_owner SET owner = NULL WHERE owner = :me"), me)

    def claim_or_owner(self, table_id: str) -> tuple[int | None, str | None]:
        """Take the table if nobody alive holds it (a new token then: any write with the
        old one is refused), or this worker does (its token kept): the token; or, when
        another live worker owns it, which (one round trip: a round begins with every
        table's first command at once). A live owner's row is only read, never locked:
        its writes go on meanwhile."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "WITH live AS (SELECT owner FROM table_owner WHERE table_id = :t "
                    f"AND owner <> :me AND {_LIVE_WORKER}), "
                    "taken AS (INSERT INTO table_owner (table_id, owner, token) "
                    "SELECT :t, :me, 1 WHERE NOT EXISTS (SELECT 1 FROM live) "
                    f"ON CONFLICT (table_id) DO UPDATE SET owner = :me, {_NEXT_TOKEN} "
                    "WHERE table_owner.owner IS NULL OR table_owner.owner = :me "
                    f"OR NOT {_LIVE_WORKER} RETURNING token) "
                    "SELECT (SELECT token FROM taken), (SELECT owner FROM live)"
                ),
                {"t": table_id, "me": self.worker_id},
            ).one()
        if row[0] is not None:
            return int(row[0]), self.worker_id
        return None, None if row[1] is None else str(row[1])

    def claim_all(self, table_ids: list[str]) -> dict[str, int]:
        """The claim of `claim_or_owner` for many tables in one statement (a takeover: a
        dead worker's tables at once, not one round trip each): those taken, with their
        new tokens."""
        if not table_ids:
            return {}
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "INSERT INTO table_owner (table_id, owner, token) "
                    "SELECT t, :me, 1 FROM unnest(CAST(:ids AS TEXT[])) AS t "
                    f"ON CONFLICT (table_id) DO UPDATE SET owner = :me, {_NEXT_TOKEN} "
                    "WHERE table_owner.owner IS NULL OR table_owner.owner = :me "
                    f"OR NOT {_LIVE_WORKER} "
                    "RETURNING table_id, token"
                ),
                {"ids": sorted(table_ids), "me": self.worker_id},  # one lock order for all
            )
            return {r[0]: int(r[1]) for r in rows}

    def orphans(self, never_owned: bool = True) -> list[str]:
        """Tables still in play whose owner is gone; with `never_owned`, also those begun
        that never had one (tables begun before any worker took tables: a worker takes a
        table before its first command, so none begins unowned after that; a scan of every
        table, so the sweep asks for them once a lease's time). A table nobody has taken yet
        whose game has not begun is not one: no clock of its runs, and the worker its first
        command reaches takes it."""
        live = {"live": [status.value for status in LIVE]}
        with self.engine.begin() as conn:
            rows = list(
                conn.execute(
                    text(  # the live workers once, then only the rows no live worker holds
                        "SELECT o.table_id FROM table_owner o "
                        "JOIN game_table g ON g.id = o.table_id "
                        "WHERE g.status = ANY(:live) AND (o.owner IS NULL OR o.owner <> ALL("
                        "ARRAY(SELECT worker_id FROM worker_lease "
                        "WHERE expires_at > clock_timestamp())))"
                    ),
                    live,
                )
            )
            if never_owned:
                rows += conn.execute(
                    text(
                        "SELECT g.id FROM game_table g "
                        "WHERE g.status = ANY(:live) AND g.status <> :waiting AND NOT EXISTS "
                        "(SELECT 1 FROM table_owner o WHERE o.table_id = g.id)"
                    ),
                    {**live, "waiting": TableStatus.WAITING.value},
                )
            return [r[0] for r in rows]

    def holders(self, table_ids: list[str]) -> dict[str, tuple[str | None, int]]:
        """Who holds each of these tables, with which token."""
        if not table_ids:
            return {}
        with self.engine.begin() as conn:
            rows = conn.execute(
                text("SELECT table_id, owner, token FROM table_owner WHERE table_id = ANY(:ids)"),
                {"ids": table_ids},
            )
            return {r[0]: (r[1], int(r[2])) for r in rows}

    def mine(self) -> dict[str, int]:
        """The tables this worker owns, with their tokens."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                text("SELECT table_id, token FROM table_owner WHERE owner = :me"),
                {"me": self.worker_id},
            )
            return {r[0]: int(r[1]) for r in rows}
