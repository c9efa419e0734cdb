"""CSV exports are safe whatever separator the spreadsheet reads them with: a comma, a
semicolon (common in European locales), a tab or a bar. Player-typed text with a
formula after one of those (`x;=1+1;y`) must never come out as a formula cell, while
names, plain text and the numbers the server wrote stay as they are."""

from __future__ import annotations

import csv
import io
import re

import httpx

from app.api.exports import csv_cell
from app.domain.runewars.standings import Standing, export_csv
from tests.conftest import PhoneFactory, RunningServer, token_of

SEPARATORS = (",", ";", "\t", "|")
FORMULA = ("=", "+", "-", "@")

#: Text a player may type that some spreadsheet would split into a formula cell.
EVIL = [
    "x;=1+1;y",
    "Ann|@SUM(1+1)",
    "Bo,+cmd|' /C calc'!A0",
    "Cy\t-2+3",
    'Di; "=HYPERLINK(1)',
    "Ed;;  -1+1",
]
#: Ordinary text: read back exactly as typed.
PLAIN = ["Ann-Marie O'Neil", "Smith, John", "Zoe; the 2nd"]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _formula(field: str) -> bool:
    """A spreadsheet evaluates this field: past blanks and quotes it starts a formula."""
    start = field.lstrip(' \t"\r\n')
    return start.startswith(FORMULA) and not _is_number(start.strip('"'))


def formula_fields(text: str) -> list[tuple[str, str]]:
    """Every field some spreadsheet would run, for every separator, read two ways: as a
    CSV reader that follows the quotes, and as one that splits on every separator and
    every line break whatever the quotes say (a reader out of step with the quoting)."""
    found: list[tuple[str, str]] = []
    for sep in SEPARATORS:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=sep):
            found += [(repr(sep) + " quoted", f) for f in row if _formula(f)]
        for line in re.split(r"\r\n|\r|\n", text):
            found += [(repr(sep) + " split", f) for f in line.split(sep) if _formula(f)]
    return found


def test_a_formula_after_any_separator_is_not_a_formula_cell() -> None:
    for value in EVIL:
        cell = csv_cell(value)
        assert isinstance(cell, str) and cell.replace("'", "") == value.replace("'", "")
        out = io.StringIO()
        csv.writer(out).writerow([1, "Khador", cell, -3])
        assert formula_fields(out.getvalue()) == [], (value, out.getvalue())
    for value in PLAIN:
        assert csv_cell(value) == value
    assert csv_cell(-3) == -3 and csv_cell(7) == 7 and csv_cell(2.5) == 2.5
    assert csv_cell(True) is True and csv_cell(None) is None


def test_runewars_standings_text_export_is_safe_for_every_separator() -> None:
    rows = [
        Standing(n, f"p{n}", name, 8, -3, 0, False)  # type: ignore[arg-type]
        for n, name in enumerate(EVIL, start=1)
    ]
    text = export_csv(rows)
    assert formula_fields(text) == [], text
    assert [r[3] for r in csv.reader(io.StringIO(text))][1:] == ["-3"] * len(EVIL)


async def test_every_export_is_safe_for_every_separator(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = await http.post("/api/events", json={"name": "Separators Open", "points": 75})
        eid, eo = created.json()["id"], {"X-EO-Token": created.json()["admin_token"]}
        for name, faction in (
            (EVIL[0], EVIL[1]),
            (EVIL[2], EVIL[3]),
            (PLAIN[0], PLAIN[1]),
            (EVIL[4], EVIL[5]),
        ):
            added = await http.post(
                f"/api/events/{eid}/players", json={"name": name, "faction": faction}, headers=eo
            )
            assert added.status_code == 201, added.text
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        tables = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        for n, table in enumerate(tables):
            tid = table["links"]["id"]
            p1 = await phone(tid, token_of(table["links"]["p1"]["url"]), f"sep-{n}-1")
            p2 = await phone(tid, token_of(table["links"]["p2"]["url"]), f"sep-{n}-2")
            assert (await p1.command("concede"))["t"] == "ack"
            reported = await p2.command("report", army_points_destroyed=20, list_played=EVIL[0])
            assert reported["t"] == "ack", reported
            for client in (p1, p2):
                assert (await client.command("confirm"))["t"] == "ack", client.received[-1]

        rw = await http.post(
            "/api/events", json={"name": "RW", "format": "runewars2017", "fixed_rounds": 2}
        )
        rid, rw_eo = rw.json()["id"], {"X-EO-Token": rw.json()["admin_token"]}
        for n, name in enumerate(EVIL + PLAIN[:1]):
            added = await http.post(
                f"/api/events/{rid}/tournament/players",
                json={"name": name, "army_value": 180 + n},
                headers=rw_eo,
            )
            assert added.status_code == 201, added.text

        exports = {}
        for path in (
            f"/api/events/{eid}/results.csv",
            f"/api/events/{eid}/standings.csv",
            f"/api/events/{eid}/pairings.csv",
            f"/api/events/{rid}/standings.csv",
            f"/api/events/{rid}/tournament/standings.csv",
        ):
            response = await http.get(path)
            assert response.status_code == 200, (path, response.text)
            exports[path] = response.text

    for path, text in exports.items():
        assert formula_fields(text) == [], (path, text)
    results = list(csv.DictReader(io.StringIO(exports[f"/api/events/{eid}/results.csv"])))
    assert {row["list_played"] for row in results} - {""} == {csv_cell(EVIL[0])}
    assert PLAIN[0] in {row["player"] for row in results}  # ordinary names as typed
    assert PLAIN[1] in {row["faction"] for row in results}
    assert all(row["control_points"].isdigit() for row in results)  # numbers stay numbers
    rw_rows = csv.DictReader(io.StringIO(exports[f"/api/events/{rid}/standings.csv"]))
    assert PLAIN[0] in {row["name"] for row in rw_rows}
