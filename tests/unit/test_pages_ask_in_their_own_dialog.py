"""Every EO action that cannot be undone asks first, in the page's own dialog
(web/static/event/confirm.js: it names what will change and answers to its buttons,
Escape or a click outside it), never the browser's `confirm`, `alert` or `prompt`, which a
browser may stop showing ("prevent this page from creating more dialogs") and which say
nothing of the table or the player. Read from every script of every page, outside
comments."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
BROWSER_DIALOG = re.compile(r"(?<![\w.$])(?:window\.)?(confirm|alert|prompt)\s*\(")


def _code(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|[\s;{}(),])//[^\n]*", r"\1", text)


def test_the_pattern_finds_a_browser_dialog_and_spares_the_pages_own() -> None:
    for code in ('if (!confirm("Sure?")) return;', "window.confirm(x)", "alert('no')"):
        assert BROWSER_DIALOG.search(code), code
    for code in (
        "await ask({ confirm: 'Dice down' })",
        "o.confirm || 'Confirm'",
        "DC.alertLine(x)",
    ):
        assert not BROWSER_DIALOG.search(code), code


def test_no_page_asks_with_the_browsers_own_dialog() -> None:
    scripts = sorted(STATIC.rglob("*.js"))
    assert {"dashboard-render.js", "prizes.js", "timer.js", "confirm.js"} <= {
        p.name for p in scripts
    }
    found = []
    for path in scripts:
        code = _code(path.read_text(encoding="utf-8"))
        for match in BROWSER_DIALOG.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(STATIC)}:{line}: {match.group(0)}")
    assert found == [], "\n".join(found)
