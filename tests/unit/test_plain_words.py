"""Words that reach people are plain: no rule id ("(DC4)", "RP2/RP3"), no header name
("X-EO-Token") and no field name of a form or an API body ("fixed_rounds") in a text a
page, a phone or an API error can show. Rule ids belong in docstrings, comments, logs
and test names.

The texts are read from the source: every string of app/ but docstrings, API
descriptions and log lines; every string of web/static's scripts outside comments; the
words of web/templates outside template comments. The army lists' messages are checked
with the army lists."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b(DC|TS|RP|ST|W|RW)\d{1,2}\b")
HEADER = re.compile(r"X-(EO|Table)-Token", re.IGNORECASE)
NOT_SAID = ("docstring", "description", "log")
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
DOC_KEYWORDS = {"description", "summary", "title", "help", "alias", "deprecated"}
# Packages whose strings are SQL or code, never said to anyone.
QUIET = ("app/store/", "app/domain/frozen.py", "app/domain/army_lists/")
SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|CREATE|DELETE|ALTER|PRAGMA|WITH|SET|FROM|WHERE|AND)\b")


def _unsaid(tree: ast.AST) -> set[int]:
    """The string nodes nobody reads on a page: docstrings, API descriptions, log lines."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            parts: list[ast.AST] = [kw.value for kw in node.keywords if kw.arg in DOC_KEYWORDS]
            if name in LOG_CALLS and isinstance(func, ast.Attribute):
                parts.append(node)
            for part in parts:
                skip.update(id(sub) for sub in ast.walk(part))
    return skip


def app_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every string of app/ that may be said to someone."""
    for path in sorted((ROOT / "app").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(QUIET):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _unsaid(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
            ):
                yield f"{where}:{node.lineno}", node.value


_JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")


def _js_code(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|[\s;{}(),])//[^\n]*", r"\1", text)


def web_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every string of web/static's scripts and every template's words."""
    for path in sorted((ROOT / "web" / "static").rglob("*.js")):
        where = path.relative_to(ROOT).as_posix()
        for match in _JS_STRING.finditer(_js_code(path.read_text(encoding="utf-8"))):
            yield where, match.group(0)
    for path in sorted((ROOT / "web" / "templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}|<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"<script\b.*?</script>", "", text, flags=re.S)
        yield path.relative_to(ROOT).as_posix(), text


def _sentence(text: str) -> bool:
    """A text said to someone: words with spaces, not SQL, not a key or a path."""
    return " " in text.strip() and not SQL.match(text)


def test_the_sweep_finds_the_texts() -> None:
    """The sweep reads the messages it is meant to (a guard on the sweep itself)."""
    said = {text for _, text in app_texts()}
    assert any("has not started" in t for t in said)
    web = "".join(text for _, text in web_texts())
    assert "Apply round end now" in web and "Open a blind vote" in web


@pytest.mark.parametrize("source", [app_texts, web_texts], ids=["app", "web"])
def test_no_rule_id_or_header_name_reaches_people(source: object) -> None:
    assert callable(source)
    found = [
        f"{where}: {text.strip()[:100]!r}"
        for where, text in source()
        if RULE_ID.search(text) or (_sentence(text) and HEADER.search(text))
    ]
    assert found == [], "\n".join(found)


def api_fields() -> set[str]:
    """The names of the fields the pages' forms and the API's bodies carry ("fixed_rounds")."""
    import importlib
    import inspect
    import pkgutil

    import pydantic

    import app.api

    names: set[str] = set()
    for found in pkgutil.walk_packages(app.api.__path__, "app.api."):
        module = importlib.import_module(found.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, pydantic.BaseModel) and cls.__module__ == module.__name__:
                names.update(name for name in cls.model_fields if "_" in name)
    return names


def test_no_field_name_in_a_message() -> None:
    fields = api_fields()
    assert {"fixed_rounds", "cut_to_top", "clock_minutes"} <= fields
    word = re.compile(r"\b(" + "|".join(sorted(fields)) + r")\b")
    found = [
        f"{where}: {text.strip()[:100]!r}"
        for where, text in app_texts()
        if _sentence(text) and word.search(text)
    ]
    assert found == [], "\n".join(found)


def test_an_api_refusal_for_want_of_the_eo_key_says_so_plainly() -> None:
    """The EO's view asked for without the key: the body a page shows names no header."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings

    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        event = client.post("/api/events", json={"name": "Plain Open"}).json()
        refused = client.get(f"/api/events/{event['id']}/admin")
    assert refused.status_code == 401
    detail = refused.json()["detail"]
    assert "X-EO-Token" not in detail and "header" not in detail.lower(), detail
    assert "EO" in detail or "organiser" in detail.lower(), detail
