"""People read names, never seats: the EO's dashboard (and the hall's projector view of
it) and the table page the EO opens tag no player "P1" or "P2" in a text a person reads
(a text, a title, an aria-label, a tooltip), before or after the table decided who goes
first. "p1"/"p2" stay as keys, classes and data attributes, which nobody reads.

The texts are read from the source: every string literal of the dashboard's scripts and
of the table page's scripts (main.js and every module it imports, as the browser loads
them) outside comments, and both pages' templates outside template comments."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ("web/templates/dashboard.html", "web/templates/table.html")
#: A seat named as a tag: "P1", "P2's clock", "(P2)", "Player 1"; the template's
#: `side|upper` writes the same tag from a key.
SEAT = re.compile(r"\bP[12]\b|\bPlayer [12]\b|\|\s*upper\b")

_JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
_IMPORT = re.compile(r"""^\s*import\b[^;]*?from\s+"(\.{1,2}/[^"]+\.js)";""", re.M | re.S)


def _js_code(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|[\s;{}(),])//[^\n]*", r"\1", text)


def table_page_scripts() -> list[Path]:
    """The table page's modules: main.js and all it imports, as the browser follows them."""
    seen: list[Path] = []
    todo = [STATIC / "table" / "main.js"]
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.append(path)
        for found in _IMPORT.findall(path.read_text(encoding="utf-8")):
            todo.append(path.parent / found)
    return sorted(seen)


def dashboard_scripts() -> list[Path]:
    return sorted((STATIC / "event").glob("dashboard*.js"))


def texts() -> Iterator[tuple[str, str]]:
    """(where, text): every string literal of both pages' scripts, every template's words."""
    for path in dashboard_scripts() + table_page_scripts():
        where = path.relative_to(ROOT).as_posix()
        code = _js_code(path.read_text(encoding="utf-8"))
        for match in _JS_STRING.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            yield f"{where}:{line}", match.group(0)
    for name in TEMPLATES:
        text = (ROOT / name).read_text(encoding="utf-8")
        text = re.sub(r"\{#.*?#\}|<!--.*?-->", "", text, flags=re.S)
        for number, line in enumerate(text.splitlines(), start=1):
            yield f"{name}:{number}", line


def test_the_sweep_reads_both_pages() -> None:
    """A guard on the sweep itself: it reads the dashboard's, the projector's and the
    table page's modules and templates, and the words they show."""
    names = {p.name for p in table_page_scripts()}
    assert {
        "main.js",
        "ui.js",
        "render.js",
        "prompt.js",
        "pregame.js",
        "scenario-diagram.js",
    } <= names
    assert "dashboard-fit.js" in {p.name for p in dashboard_scripts()}
    said = "".join(text for _, text in texts())
    assert "Adjust clock" in said and "first player" in said and "Projector mode" in said
    assert "Warn for pausing" in said


def test_the_sweep_catches_a_seat_tag() -> None:
    """The pattern finds a seat however a page would say it, and spares keys and classes."""
    for said in ('"P1"', '"Turn " + n + " — P2"', '"P2\'s clock"', '"(P1)"', "{{ side|upper }}"):
        assert SEAT.search(said), said
    for key in ('"p1"', '"side-p2"', '"running-p1"', 'data-side="p2"', '"cp-p1"'):
        assert not SEAT.search(key), key


def test_no_seat_tag_reaches_the_eo_or_the_hall() -> None:
    """The dashboard, its projector view and the EO's table page say names (and "first
    player"/"second player" once decided), never "P1"/"P2"."""
    found = [f"{where}: {text.strip()[:100]!r}" for where, text in texts() if SEAT.search(text)]
    assert found == [], "\n".join(found)
