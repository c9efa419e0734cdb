"""People read names, never seats: no page of the product (the EO's dashboard and the
hall's projector view of it, the event's admin with its EO log, the table page on every
screen, the table's log, the new game form, the event's and the players' pages, the
cards, sheets and slips, the Runewars pages, the season's) tags a player "P1" or "P2" in
a text a person reads (a text, a title, an aria-label, a tooltip), before or after the
table decided who goes first. "p1"/"p2" stay as keys, classes and data attributes,
which nobody reads.

The texts are read from the source: every string literal of every script the pages
load (all of web/static, outside comments) and every template outside template
comments, so a new page joins the sweep by being there. A tag a script would write
from a key ("p1" upper-cased) is caught where it is made: no script upper-cases
anything but a first letter."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from app.domain.formats import FORMATS
from app.domain.game import Setup, new_game
from app.tables.warmachine.view import table_info

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
#: Every page's template.
TEMPLATES = tuple(
    sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "web" / "templates").glob("*.html"))
)
#: A seat named as a tag: "P1", "P2's clock", "(P2)", "Player 1"; the template's
#: `side|upper` writes the same tag from a key.
SEAT = re.compile(r"\bP[12]\b|\bPlayer [12]\b|\|\s*upper\b")

_JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
_IMPORT = re.compile(r"""^\s*import\b[^;]*?from\s+"(\.{1,2}/[^"]+\.js)";""", re.M | re.S)


def _js_code(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|[\s;{}(),])//[^\n]*", r"\1", text)


#: An upper-cased key: `side.toUpperCase()` makes "P1" of "p1". A first letter (a
#: sentence's, `text.charAt(0)`, or a one-letter callback's `c`) is all a page capitalises.
UPPER = re.compile(r"([\w$.()\[\]]+)\.toUpperCase\(\)")
FIRST_LETTER = re.compile(r"(?:\.charAt\(0\)|^\w)$")


def table_page_scripts() -> list[Path]:
    """The table page's and the log page's modules: main.js, log.js and all they import,
    as the browser follows them."""
    seen: list[Path] = []
    todo = [STATIC / "table" / "main.js", STATIC / "table" / "log.js"]
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


def page_scripts() -> list[Path]:
    """Every script any page loads: all of web/static."""
    return sorted(STATIC.rglob("*.js"))


def codes() -> Iterator[tuple[str, str]]:
    """(where, code): every script the pages load, outside comments."""
    for path in page_scripts():
        yield path.relative_to(ROOT).as_posix(), _js_code(path.read_text(encoding="utf-8"))


def texts() -> Iterator[tuple[str, str]]:
    """(where, text): every string literal of the pages' scripts, every template's words."""
    for where, code in codes():
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
        "ruleset.js",
        "state.js",
        "scenario-diagram.js",
        "log.js",
        "pregame-log.js",
        "story.js",
    } <= names
    assert "dashboard-fit.js" in {p.name for p in dashboard_scripts()}
    swept = {p.relative_to(STATIC).as_posix() for p in page_scripts()}
    assert {p.relative_to(STATIC).as_posix() for p in table_page_scripts()} <= swept
    assert {p.relative_to(STATIC).as_posix() for p in dashboard_scripts()} <= swept
    assert {"home.js", "lib/api.js", "event/admin-standings.js", "event/common.js"} <= swept
    assert {"event/rw-result.js", "event/cards.js"} <= swept
    assert {"web/templates/event_admin.html", "web/templates/tournament.html"} <= set(TEMPLATES)
    said = "".join(text for _, text in texts())
    assert "Adjust clock" in said and "first player" in said and "Projector mode" in said
    assert "Warn for pausing" in said
    assert "You go second. " in said and "Back to the table" in said
    assert "Goes first" in said and "Opponent" in said and "The second name" in said


def test_the_sweep_catches_a_seat_tag() -> None:
    """The pattern finds a seat however a page would say it, and spares keys and classes."""
    for said in ('"P1"', '"Turn " + n + " — P2"', '"P2\'s clock"', '"(P1)"', "{{ side|upper }}"):
        assert SEAT.search(said), said
    for key in ('"p1"', '"side-p2"', '"running-p1"', 'data-side="p2"', '"cp-p1"'):
        assert not SEAT.search(key), key


def test_the_sweep_catches_a_tag_made_from_a_key() -> None:
    """An upper-cased side is a seat tag; an upper-cased first letter is not."""
    made = ("side.toUpperCase()", "mine.toUpperCase()", "result.winner.toUpperCase()")
    for code in (*made, "me().toUpperCase()"):
        found = UPPER.search(code)
        assert found and not FIRST_LETTER.search(found.group(1)), code
    for code in ("text.charAt(0).toUpperCase()", "(c) => c.toUpperCase()"):
        found = UPPER.search(code)
        assert found and FIRST_LETTER.search(found.group(1)), code


def test_no_seat_tag_reaches_the_eo_the_hall_or_a_player() -> None:
    """Every page (the dashboard, its projector view, the event's admin and its EO log,
    the table page on every screen: a player's phone too, "Ann", "you", never "You are
    P1"; the table's log) says names (and "first player"/"second player" once decided),
    never "P1"/"P2"."""
    found = [f"{where}: {text.strip()[:100]!r}" for where, text in texts() if SEAT.search(text)]
    for where, code in codes():
        for match in UPPER.finditer(code):
            if not FIRST_LETTER.search(match.group(1)):
                line = code.count("\n", 0, match.start()) + 1
                found.append(f"{where}:{line}: {match.group(0)!r}")
    assert found == [], "\n".join(found)


def test_the_table_info_a_phone_reads_names_no_seat() -> None:
    """What the server sends every screen of a table about its rules (each scenario's
    elements, rules and victory words, in every format) says "the first player's
    friendly flag", never "P1's"."""
    found = []
    for rules in FORMATS.values():
        for scenario in rules.scenarios:
            game = new_game(Setup(rules.id, scenario.id, 60_000, 75, ("Ann", "Bob")), 0)
            said = json.dumps(table_info("t1", game), ensure_ascii=False)
            found += [f"{rules.id}/{scenario.id}: {m}" for m in SEAT.findall(said)]
    assert found == [], "\n".join(found[:20])
