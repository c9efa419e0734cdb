"""What one worker on SQLite imports to start: none of the PostgreSQL driver, which only
several workers (or a PostgreSQL URL) need. A restart is measured in tenths of a second
(bench.restart: all tables answer within 2 s), and psycopg alone is a tenth."""

from __future__ import annotations

import subprocess
import sys


def test_the_server_module_imports_no_postgresql_driver() -> None:
    code = "import sys, app.main; print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_the_server_answers_before_it_imports_the_organisers_side() -> None:
    # The event's use cases and the pages' and REST routers come once the phones of a
    # start are in (app.organiser_door), not before the server answers.
    code = (
        "import sys, app.main; print(sorted(m for m in sys.modules if m in"
        " ('app.organiser', 'app.events.service', 'app.api.events', 'app.api.pages')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout
