"""The code stays lint-clean and strictly typed (ruff, mypy --strict on app/)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    done = _run("ruff", "check", "app", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_app() -> None:
    done = _run(sys.executable, "-m", "mypy", "--strict", "app")
    assert done.returncode == 0, done.stdout + done.stderr
