"""Every benchmark under `bench/` still imports: a name the app moves or renames breaks the
benchmark that used it here, not on the day someone measures with it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for path in (ROOT / "bench").rglob("*.py")
    if path.name != "__init__.py"
)


def test_there_are_benchmarks() -> None:
    assert "bench.table_latency" in MODULES and "bench.tap_cost" in MODULES


@pytest.mark.parametrize("module", MODULES)
def test_the_benchmark_imports(module: str) -> None:
    importlib.import_module(module)
