"""The domain imports only the standard library and itself (DESIGN: layers)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "app" / "domain"
FILES = sorted(DOMAIN.rglob("*.py"))

#: standard modules that would bring in I/O, the wall clock or chance
IMPURE = {
    "asyncio",
    "datetime",
    "logging",
    "os",
    "secrets",
    "socket",
    "sqlite3",
    "subprocess",
    "threading",
    "time",
    "uuid",
}


def imported_modules(path: Path) -> list[str]:
    package = ".".join(path.relative_to(DOMAIN.parents[1]).with_suffix("").parts[:-1])
    return modules_imported_by(path.read_text(encoding="utf-8"), package)


def modules_imported_by(source: str, package: str) -> list[str]:
    """Every module `source` imports, relative imports resolved against `package`."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            if module == "app":
                found.extend(f"app.{alias.name}" for alias in node.names)
            else:
                found.append(module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
        ):
            found.append("<dynamic __import__>")
    return found


#: Pure algorithm libraries the domain may use: no I/O, no framework, no clock.
#: networkx gives the pairer a real maximum-weight matching (RP2).
PURE_LIBRARIES = {"networkx"}


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    if module == "app.domain" or module.startswith("app.domain."):
        return True
    if top in PURE_LIBRARIES:
        return True
    return top in sys.stdlib_module_names or top == "__future__"


def test_the_domain_has_modules() -> None:
    names = {p.name for p in FILES}
    assert {"clock.py", "game.py", "commands.py", "formats.py", "scenarios.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_domain_imports_only_stdlib_and_itself(path: Path) -> None:
    foreign = [m for m in imported_modules(path) if not allowed(m)]
    assert foreign == [], f"{path.name} imports {foreign}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_domain_has_no_io_wall_clock_or_chance(path: Path) -> None:
    used = {m.split(".")[0] for m in imported_modules(path)} & IMPURE
    assert used == set(), f"{path.name} imports {sorted(used)}"
    assert module_level_chance(path) == [], f"{path.name} draws from the global random state"


def module_level_chance(path: Path) -> list[str]:
    """Calls like random.choice(...): chance must come in as a random.Random argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"random.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
        and node.attr != "Random"
    ]


def test_the_import_check_sees_foreign_imports() -> None:
    """The checker itself: third-party and outer-layer imports are caught."""
    source = (
        "import fastapi\n"
        "from app.store import models\n"
        "from app import tables, domain\n"
        "from ..api import rest\n"
        "from . import clock\n"
        "from .errors import RuleError\n"
        "import json, collections.abc\n"
    )
    modules = modules_imported_by(source, "app.domain")
    assert [m for m in modules if not allowed(m)] == [
        "fastapi",
        "app.store",
        "app.tables",
        "app.api",
    ]
    assert {"app.domain", "app.domain.errors", "json", "collections.abc"} <= set(modules)
