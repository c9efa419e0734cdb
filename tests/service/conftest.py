"""The event service with a real SQLite store and fake time."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.events.service import EventService
from app.store.repository import Store
from app.tables.hub import TableHub
from app.tables.timesource import FakeTime


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[EventService]:
    store = Store(f"sqlite:///{tmp_path / 'events.db'}")
    time = FakeTime()
    hub = TableHub(store, time, random.Random(3))
    events = EventService(store, hub, time, random.Random(3))
    yield events
    await events.close()
    await hub.close()
    store.close()
