"""Settings from the environment (DEATHCLOCK_*)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite:///./data/deathclock.db"
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str = ""
    seed: int | None = None
    allowed_origins: tuple[str, ...] = ()
    heartbeat_ms: int = 10_000
    rate_per_s: float = 15.0
    rate_burst: float = 40.0
    #: Watch screens a table (the projector, spectators); each seat and the EO have their
    #: own `screens_per_seat`, so watchers never take a player's or the EO's place.
    sockets_per_table: int = 16
    screens_per_seat: int = 4
    #: A seat's commands, across all its screens: an offline message counts each one.
    command_rate_per_s: float = 5.0
    command_burst: float = 200.0
    #: Log pages read (socket or REST): a budget per table and link, all of the link's
    #: screens and requests together, and one per client address, every table it reads.
    read_per_s: float = 10.0
    read_burst: float = 60.0
    client_read_per_s: float = 20.0
    client_read_burst: float = 120.0
    queue_limit: int = 256
    #: What a screen may have waiting to be sent before it is dropped (it then resyncs).
    queue_bytes: int = 1 << 20
    players_per_event: int = 1024
    #: One token bucket per client address for what opens something (a socket, a table,
    #: an event) and for what misses (an unknown id, a wrong token): `client_per_s`
    #: refilled a second, up to `client_burst`. A venue behind one NAT shares a bucket.
    client_per_s: float = 5.0
    client_burst: float = 300.0
    #: SQLite `PRAGMA synchronous`: FULL keeps every acked tap through a power loss;
    #: NORMAL is faster but may lose the last taps with the power.
    sqlite_synchronous: str = "FULL"
    #: Several workers: Redis between them (empty: this process is the only one), the
    #: prefix of every channel they use, and how long a dead worker keeps its tables.
    redis_url: str = ""
    redis_prefix: str = "deathclock"
    lease_ms: int = 2_000

    @property
    def clustered(self) -> bool:
        return bool(self.redis_url)

    def cluster_problem(self) -> str | None:
        """Why these settings cannot run as one of several workers (None: they can)."""
        if not self.database_url.startswith("postgresql"):
            return (
                "several workers need PostgreSQL: set DEATHCLOCK_DATABASE_URL to a "
                "postgresql+psycopg:// URL (SQLite serves one worker only)"
            )
        if not self.redis_url:
            return "several workers need Redis: set DEATHCLOCK_REDIS_URL (redis://host:6379/0)"
        return None

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("DEATHCLOCK_DATABASE_URL", cls.database_url),
            host=env.get("DEATHCLOCK_HOST", cls.host),
            port=int(env.get("DEATHCLOCK_PORT", str(cls.port))),
            public_url=env.get("DEATHCLOCK_PUBLIC_URL", cls.public_url),
            seed=int(env["DEATHCLOCK_SEED"]) if env.get("DEATHCLOCK_SEED") else None,
            client_per_s=float(env.get("DEATHCLOCK_CLIENT_PER_S", str(cls.client_per_s))),
            client_burst=float(env.get("DEATHCLOCK_CLIENT_BURST", str(cls.client_burst))),
            sqlite_synchronous=env.get("DEATHCLOCK_SQLITE_SYNCHRONOUS", cls.sqlite_synchronous),
            redis_url=env.get("DEATHCLOCK_REDIS_URL", cls.redis_url),
            redis_prefix=env.get("DEATHCLOCK_REDIS_PREFIX", cls.redis_prefix),
            lease_ms=int(env.get("DEATHCLOCK_LEASE_MS", str(cls.lease_ms))),
            allowed_origins=tuple(
                o.strip() for o in env.get("DEATHCLOCK_ALLOWED_ORIGINS", "").split(",") if o.strip()
            ),
        )
