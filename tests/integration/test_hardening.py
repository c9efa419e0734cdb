"""Web hardening: each test replays an attack (or a failure) and shows it refused,
with the server's state as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from app.settings import Settings
from app.store.repository import Store

# --- durability: an acked tap survives a power loss ------------------------------------


def test_acked_tap_survives_power_loss__sqlite_synchronous_full_by_default(
    tmp_path: Path,
) -> None:
    """With synchronous=FULL the write-ahead log is synced at every commit: a tap the
    phone saw acked is on disk. Both the pool's connections and the hot-path writer."""
    assert Settings().sqlite_synchronous == "FULL"
    store = Store(f"sqlite:///{tmp_path / 'full.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        writer = store._writer()
        assert writer.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        store.close()


def test_sqlite_synchronous_normal_only_when_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEATHCLOCK_SQLITE_SYNCHRONOUS", "normal")
    settings = Settings.from_env()
    store = Store(f"sqlite:///{tmp_path / 'normal.db'}", synchronous=settings.sqlite_synchronous)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    finally:
        store.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(f"sqlite:///{tmp_path / 'off.db'}", synchronous="OFF")
