"""SQLite's write-ahead log copied back into the database file, off the event loop."""

from __future__ import annotations

import contextlib
import sqlite3
import threading

#: How often the SQLite write-ahead log is copied back into the database file.
CHECKPOINT_EVERY_S = 1.0


class Checkpointer:
    """Copies the write-ahead log back into the SQLite file from a thread of its own.

    SQLite would otherwise do it inside whichever commit fills the log past 1000 pages:
    a tap's commit on the server's loop, stalled for the copy and two fsyncs. sqlite3
    lets go of the GIL while it works, so the loop carries on meanwhile; a PASSIVE
    checkpoint never blocks a writer.
    """

    def __init__(self, path: str, every_s: float = CHECKPOINT_EVERY_S) -> None:
        self.path = path
        self.every_s = every_s
        self.stopping = threading.Event()
        self.connection: sqlite3.Connection | None = None
        self.thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.every_s):
            with contextlib.suppress(sqlite3.Error):
                self.run_once()

    def run_once(self) -> tuple[int, int, int]:
        """One pass: (busy, frames in the log, frames copied), as SQLite reports them."""
        if self.connection is None:
            self.connection = sqlite3.connect(self.path, check_same_thread=False)
            self.connection.execute("PRAGMA busy_timeout=5000")
        busy, frames, copied = self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(copied)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)
        if self.connection is not None:
            self.connection.close()
            self.connection = None
