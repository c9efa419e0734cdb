"""The code stays lint-clean and strictly typed (ruff, mypy --strict on app/).

Both tools run from the interpreter running the tests (`sys.executable -m ...`): the ones the
test extras installed in this environment, not whatever another PATH entry holds.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_is_clean() -> None:
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed in this environment (pip install -e '.[test]')")
    done = _run(sys.executable, "-m", "ruff", "check", "app", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_app() -> None:
    done = _run(sys.executable, "-m", "mypy", "--strict", "app")
    assert done.returncode == 0, done.stdout + done.stderr
