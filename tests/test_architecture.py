"""The house stays easy to enter: the import graph is read from the source and held to its shape.

- No import circle among `app/` modules (imports under `TYPE_CHECKING` count: a reader follows
  them too) nor among `web/static` ES modules.
- The one-table room knows nothing of workers: nothing in `app/tables` imports `app/cluster`.
- The API reaches stored data only through the use cases: nothing in `app/api` imports
  `app/store`.
- No module in `app/`, `web/static` or `bench/` is over 400 lines: a module that needs trimming
  to fit has two jobs.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 400
SOURCES = (("app", (".py",)), ("bench", (".py",)), ("web/static", (".js", ".css", ".html")))
ES_IMPORT = re.compile(
    r"""(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]"""
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, package: str) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)


def python_imports(top: str = "app") -> nx.DiGraph:
    """Each `app` module and the `app` modules it imports, wherever the import sits."""
    files = {_module_name(path): path for path in (ROOT / top).rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _imported(node, package):
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph.add_edge(name, target)
    return graph


def script_imports(top: str = "web/static") -> nx.DiGraph:
    """Each ES module under `web/static` and the relative modules it imports."""
    graph = nx.DiGraph()
    for path in (ROOT / top).rglob("*.js"):
        name = path.relative_to(ROOT).as_posix()
        graph.add_node(name)
        for found in ES_IMPORT.finditer(path.read_text(encoding="utf-8")):
            target = (path.parent / (found.group(1) or found.group(2))).resolve()
            graph.add_edge(name, target.relative_to(ROOT).as_posix())
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(part) for part in nx.strongly_connected_components(graph) if len(part) > 1)


def arrows(graph: nx.DiGraph, source: str, target: str) -> list[tuple[str, str]]:
    def inside(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")

    return sorted((a, b) for a, b in graph.edges if inside(a, source) and inside(b, target))


def test_reader_finds_circles_and_forbidden_arrows() -> None:
    """The checks below can fail: a made-up graph with a circle and an arrow is caught."""
    graph = nx.DiGraph([("app.tables.room", "app.cluster.placement"), ("a", "b"), ("b", "a")])
    assert circles(graph) == [["a", "b"]]
    assert arrows(graph, "app.tables", "app.cluster") == [
        ("app.tables.room", "app.cluster.placement")
    ]
    assert arrows(graph, "app.tables.ro", "app.cluster") == []


def test_reader_sees_real_imports() -> None:
    """The graphs are read from the source: known imports are there, so an empty graph fails."""
    python = python_imports()
    assert ("app.main", "app.settings") in python.edges
    assert python.number_of_edges() > 200
    scripts = script_imports()
    assert scripts.number_of_edges() > 30


def test_no_import_circle_among_app_modules() -> None:
    assert circles(python_imports()) == []


def test_no_import_circle_among_web_static_modules() -> None:
    assert circles(script_imports()) == []


def test_the_table_room_knows_nothing_of_workers() -> None:
    assert arrows(python_imports(), "app.tables", "app.cluster") == []


def test_the_api_reaches_the_store_only_through_use_cases() -> None:
    assert arrows(python_imports(), "app.api", "app.store") == []


def test_no_module_over_400_lines() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): count
        for top, suffixes in SOURCES
        for path in (ROOT / top).rglob("*")
        if path.suffix in suffixes
        and (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}
