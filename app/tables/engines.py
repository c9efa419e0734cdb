"""The table engines by name, and the engine a format's tables run on (`app.domain.games`)."""

from __future__ import annotations

from collections.abc import Mapping

from app.domain.games import engine_name
from app.tables.engine import Engine
from app.tables.runewars.engine import RUNEWARS
from app.tables.warmachine.engine import WARMACHINE

ENGINES: Mapping[str, Engine] = {"warmachine": WARMACHINE, "runewars": RUNEWARS}


def engine_for(format_id: str) -> Engine:
    """The engine a format's tables run on (BadInput for an unknown format)."""
    return ENGINES[engine_name(format_id)]
